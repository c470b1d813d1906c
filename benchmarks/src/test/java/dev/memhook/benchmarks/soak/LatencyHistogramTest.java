package dev.memhook.benchmarks.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.testkit.Seeds;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

  @Test
  void percentiles_areWithinThreePercentOfTheExactOnes_andMaxIsExact() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    LatencyHistogram h = new LatencyHistogram();
    long[] values = new long[20_000];
    for (int i = 0; i < values.length; i++) {
      // log-uniform from 1 µs to 10 s, as latencies spread
      values[i] = (long) Math.exp(Math.log(1_000) + random.nextDouble() * Math.log(1e7));
      h.record(values[i]);
    }
    Arrays.sort(values);
    LatencyHistogram.Summary s = h.summary();
    assertEquals(values.length, s.count(), Seeds.replay(seed));
    assertEquals(values[values.length - 1], s.max(), Seeds.replay(seed));
    for (double[] pv : new double[][] {{0.50, s.p50()}, {0.90, s.p90()}, {0.99, s.p99()}}) {
      long exact = values[(int) Math.ceil(pv[0] * values.length) - 1];
      assertTrue(
          pv[1] >= exact && pv[1] <= exact * 1.035,
          "p" + pv[0] + " " + pv[1] + " vs exact " + exact + "; " + Seeds.replay(seed));
    }
  }

  @Test
  void smallValuesAreExact_andBucketsCoverEveryLong() {
    for (long v = 0; v < 100; v++) {
      int i = LatencyHistogram.index(v);
      assertTrue(LatencyHistogram.upperBound(i) >= v, "bucket of " + v);
      assertTrue(i == 0 || LatencyHistogram.upperBound(i - 1) < v, "bucket of " + v);
    }
    assertEquals(31, LatencyHistogram.upperBound(LatencyHistogram.index(31)));
    long big = Long.MAX_VALUE;
    assertEquals(big, LatencyHistogram.upperBound(LatencyHistogram.index(big)));
  }

  @Test
  void emptyHistogram_summarisesToZeros() {
    assertEquals(LatencyHistogram.Summary.EMPTY, new LatencyHistogram().summary());
  }
}
