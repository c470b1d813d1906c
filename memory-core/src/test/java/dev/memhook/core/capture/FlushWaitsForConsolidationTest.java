package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.all;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static dev.memhook.core.capture.CaptureFixtures.sessionEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.api.capture.Session;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code flush} returns only once a session's consolidation has run: the session-end event is
 * counted as processed before its consolidation runs, and a flush that returned on the count alone
 * let a test (or a shutdown) read the store before the consolidated memories were there.
 */
class FlushWaitsForConsolidationTest {

  /** Takes its time, then keeps the first observation as a fact. */
  private static final class SlowConsolidator implements Consolidator {
    @Override
    public List<Consolidation> consolidate(Session session, List<Memory> observations)
        throws InterruptedException {
      Thread.sleep(400);
      Memory first = observations.get(0);
      return List.of(
          new Consolidation(
              MemoryType.FACT,
              "The tests ran",
              "The tests of the shop ran with mvn test.",
              List.of(),
              List.of(),
              0.5,
              List.of(first.id())));
    }
  }

  @Test
  void flush_returnsAfterTheSessionsConsolidation_notWhenItsLastEventIsCounted() {
    try (MemoryService memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .capture(CaptureOptions.builder().consolidator(new SlowConsolidator()).build())
            .build()) {
      memory.capture().observe(postTool("s1", 0, "Bash", "{\"command\":\"mvn test\"}", "ok"));
      memory.capture().observe(sessionEnd("s1", 10));
      long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
      while (memory.capture().stats().processed() + memory.capture().stats().notAdmitted() < 2
          && System.nanoTime() < deadline) {
        // both events counted (the session end as no memory): the consolidation is running now
        Thread.onSpinWait();
      }
      assertEquals(
          0, memory.capture().stats().consolidated(), "the consolidation has not ended yet");
      assertTrue(memory.capture().flush(Duration.ofMinutes(1)));
      assertEquals(
          List.of("The tests of the shop ran with mvn test."),
          all(memory).stream()
              .filter(m -> m.type() == MemoryType.FACT)
              .map(Memory::content)
              .toList());
    }
  }
}
