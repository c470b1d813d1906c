package dev.memhook.api.spi;

import dev.memhook.api.MemoryId;
import java.util.Objects;

/**
 * One result of a store search: a memory id and the search's raw score (BM25 score, cosine
 * similarity, or entity-overlap weight). Higher is better.
 *
 * @param id the memory
 * @param score the raw score
 */
public record StoreHit(MemoryId id, double score) {
  /** Validates the hit. */
  public StoreHit {
    Objects.requireNonNull(id, "id");
    if (Double.isNaN(score)) {
      throw new IllegalArgumentException("score must not be NaN");
    }
  }
}
