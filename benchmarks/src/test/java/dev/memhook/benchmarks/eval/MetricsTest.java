package dev.memhook.benchmarks.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetricsTest {

  // ranked: a b c d e f g h i j k ; relevant: c (rank 3), h (rank 8), z (never returned)
  private static final List<String> RANKED =
      List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k");
  private static final Set<String> RELEVANT = Set.of("c", "h", "z");

  @Test
  void recallAt_countsRelevantIdsInTheTopK() {
    assertEquals(1.0 / 3, Metrics.recallAt(5, RANKED, RELEVANT), 1e-12);
    assertEquals(2.0 / 3, Metrics.recallAt(10, RANKED, RELEVANT), 1e-12);
    assertEquals(0.0, Metrics.recallAt(2, RANKED, RELEVANT), 1e-12);
    assertEquals(0.0, Metrics.recallAt(5, List.of(), RELEVANT), 1e-12);
    assertEquals(0.0, Metrics.recallAt(5, RANKED, Set.of()), 1e-12);
  }

  @Test
  void recallAt_countsADuplicateIdOnce() {
    assertEquals(0.5, Metrics.recallAt(5, List.of("c", "c", "x"), List.of("c", "h")), 1e-12);
  }

  @Test
  void anyAt_andReciprocalRank_useTheFirstRelevantId() {
    assertEquals(1.0, Metrics.anyAt(5, RANKED, RELEVANT));
    assertEquals(0.0, Metrics.anyAt(2, RANKED, RELEVANT));
    assertEquals(1.0 / 3, Metrics.reciprocalRank(RANKED, RELEVANT), 1e-12);
    assertEquals(0.0, Metrics.reciprocalRank(List.of("a", "b"), RELEVANT), 1e-12);
  }

  @Test
  void sums_averageOverQueries() {
    Metrics.Sums sums = new Metrics.Sums();
    sums.add(RANKED, RELEVANT); // r@5 1/3, r@10 2/3, any@5 1, rr 1/3
    sums.add(List.of("x", "q"), Set.of("q")); // r@5 1,   r@10 1,   any@5 1, rr 1/2
    assertEquals(2, sums.queries());
    assertEquals((1.0 / 3 + 1) / 2, sums.recall5(), 1e-12);
    assertEquals((2.0 / 3 + 1) / 2, sums.recall10(), 1e-12);
    assertEquals(1.0, sums.any5(), 1e-12);
    assertEquals((1.0 / 3 + 0.5) / 2, sums.mrr(), 1e-12);
  }

  @Test
  void percentile_isNearestRank() {
    double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertEquals(5, EvalReportPrinter.percentile(sorted, 0.5));
    assertEquals(10, EvalReportPrinter.percentile(sorted, 0.99));
    assertEquals(1, EvalReportPrinter.percentile(sorted, 0.0));
    assertEquals(0, EvalReportPrinter.percentile(new double[0], 0.5));
  }
}
