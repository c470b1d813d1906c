package dev.memhook.djl;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.EmbedderProvider;

/**
 * Offers the bundled int8 all-MiniLM-L6-v2 (offline) as the default embedder through {@link
 * java.util.ServiceLoader}; registered in {@code
 * META-INF/services/dev.memhook.api.spi.EmbedderProvider}.
 *
 * <p>It is {@link DjlEmbedder#bundledMiniLm()} with {@link DjlEmbedderBuilder#intraOpThreads(int)
 * intraOpThreads(1)}: a memory service embeds one short text per call (a query, a new memory), so
 * one ONNX Runtime thread per call leaves the other cores to the host and to the searches that run
 * beside the embedding (measurements in {@code benchmarks/RESULTS.md}, section 3). For bulk
 * embedding with {@link DjlEmbedder#embedAll} build a {@link DjlEmbedder} with the default threads
 * instead.
 *
 * <p>Stateless and thread-safe; every {@link #create()} loads a new embedder, which the caller owns
 * and closes.
 */
public final class DjlEmbedderProvider implements EmbedderProvider {
  /** This provider's name. */
  public static final String NAME = "djl-minilm-int8";

  /**
   * This provider's priority: 100, above the dependency-free fallback and leaving room for heavier
   * local models (higher) and remote ones (lower) registered later.
   */
  public static final int PRIORITY = 100;

  /** For {@link java.util.ServiceLoader}. */
  public DjlEmbedderProvider() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int priority() {
    return PRIORITY;
  }

  /**
   * Loads the bundled int8 MiniLM with one ONNX Runtime thread per call.
   *
   * @throws dev.memhook.api.EmbeddingException if the model is missing or cannot be loaded
   */
  @Override
  public Embedder create() {
    return DjlEmbedder.bundledMiniLmBuilder().intraOpThreads(1).build();
  }

  @Override
  public String toString() {
    return "DjlEmbedderProvider[" + NAME + ", priority " + PRIORITY + "]";
  }
}
