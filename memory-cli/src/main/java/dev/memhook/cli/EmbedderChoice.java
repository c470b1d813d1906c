package dev.memhook.cli;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.djl.DjlEmbedder;
import dev.memhook.djl.DjlEmbedderProvider;

/**
 * The embedders {@code --embedder} offers: those the library itself offers, the bundled MiniLM of
 * {@code memory-djl-embeddings} (the default a host gets) and the dependency-free hashing one.
 */
enum EmbedderChoice {
  /**
   * The model the store's vectors are in if it is one of the others, else that model's space
   * without the model ({@link UnbundledModel}: the store can be read, not searched); MiniLM for a
   * new store.
   */
  AUTO,
  /** The bundled int8 all-MiniLM-L6-v2, offline: the library's default. */
  MINILM,
  /** {@link HashingEmbedder}: no model, fast, lexical only. */
  HASHING;

  private static final String HASHING_PREFIX = "memhook-hashing-v1-d";

  /**
   * A new embedder for a store whose vectors are in {@code recorded} (null for a store without
   * any), which the caller owns.
   */
  Embedder create(EmbeddingSpace recorded) {
    return switch (this) {
      case MINILM -> new DjlEmbedderProvider().create();
      case HASHING -> hashing(recorded);
      case AUTO -> {
        if (recorded != null && !offers(recorded)) {
          yield new UnbundledModel(recorded);
        }
        yield recorded != null && recorded.modelId().startsWith(HASHING_PREFIX)
            ? hashing(recorded)
            : new DjlEmbedderProvider().create();
      }
    };
  }

  /** Whether one of the choices embeds in {@code space}. */
  static boolean offers(EmbeddingSpace space) {
    return space.modelId().equals(DjlEmbedder.MINILM_INT8_ID)
        || space.modelId().startsWith(HASHING_PREFIX);
  }

  private static Embedder hashing(EmbeddingSpace recorded) {
    return recorded != null && recorded.modelId().startsWith(HASHING_PREFIX)
        ? HashingEmbedder.withDimension(recorded.dimension())
        : HashingEmbedder.create();
  }
}
