package dev.memhook.benchmarks.soak;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * A fixed-size, log-linear latency histogram: constant memory however long the soak runs, so the
 * recorder itself never makes the heap grow. Values below 32 ns are exact; above, each power of two
 * is split into 32 buckets, so a percentile is within about 3 % of the true value. The maximum is
 * exact. Thread-safe and lock-free.
 */
final class LatencyHistogram {

  private static final int SUB_BITS = 5;
  private static final int SUB = 1 << SUB_BITS;
  private static final int BUCKETS = SUB + (63 - SUB_BITS) * SUB;

  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
  private final LongAdder total = new LongAdder();
  private final LongAccumulator max = new LongAccumulator(Math::max, 0);

  /** Records one duration in nanoseconds; negative values count as zero. */
  void record(long nanos) {
    long v = Math.max(0, nanos);
    counts.incrementAndGet(index(v));
    total.increment();
    max.accumulate(v);
  }

  /**
   * The summary of what was recorded so far.
   *
   * @param count values recorded
   * @param p50 median, in nanoseconds (the upper bound of its bucket, at most the maximum)
   * @param p90 90th percentile, nanoseconds
   * @param p99 99th percentile, nanoseconds
   * @param max the largest value, exact, nanoseconds
   */
  record Summary(long count, long p50, long p90, long p99, long max) {
    static final Summary EMPTY = new Summary(0, 0, 0, 0, 0);
  }

  Summary summary() {
    long n = total.sum();
    if (n == 0) {
      return Summary.EMPTY;
    }
    long[] snapshot = new long[BUCKETS];
    long counted = 0;
    for (int i = 0; i < BUCKETS; i++) {
      snapshot[i] = counts.get(i);
      counted += snapshot[i];
    }
    long top = max.get();
    return new Summary(
        counted,
        percentile(snapshot, counted, 0.50, top),
        percentile(snapshot, counted, 0.90, top),
        percentile(snapshot, counted, 0.99, top),
        top);
  }

  private static long percentile(long[] snapshot, long n, double p, long top) {
    long rank = Math.max(1, (long) Math.ceil(p * n));
    long seen = 0;
    for (int i = 0; i < snapshot.length; i++) {
      seen += snapshot[i];
      if (seen >= rank) {
        return Math.min(upperBound(i), top);
      }
    }
    return top;
  }

  static int index(long v) {
    if (v < SUB) {
      return (int) v;
    }
    int msb = 63 - Long.numberOfLeadingZeros(v);
    int shift = msb - SUB_BITS;
    int sub = (int) ((v >>> shift) & (SUB - 1));
    return SUB + shift * SUB + sub;
  }

  /** The largest value that falls in bucket {@code index}. */
  static long upperBound(int index) {
    if (index < SUB) {
      return index;
    }
    int shift = (index - SUB) / SUB;
    int sub = (index - SUB) % SUB;
    long lower = (long) (SUB + sub) << shift;
    return lower + (1L << shift) - 1;
  }
}
