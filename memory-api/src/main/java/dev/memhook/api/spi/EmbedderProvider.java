package dev.memhook.api.spi;

/**
 * Offers a default {@link Embedder} through {@link java.util.ServiceLoader}, so putting a module
 * such as {@code memory-djl-embeddings} on the class path makes it the default embedder of {@code
 * Memhook.builder()}. The provider with the highest {@link #priority()} wins.
 *
 * <p>Implementations need a public no-argument constructor and must be thread-safe.
 */
public interface EmbedderProvider {

  /** A short name for logs, such as {@code djl-minilm-int8}. */
  String name();

  /** Higher wins; the dependency-free fallback is not a provider and always loses. */
  int priority();

  /**
   * Creates the embedder. Throwing {@link dev.memhook.api.EmbeddingException} makes the builder log
   * a notice and try the next provider.
   */
  Embedder create();
}
