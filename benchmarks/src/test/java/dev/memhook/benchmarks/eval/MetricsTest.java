package dev.memhook.benchmarks.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
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
    EvalSessions noSessions = EvalSessions.of(List.of());
    sums.add(RANKED, RANKED, RELEVANT, noSessions); // r@5 1/3, r@10 2/3, any@5 1, rr 1/3
    sums.add(List.of("x", "q"), List.of("x", "q"), Set.of("q"), noSessions); // 1, 1, 1, 1/2
    assertEquals(2, sums.queries());
    assertEquals((1.0 / 3 + 1) / 2, sums.recall5(), 1e-12);
    assertEquals((2.0 / 3 + 1) / 2, sums.recall10(), 1e-12);
    assertEquals(1.0, sums.any5(), 1e-12);
    assertEquals((1.0 / 3 + 0.5) / 2, sums.mrr(), 1e-12);
    // without sessions every id is a session of its own, so the session metrics are the turn ones
    assertEquals(sums.recall5(), sums.sessionRecall5(), 1e-12);
    assertEquals(sums.recall10(), sums.sessionRecall10(), 1e-12);
    assertEquals(sums.any5(), sums.sessionAny5(), 1e-12);
  }

  // conversation c: session s1 holds a1..a4, s2 b1..b2, s3 c1, s4..s9 one memory each (d4..d9);
  // conversation other: its own session s1 holds o1
  private static final EvalSessions SESSIONS =
      EvalSessions.of(
          List.of(
              memory("c", "a1", "s1"),
              memory("c", "a2", "s1"),
              memory("c", "a3", "s1"),
              memory("c", "a4", "s1"),
              memory("c", "b1", "s2"),
              memory("c", "b2", "s2"),
              memory("c", "c1", "s3"),
              memory("c", "d4", "s4"),
              memory("c", "d5", "s5"),
              memory("c", "d6", "s6"),
              memory("c", "d7", "s7"),
              memory("c", "d8", "s8"),
              memory("c", "d9", "s9"),
              memory("other", "o1", "s1"),
              memory("c", "n1", null)));

  private static EvalData.EvalMemory memory(String conv, String id, String session) {
    return new EvalData.EvalMemory(conv, id, session, "Ann", null, "text " + id, null);
  }

  @Test
  void sessionMetrics_countEachSessionOnceAtItsBestRank() {
    // four memories of s1 first: they fill one session place, so s3 is the 3rd distinct session
    List<String> ranked = List.of("a1", "a2", "a3", "a4", "b1", "c1", "d4", "d5", "d6", "d7");
    assertEquals(
        Stream.of("a1", "b1", "c1", "d4", "d5", "d6", "d7").map(SESSIONS::sessionOf).toList(),
        SESSIONS.rankedSessions(ranked),
        "ten memories, seven distinct sessions");
    // relevant c1 (s3) and b2 (s2; b1 from s2 is ranked, so s2 counts as found)
    List<String> relevant = List.of("c1", "b2");
    assertEquals(1.0, Metrics.sessionRecallAt(3, ranked, relevant, SESSIONS), 1e-12);
    assertEquals(0.5, Metrics.sessionRecallAt(2, ranked, relevant, SESSIONS), 1e-12);
    assertEquals(1.0, Metrics.sessionAnyAt(2, ranked, relevant, SESSIONS), 1e-12);
    assertEquals(0.0, Metrics.sessionAnyAt(1, ranked, relevant, SESSIONS), 1e-12);
    // at turn level the same ranking finds only c1 of the two, at rank 6
    assertEquals(0.0, Metrics.recallAt(5, ranked, relevant), 1e-12);
    assertEquals(0.5, Metrics.recallAt(10, ranked, relevant), 1e-12);
  }

  @Test
  void sessionMetrics_readPastKMemoriesForKDistinctSessions() {
    // s9 is the 5th distinct session but the 8th memory: found at session@5, not at turn@5
    List<String> ranked = List.of("a1", "a2", "b1", "a3", "c1", "b2", "d4", "d9");
    List<String> relevant = List.of("d9");
    assertEquals(1.0, Metrics.sessionRecallAt(5, ranked, relevant, SESSIONS), 1e-12);
    assertEquals(0.0, Metrics.sessionRecallAt(4, ranked, relevant, SESSIONS), 1e-12);
    assertEquals(0.0, Metrics.recallAt(5, ranked, relevant), 1e-12);
  }

  @Test
  void sessionMetrics_keepConversationsApart() {
    // "s1" of conversation other is not "s1" of conversation c
    List<String> relevant = List.of("o1");
    assertEquals(0.0, Metrics.sessionRecallAt(5, List.of("a1", "a2"), relevant, SESSIONS), 1e-12);
    assertEquals(1.0, Metrics.sessionAnyAt(5, List.of("a1", "o1"), relevant, SESSIONS), 1e-12);
  }

  @Test
  void sessionMetrics_countARelevantIdUnknownToTheDataAsASessionNeverFound() {
    List<String> ranked = List.of("a1", "b1");
    List<String> relevant = List.of("a2", "ghost");
    assertEquals(0.5, Metrics.sessionRecallAt(5, ranked, relevant, SESSIONS), 1e-12);
    assertEquals(1.0, Metrics.sessionAnyAt(5, ranked, relevant, SESSIONS), 1e-12);
    assertEquals(
        0.0, Metrics.sessionRecallAt(5, List.of("ghost-ranked"), List.of("ghost"), SESSIONS));
  }

  @Test
  void sessionMetrics_countAMemoryWithoutASessionAsItsOwnSession() {
    List<String> ranked = List.of("n1", "a1");
    assertEquals(2, SESSIONS.rankedSessions(ranked).size());
    assertEquals(1.0, Metrics.sessionRecallAt(1, ranked, List.of("n1"), SESSIONS), 1e-12);
    assertEquals(0.0, Metrics.sessionRecallAt(1, ranked, List.of("a2"), SESSIONS), 1e-12);
  }

  @Test
  void sessionMetrics_ofAnEmptyRankingAreZero() {
    assertEquals(0.0, Metrics.sessionRecallAt(5, List.of(), List.of("a1"), SESSIONS));
    assertEquals(0.0, Metrics.sessionAnyAt(10, List.of(), List.of("a1"), SESSIONS));
    assertEquals(0.0, Metrics.sessionRecallAt(5, List.of("a1"), List.of(), SESSIONS));
  }

  @Test
  void sums_readSessionsFromTheDeeperRanking_andTurnsFromTheTopOnly() {
    Metrics.Sums sums = new Metrics.Sums();
    List<String> top = List.of("a1", "a2", "a3");
    // the deeper ranking continues the top: d9 is its 6th distinct session
    List<String> deeper = List.of("a1", "a2", "a3", "a4", "b1", "c1", "d4", "d5", "d9", "b2");
    sums.add(top, deeper, List.of("d9", "b2"), SESSIONS);
    assertEquals(0.0, sums.recall10(), 1e-12);
    assertEquals(0.0, sums.mrr(), 1e-12);
    assertEquals(0.5, sums.sessionRecall5(), 1e-12); // s2 (b1) among the first 5, s9 not
    assertEquals(1.0, sums.sessionRecall10(), 1e-12);
    assertEquals(1.0, sums.sessionAny5(), 1e-12);
    assertEquals(1.0, sums.sessionAny10(), 1e-12);
    // the top three memories span one session, s1, which holds no evidence
    assertEquals(0.0, sums.topTurnsSessionAny(), 1e-12);

    // b1's session s2 holds evidence b2; a3 repeats s1: two sessions, one of the two relevant
    sums.add(List.of("a1", "b1", "a3"), deeper, List.of("d9", "b2"), SESSIONS);
    assertEquals(0.25, sums.topTurnsSessionRecall(), 1e-12);
    assertEquals(0.5, sums.topTurnsSessionAny(), 1e-12);
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
