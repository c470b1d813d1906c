package dev.memhook.api;

import java.util.Arrays;
import java.util.Objects;

/**
 * The vector a store holds for a memory, with the model that made it: what {@link
 * MemoryMaintenance#exportWithVectors} hands out and {@link MemoryMaintenance#restoreExported}
 * takes back, so that a memory restored into a store of the same embedding space keeps its vector
 * instead of being embedded again.
 *
 * <p>{@code modelId} names the model and its query/document convention exactly as the embedder does
 * ({@code dev.memhook.api.spi.Embedder#modelId()}); a vector is reused only where both the model id
 * and the dimension equal the restoring service's.
 *
 * <p>Immutable and thread-safe: the values are copied in and out. Equality compares the model id
 * and the values exactly. Null arguments are rejected with {@link NullPointerException}.
 */
public final class MemoryVector {
  /** The longest model id accepted, in characters: far above any real one. */
  public static final int MAX_MODEL_ID_CHARS = 256;

  private final String modelId;
  private final float[] values;

  private MemoryVector(String modelId, float[] values) {
    this.modelId = modelId;
    this.values = values;
  }

  /**
   * A vector of {@code modelId} holding a copy of {@code values}.
   *
   * @throws IllegalArgumentException if {@code modelId} is blank or longer than {@link
   *     #MAX_MODEL_ID_CHARS}, {@code values} is empty, or a value is not finite (the message names
   *     its index)
   */
  public static MemoryVector of(String modelId, float... values) {
    Objects.requireNonNull(modelId, "modelId");
    Objects.requireNonNull(values, "values");
    if (modelId.isBlank() || modelId.length() > MAX_MODEL_ID_CHARS) {
      throw new IllegalArgumentException(
          "modelId must be 1 to " + MAX_MODEL_ID_CHARS + " characters and not blank");
    }
    if (values.length == 0) {
      throw new IllegalArgumentException("a vector needs at least one dimension");
    }
    float[] copy = values.clone();
    for (int i = 0; i < copy.length; i++) {
      if (!Float.isFinite(copy[i])) {
        throw new IllegalArgumentException("vector value " + i + " is not finite: " + copy[i]);
      }
    }
    return new MemoryVector(modelId, copy);
  }

  /** The model (and its convention) that made this vector. */
  public String modelId() {
    return modelId;
  }

  /** The number of dimensions. */
  public int dimension() {
    return values.length;
  }

  /** A copy of the values. */
  public float[] toArray() {
    return values.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MemoryVector v
        && modelId.equals(v.modelId)
        && Arrays.equals(values, v.values);
  }

  @Override
  public int hashCode() {
    return 31 * modelId.hashCode() + Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return "MemoryVector[modelId=" + modelId + ", dimension=" + values.length + "]";
  }
}
