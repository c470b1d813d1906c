package dev.memhook.benchmarks.postgres;

import java.util.Arrays;
import java.util.Locale;

/**
 * A summary of measured durations, in milliseconds: median, p90, p99 and max, each the nearest-rank
 * sample (no interpolation), so every figure is a duration that was observed.
 *
 * @param count the number of samples
 * @param median the median
 * @param p90 the 90th percentile
 * @param p99 the 99th percentile
 * @param max the largest
 */
record Latencies(int count, double median, double p90, double p99, double max) {

  /**
   * The summary of {@code nanos}, which it sorts.
   *
   * @throws IllegalArgumentException if there are none
   */
  static Latencies ofNanos(long[] nanos) {
    if (nanos.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    Arrays.sort(nanos);
    return new Latencies(
        nanos.length,
        rank(nanos, 0.5),
        rank(nanos, 0.9),
        rank(nanos, 0.99),
        nanos[nanos.length - 1] / 1e6);
  }

  private static double rank(long[] sorted, double quantile) {
    int index = Math.max(0, (int) Math.ceil(quantile * sorted.length) - 1);
    return sorted[index] / 1e6;
  }

  /** {@code value} in milliseconds with three decimals. */
  static String ms(double value) {
    return String.format(Locale.ROOT, "%.3f", value);
  }
}
