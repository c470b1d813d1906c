package dev.memhook.djl;

import java.util.List;

/**
 * Turns the pooled vectors of one text's token windows into the text's vector: the mean of the
 * window vectors, each scaled to unit length first when normalising, so every window counts the
 * same however long it is; the mean is then scaled to unit length too when normalising.
 *
 * <p>A text of one window gets that window's vector, normalised when asked. The zero vector is
 * returned unchanged by {@link #unitLength}, never divided by zero. Stateless and thread-safe;
 * inputs are not changed, and {@link #of} returns a new array.
 */
final class WindowMean {
  private WindowMean() {}

  /**
   * The text vector for its window vectors, in text order.
   *
   * @param windows one or more vectors of one dimension; not null
   * @param normalize whether windows and result are scaled to unit length
   * @throws IllegalArgumentException if {@code windows} is empty
   */
  static float[] of(List<float[]> windows, boolean normalize) {
    if (windows.isEmpty()) {
      throw new IllegalArgumentException("a text has at least one window");
    }
    int count = windows.size();
    float[] sum = null;
    for (float[] window : windows) {
      float[] v = count > 1 && normalize ? unitLength(window) : window;
      if (sum == null) {
        sum = v.clone();
      } else {
        for (int k = 0; k < v.length; k++) {
          sum[k] += v[k];
        }
      }
    }
    if (count > 1) {
      for (int k = 0; k < sum.length; k++) {
        sum[k] /= count;
      }
    }
    return normalize ? unitLength(sum) : sum;
  }

  /**
   * {@code v} scaled to unit Euclidean length, as a new array; {@code v} itself when it is the zero
   * vector. The squares are summed in double to limit rounding error in the norm.
   */
  static float[] unitLength(float[] v) {
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    if (sum == 0) {
      return v;
    }
    double norm = Math.sqrt(sum);
    float[] out = new float[v.length];
    for (int k = 0; k < v.length; k++) {
      out[k] = (float) (v[k] / norm);
    }
    return out;
  }
}
