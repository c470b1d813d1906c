package dev.memhook.benchmarks.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HeapTrendTest {

  private static final long MIB = 1L << 20;
  private static final long RUN = 40_000_000_000L;

  private static List<HeapSampler.Sample> samples(long baseMib, long growthMibPerSample) {
    List<HeapSampler.Sample> out = new ArrayList<>();
    for (int i = 0; i <= 40; i++) {
      long noise = (i % 3 - 1) * 4 * MIB;
      out.add(
          new HeapSampler.Sample(
              i * 1_000_000_000L, baseMib * MIB + i * growthMibPerSample * MIB + noise));
    }
    return out;
  }

  @Test
  void heapGrowingWithWorkDone_isAViolation() {
    HeapTrend.Trend t = HeapTrend.of(samples(200, 20), RUN).orElseThrow();
    assertTrue(t.lastQuarterMedian() > t.secondQuarterMedian());
    Optional<String> v = HeapTrend.growth(t, 1.5, SoakConfig.HEAP_SLACK_BYTES);
    assertTrue(v.isPresent(), t.toString());
    assertTrue(v.get().contains("live heap grew"), v.get());
  }

  @Test
  void flatHeapWithNoise_isNotAViolation() {
    HeapTrend.Trend t = HeapTrend.of(samples(200, 0), RUN).orElseThrow();
    assertEquals(Optional.empty(), HeapTrend.growth(t, 1.5, SoakConfig.HEAP_SLACK_BYTES));
  }

  @Test
  void smallGrowthWithinTheSlack_isNotAViolation() {
    HeapTrend.Trend t = HeapTrend.of(samples(10, 1), RUN).orElseThrow();
    assertEquals(Optional.empty(), HeapTrend.growth(t, 1.5, SoakConfig.HEAP_SLACK_BYTES));
  }

  @Test
  void noSampleInTheLastQuarter_givesNoTrend() {
    List<HeapSampler.Sample> early = samples(100, 0).subList(0, 25);
    assertEquals(Optional.empty(), HeapTrend.of(early, RUN));
  }
}
