package dev.memhook.api.spi;

import java.util.Objects;

/**
 * The vector space an embedder produces: its model and dimension. A store records the space of the
 * vectors it holds and refuses vectors from another.
 *
 * @param modelId a stable name of the model and its variant, such as {@code all-minilm-l6-v2-q}
 * @param dimension the number of dimensions, positive
 */
public record EmbeddingSpace(String modelId, int dimension) {
  /** Validates the space. */
  public EmbeddingSpace {
    Objects.requireNonNull(modelId, "modelId");
    if (modelId.isBlank()) {
      throw new IllegalArgumentException("modelId must not be blank");
    }
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be positive, got " + dimension);
    }
  }
}
