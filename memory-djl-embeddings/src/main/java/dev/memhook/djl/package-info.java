/**
 * Local, offline sentence embeddings through DJL and ONNX Runtime.
 *
 * <p>{@link dev.memhook.djl.DjlEmbedder} runs an ONNX sentence-embedding model with its {@code
 * tokenizer.json}; {@link dev.memhook.djl.DjlEmbedder#bundledMiniLm()} uses the int8
 * all-MiniLM-L6-v2 weights shipped on the class path, and {@link
 * dev.memhook.djl.DjlEmbedderProvider} offers it to {@code Memhook.builder()} through {@link
 * java.util.ServiceLoader}. {@link dev.memhook.djl.CachingEmbedder} memoises any embedder.
 *
 * <p>No DJL type appears in a public signature. Nothing here downloads anything: models are read
 * from files or class-path resources, and DJL's offline switch is turned on before DJL is first
 * used unless the host set it (see {@link dev.memhook.djl.DjlEmbedder}).
 */
package dev.memhook.djl;
