package dev.memhook.core.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.internal.journal.Journal;
import dev.memhook.core.internal.journal.JournalCursor;
import dev.memhook.core.internal.observe.MemoryIntake;
import dev.memhook.core.internal.sanitize.Sanitizer;
import dev.memhook.lucene.LuceneMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture journal that cannot take an event: {@code observe} answers {@code SHED}, throws nothing
 * into the host, counts the event shed and tells the listeners; what was accepted before is stored.
 */
class JournalFailureTest {

  /** The smallest segment a journal allows, so a few events need a new segment file. */
  private static final long SEGMENT_BYTES = 4_096;

  @TempDir Path dir;

  @Test
  void anEventTheJournalCannotWrite_isShedAndCounted_withoutThrowing() throws Exception {
    Journal journal = Journal.open(dir, SEGMENT_BYTES);
    // a directory where each later segment file would go: the first append that needs a new
    // segment fails in the file system, as on a full or failing disk
    for (long seq = 2; seq <= 400; seq++) {
      Files.createDirectory(dir.resolve(String.format("journal-%020d.log", seq)));
    }
    Clock clock = Clock.systemUTC();
    Sanitizer sanitizer = Sanitizer.defaults();
    Embedder embedder = HashingEmbedder.create();
    List<CaptureEvent> told = Collections.synchronizedList(new ArrayList<>());
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().inMemory().build()) {
      store.attach(embedder.space());
      try (CapturePipeline capture =
          OpenCapture.start(
              new CaptureInputs(
                  CaptureOptions.defaults(),
                  clock,
                  sanitizer,
                  store,
                  embedder,
                  new MemoryIntake(clock, sanitizer),
                  new NoWrites(),
                  told::add),
              new CaptureStorage(
                  new JournalCursor(journal),
                  CaptureStorage.JournalOwner.CAPTURE,
                  Optional.empty(),
                  Optional.empty()))) {
        List<ObserveResult> results = new ArrayList<>();
        while (!results.contains(ObserveResult.SHED) && results.size() < 400) {
          results.add(capture.observe(event(results.size())));
        }
        int accepted = results.size() - 1;
        assertTrue(accepted > 0, "some events fit the first segment: " + results);
        assertEquals(ObserveResult.SHED, results.get(accepted));
        assertEquals(
            List.of(ObserveResult.ACCEPTED),
            results.subList(0, accepted).stream().distinct().toList());
        assertEquals(ObserveResult.SHED, capture.observe(event(accepted + 1)), "still failing");

        assertTrue(capture.flush(Duration.ofMinutes(1)));
        CaptureStats stats = capture.stats();
        assertEquals(accepted, stats.accepted(), stats.toString());
        assertEquals(2, stats.shed(), stats.toString());
        assertEquals(accepted, stats.processed(), stats.toString());
        assertEquals(0, stats.pending(), stats.toString());
        assertEquals(accepted, store.count(Scope.DEFAULT), "what was accepted is stored");
        List<String> shedDetails =
            told.stream()
                .filter(e -> e.kind() == CaptureEvent.Kind.EVENT_SHED)
                .map(CaptureEvent::detail)
                .toList();
        assertEquals(
            List.of("the journal could not take the event", "the journal could not take the event"),
            shedDetails);
      }
    }
  }

  private static LifecycleEvent event(int i) {
    return LifecycleEvent.builder(LifecycleEventType.POST_TOOL_USE, "s1")
        .project("shop")
        .cwd("/work/shop")
        .timestamp(Instant.parse("2026-11-30T10:00:00Z").plusSeconds(i))
        .data(EventData.tool("Bash", "echo step " + i, "step " + i + " done"))
        .build();
  }

  /** Consolidation writes; no session ends in this test, so none is made. */
  private static final class NoWrites implements ServiceWrites {
    @Override
    public Memory remember(MemoryDraft draft) {
      throw new AssertionError("nothing is consolidated in this test");
    }

    @Override
    public Memory update(MemoryId id, MemoryDraft draft) {
      throw new AssertionError("nothing is consolidated in this test");
    }

    @Override
    public boolean retire(MemoryId id, String reason) {
      throw new AssertionError("nothing is consolidated in this test");
    }
  }
}
