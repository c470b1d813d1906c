package dev.memhook.benchmarks;

import java.util.Arrays;

/**
 * The exact nearest neighbours of a query among unit vectors: a plain loop over {@code float[][]}
 * computing dot products (equal to cosine for unit vectors) and keeping the best {@code k} in a
 * sorted array. The reference answer for recall measurements and the floor any index must beat.
 *
 * <p>Immutable (it does not copy the vectors: the caller must not modify them); thread-safe.
 */
public final class ExactScan {

  private final float[][] vectors;

  /** A scan over {@code vectors}, which must all have the query's dimension. */
  public ExactScan(float[][] vectors) {
    this.vectors = vectors;
  }

  /**
   * The indices of the {@code k} vectors with the largest dot product with {@code query}, best
   * first.
   */
  public int[] topK(float[] query, int k) {
    int[] ids = new int[k];
    float[] scores = new float[k];
    Arrays.fill(scores, Float.NEGATIVE_INFINITY);
    Arrays.fill(ids, -1);
    int dimension = query.length;
    for (int i = 0; i < vectors.length; i++) {
      float[] v = vectors[i];
      float dot = 0;
      for (int d = 0; d < dimension; d++) {
        dot += v[d] * query[d];
      }
      if (dot > scores[k - 1]) {
        int pos = k - 1;
        while (pos > 0 && scores[pos - 1] < dot) {
          scores[pos] = scores[pos - 1];
          ids[pos] = ids[pos - 1];
          pos--;
        }
        scores[pos] = dot;
        ids[pos] = i;
      }
    }
    int found = 0;
    while (found < k && ids[found] >= 0) {
      found++;
    }
    return found == k ? ids : Arrays.copyOf(ids, found);
  }

  /** |got ∩ exact| / |exact|, the recall of an approximate answer against the exact one. */
  public static double recall(int[] exact, int[] got) {
    if (exact.length == 0) {
      return 1;
    }
    int hits = 0;
    for (int e : exact) {
      for (int g : got) {
        if (g == e) {
          hits++;
          break;
        }
      }
    }
    return (double) hits / exact.length;
  }
}
