package dev.memhook.api.spi;

import java.util.Arrays;
import java.util.Objects;

/**
 * A dense vector of floats. Copies in and out, so it is immutable and thread-safe.
 *
 * <p>Values must be finite. Equality compares values exactly.
 */
public final class Embedding {
  private final float[] values;

  private Embedding(float[] values) {
    this.values = values;
  }

  /**
   * An embedding holding a copy of {@code values}.
   *
   * @throws IllegalArgumentException if {@code values} is empty or holds a non-finite value
   */
  public static Embedding of(float... values) {
    Objects.requireNonNull(values, "values");
    if (values.length == 0) {
      throw new IllegalArgumentException("an embedding needs at least one dimension");
    }
    float[] copy = values.clone();
    for (int i = 0; i < copy.length; i++) {
      if (!Float.isFinite(copy[i])) {
        throw new IllegalArgumentException("embedding value " + i + " is not finite: " + copy[i]);
      }
    }
    return new Embedding(copy);
  }

  /** The number of dimensions. */
  public int dimension() {
    return values.length;
  }

  /** The value at {@code index}. */
  public float get(int index) {
    return values[index];
  }

  /** A copy of the values. */
  public float[] toArray() {
    return values.clone();
  }

  /** The dot product with {@code other}, which must have the same dimension. */
  public double dot(Embedding other) {
    checkSameDimension(other);
    double sum = 0;
    float[] o = other.values;
    for (int i = 0; i < values.length; i++) {
      sum += values[i] * o[i];
    }
    return sum;
  }

  /** The Euclidean norm. */
  public double norm() {
    return Math.sqrt(dot(this));
  }

  /** Cosine similarity with {@code other}; 0 when either vector is zero. */
  public double cosine(Embedding other) {
    double denominator = norm() * other.norm();
    return denominator == 0 ? 0 : dot(other) / denominator;
  }

  /** This vector scaled to unit length (itself if zero). */
  public Embedding normalized() {
    double n = norm();
    if (n == 0 || Math.abs(n - 1) < 1e-6) {
      return this;
    }
    float[] copy = new float[values.length];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = (float) (values[i] / n);
    }
    return new Embedding(copy);
  }

  private void checkSameDimension(Embedding other) {
    if (other.values.length != values.length) {
      throw new IllegalArgumentException(
          "dimension mismatch: " + values.length + " vs " + other.values.length);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Embedding e && Arrays.equals(values, e.values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return "Embedding[dimension=" + values.length + "]";
  }
}
