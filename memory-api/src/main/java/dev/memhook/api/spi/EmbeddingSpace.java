package dev.memhook.api.spi;

import java.util.Objects;

/**
 * The vector space an embedder produces: its model, the model's query/document convention and the
 * dimension. A store records the space of the vectors it holds and refuses vectors from another,
 * and refuses to be searched from another: queries embedded with one convention are not comparable
 * with documents embedded under another, even by the same model.
 *
 * @param modelId a stable name of the model, its variant and its convention, such as {@code
 *     all-minilm-l6-v2-q} (symmetric) or {@code e5-small-v2-q+e5-query-passage} (the convention
 *     after a {@code +}; see {@link Embedder#modelId()})
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
