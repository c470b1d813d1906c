package dev.memhook.benchmarks.soak;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Whether the live heap kept growing: the median post-collection sample of the run's last quarter
 * against that of its second quarter (the first quarter is warm-up: caches fill, the JIT settles).
 * A leak proportional to work done grows the last quarter's median well past the second's; a
 * bounded heap keeps them close. The rule is generous on purpose: it fails only when the last
 * quarter exceeds {@code ratio} times the second plus {@code slackBytes}, so noise on a small heap
 * is not a leak. Stateless.
 */
final class HeapTrend {

  /**
   * The trend.
   *
   * @param secondQuarterMedian median post-collection used heap in the second quarter, bytes
   * @param lastQuarterMedian the same in the last quarter
   * @param samples samples taken in all
   */
  record Trend(long secondQuarterMedian, long lastQuarterMedian, int samples) {}

  private HeapTrend() {}

  /** The trend of {@code samples} over a run of {@code runNanos}; empty if a quarter has none. */
  static Optional<Trend> of(List<HeapSampler.Sample> samples, long runNanos) {
    List<Long> second = new ArrayList<>();
    List<Long> last = new ArrayList<>();
    for (HeapSampler.Sample s : samples) {
      if (s.atNanos() >= runNanos / 4 && s.atNanos() < runNanos / 2) {
        second.add(s.usedBytes());
      } else if (s.atNanos() >= runNanos - runNanos / 4) {
        last.add(s.usedBytes());
      }
    }
    if (second.isEmpty() || last.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Trend(median(second), median(last), samples.size()));
  }

  /** A violation message if {@code trend} grew past {@code ratio} times plus {@code slackBytes}. */
  static Optional<String> growth(Trend trend, double ratio, long slackBytes) {
    double bound = trend.secondQuarterMedian() * ratio + slackBytes;
    if (trend.lastQuarterMedian() > bound) {
      return Optional.of(
          String.format(
              java.util.Locale.ROOT,
              "live heap grew from %.1f MiB (second quarter median) to %.1f MiB (last quarter),"
                  + " past %.2fx + %d MiB",
              mib(trend.secondQuarterMedian()),
              mib(trend.lastQuarterMedian()),
              ratio,
              slackBytes >> 20));
    }
    return Optional.empty();
  }

  static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }

  private static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
