package dev.memhook.core.internal.capture;

import dev.memhook.api.CaptureEvent;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.compress.GuardedCompressor;
import dev.memhook.core.internal.compress.GuardedConsolidator;
import dev.memhook.core.internal.journal.Journal;
import dev.memhook.core.internal.observe.MemoryIntake;
import dev.memhook.core.internal.sanitize.Sanitizer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * Assembles a {@link CapturePipeline}: opens its journal and session book, builds the writer,
 * compressor, consolidation and worker, or, if any step fails, closes what it opened. Stateless.
 */
public final class OpenCapture {

  private OpenCapture() {}

  /**
   * Opens the journal and the session book (in {@code options.journalDirectory()}, else in {@code
   * defaultDirectory}, else in memory), replays what the journal holds and starts the worker.
   *
   * @param defaultDirectory where the journal goes when the options name none; null keeps it in
   *     memory
   * @param writes the service's own remember and update, for consolidated memories
   * @param events told of observations stored, compressor and consolidator fallbacks and events
   *     shed
   * @throws dev.memhook.api.MemoryStoreException if the journal cannot be opened (for example,
   *     another service holds it)
   */
  public static CapturePipeline open(
      CaptureOptions options,
      Clock clock,
      Sanitizer sanitizer,
      MemoryStore store,
      Embedder embedder,
      MemoryIntake intake,
      ServiceWrites writes,
      Path defaultDirectory,
      Consumer<CaptureEvent> events) {
    Path dir = options.journalDirectory() != null ? options.journalDirectory() : defaultDirectory;
    Journal journal = dir == null ? Journal.inMemory() : Journal.open(dir);
    return start(options, clock, sanitizer, store, embedder, intake, writes, journal, dir, events);
  }

  /**
   * As {@link #open}, over a journal already open, which the pipeline then owns (and which is
   * closed here if starting fails); the session book goes in {@code dir/sessions}, or in memory
   * when {@code dir} is null. A seam for tests that need a journal of their own making.
   */
  static CapturePipeline start(
      CaptureOptions options,
      Clock clock,
      Sanitizer sanitizer,
      MemoryStore store,
      Embedder embedder,
      MemoryIntake intake,
      ServiceWrites writes,
      Journal journal,
      Path dir,
      Consumer<CaptureEvent> events) {
    GuardedCompressor compressor = null;
    GuardedConsolidator consolidator = null;
    try {
      SessionBook book =
          dir == null ? SessionBook.inMemory() : SessionBook.open(dir.resolve("sessions"));
      CaptureCounters counters = new CaptureCounters(events, clock);
      compressor = GuardedCompressor.of(options, counters::compressionFellBack);
      consolidator = GuardedConsolidator.of(options, counters::consolidationFellBack);
      ObservationWriter writer = new ObservationWriter(store, embedder, intake, compressor);
      SessionConsolidation consolidation = new SessionConsolidation(store, consolidator, writes);
      return new CapturePipeline(
          options,
          clock,
          sanitizer,
          journal,
          book,
          compressor,
          consolidator,
          counters,
          progress ->
              new CaptureWorker(
                  writer,
                  book,
                  consolidation,
                  counters,
                  progress,
                  clock,
                  options.sessionIdleTimeout(),
                  options.consolidateOnSessionEnd()));
    } catch (RuntimeException | Error e) {
      if (compressor != null) {
        compressor.close();
      }
      if (consolidator != null) {
        consolidator.close();
      }
      journal.close();
      throw e;
    }
  }
}
