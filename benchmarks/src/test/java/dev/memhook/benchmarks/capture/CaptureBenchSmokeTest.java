package dev.memhook.benchmarks.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.spi.MemoryStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link CaptureBench} on 300 events with the hashing embedder so it cannot rot: both phases
 * complete and their own checks hold (nothing shed, every event processed, each recalled by its
 * unique word). Never checks a timing.
 */
class CaptureBenchSmokeTest {

  @Test
  void bothPhases_completeWithTheirChecksHolding() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CaptureBench.Report report;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      report =
          CaptureBench.run(
              new String[] {
                "--phase",
                "all",
                "--events",
                "300",
                "--warmup",
                "100",
                "--threads",
                "2",
                "--throughput-events",
                "300",
                "--batch-sizes",
                "16,64",
                "--embedders",
                "hashing",
                "--seed",
                "7"
              },
              out);
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(
        List.of(
            "hashing, observe",
            "hashing, observe again (DUPLICATE)",
            "hashing, observe",
            "hashing, observeJson"),
        report.latency().stream().map(LatencyPhase.Row::run).toList(),
        printed);
    for (LatencyPhase.Row row : report.latency()) {
      assertEquals(300, row.events(), printed);
      assertEquals(0, row.shed(), printed);
    }
    assertEquals(2, report.throughput().size(), printed);
    for (ThroughputPhase.Row row : report.throughput()) {
      assertEquals(300, row.processed(), printed);
      assertEquals(5, row.recallsFound(), printed);
      // one text per event, and the sentences of what a person said beside it
      assertTrue(row.embedTexts() > 300, printed);
      assertTrue(row.embedTexts() <= 300 * (1 + MemoryStore.MAX_PASSAGES), printed);
      assertTrue(row.windowNanos() > 0, printed);
    }
    assertEquals(
        report.throughput().get(0).embedTexts(),
        report.throughput().get(1).embedTexts(),
        "the batch size changes how texts are grouped, not which: " + printed);
    assertTrue(printed.contains("target p99 <= 50 µs"), printed);
  }

  @Test
  void theGenerator_isDeterministicAndNeverRepeatsAnEvent() {
    List<LifecycleEvent> first = new AgentEvents(3).next(2_000);
    assertEquals(first, new AgentEvents(3).next(2_000));
    assertNotEquals(first, new AgentEvents(4).next(2_000));
    Set<LifecycleEvent> distinct = new HashSet<>(first);
    assertEquals(first.size(), distinct.size());
    Set<String> sessions = new HashSet<>();
    for (int i = 0; i < first.size(); i++) {
      LifecycleEvent e = first.get(i);
      sessions.add(e.sessionId());
      assertTrue(AgentEvents.toJson(e).contains(AgentEvents.uniqueWord(i)), AgentEvents.toJson(e));
      if (i > 0) {
        assertTrue(e.timestamp().isAfter(first.get(i - 1).timestamp()));
      }
    }
    assertTrue(
        sessions.size() >= 2_000 / 70 && sessions.size() <= 2_000 / 30 + 1, sessions.toString());
  }

  @Test
  void aBadArgument_failsWithTheUsage() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> CaptureBench.run(new String[] {"--phase", "sometimes"}, System.out));
    assertTrue(e.getMessage().startsWith("usage: CaptureBench"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> CaptureBench.run(new String[] {"--embedders", "nope"}, System.out));
  }
}
