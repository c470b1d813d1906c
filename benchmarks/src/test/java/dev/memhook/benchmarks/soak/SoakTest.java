package dev.memhook.benchmarks.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.benchmarks.soak.SoakStats.Op;
import dev.memhook.testkit.Seeds;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The soak in the regular suite: the full harness (16 hooks, 4 direct workers, 8 scopes, the
 * hashing embedder, the default recall timeout) on 2,000 memories for 12 seconds: a smoke of the
 * harness, the long soak being {@code Soak}'s main (the suite has a 15-minute budget). Every check
 * of the long soak must hold: no deadlock or stall, no exception out of a turn and none
 * undocumented from a direct call, at-most-once injection per hook, scope isolation, a bounded live
 * heap.
 */
class SoakTest {

  private static final String HOOK_LOG_LEVEL =
      "org.slf4j.simpleLogger.log.dev.memhook.core.internal.inject";

  @BeforeAll
  static void quietRecallTimeoutWarnings() {
    // as the main does: the listener counts timeouts; thousands of log lines would bury the report
    if (System.getProperty(HOOK_LOG_LEVEL) == null) {
      System.setProperty(HOOK_LOG_LEVEL, "error");
    }
  }

  @Test
  void shortSoak_holdsEveryCheck() throws Exception {
    long seed = Seeds.seed();
    SoakConfig config =
        // a forget rewrites a whole segment (benchmarks/RESULTS.md says how long that takes): the
        // window must outlast one on a busy machine; a deadlocked worker never progresses, and the
        // end-of-run check catches one within the window
        SoakConfig.full(seed).sized(2_000, Duration.ofSeconds(12), Duration.ofSeconds(60));
    SoakReport report = SoakRun.run(config, System.err);
    String why = Seeds.replay(seed) + "\n" + report.format();
    System.out.print(report.format());

    assertEquals(Map.of(), report.violations(), "violations; " + why);
    assertTrue(report.ok(), why);
    for (Op op : Op.values()) {
      assertTrue(report.count(op) > 0, op + " never completed; " + why);
    }
    assertEquals(
        report.count(Op.TURN),
        report.outcomes().getOrDefault("turn/ok", 0L),
        "every turn completed normally; " + why);
    assertTrue(
        report.documentedExceptions().keySet().stream().noneMatch(k -> k.contains("UNDOCUMENTED")),
        why);
    assertTrue(report.injectedIds() > 0, "hooks injected; " + why);
    assertTrue(
        report.outcomes().getOrDefault("observe/accepted", 0L) > 0,
        "observers' events accepted; " + why);
    assertEquals(0, report.duplicateInjections(), "at-most-once per hook; " + why);
    assertTrue(report.conversations() >= config.hooks(), "conversations verified; " + why);
    assertEquals(
        0L, report.modelFetches().getOrDefault("foreign LEAKED", 0L), "tool isolation; " + why);
    assertTrue(report.heapTrend().isPresent(), "the heap was sampled in each quarter; " + why);
    assertTrue(report.heapPeakAfterGcBytes() > 0, why);
  }
}
