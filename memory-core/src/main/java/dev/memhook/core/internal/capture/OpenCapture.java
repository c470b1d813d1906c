package dev.memhook.core.internal.capture;

import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.SessionStore;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.core.internal.compress.GuardedCompressor;
import dev.memhook.core.internal.compress.GuardedConsolidator;
import dev.memhook.core.internal.journal.JournalCursor;
import dev.memhook.core.internal.observe.MemoryIntake;
import dev.memhook.core.internal.sanitize.Sanitizer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Assembles a {@link CapturePipeline}: opens its session book, builds the writer, compressor,
 * consolidation and worker, or, if any step fails, closes what it opened. Stateless.
 */
public final class OpenCapture {

  private OpenCapture() {}

  /**
   * Opens the session book (in {@code sessionStore}, else in {@code dir/sessions}, else in memory),
   * replays capture's records from the journal of {@code cursor} and starts the worker.
   *
   * @param cursor the journal's cursor, shared with the store when it logs to the same journal
   * @param ownsJournal whether the pipeline closes the journal (also if starting fails)
   * @param dir the journal's directory, where the session book goes; empty keeps it in memory
   * @param sessionStore where the session records go instead, if present; the pipeline closes it,
   *     but not when starting fails (it is the host's then)
   * @param writes the service's own remember and update, for consolidated memories
   * @param events told of observations stored, compressor and consolidator fallbacks and events
   *     shed
   */
  public static CapturePipeline start(
      CaptureOptions options,
      Clock clock,
      Sanitizer sanitizer,
      MemoryStore store,
      Embedder embedder,
      MemoryIntake intake,
      ServiceWrites writes,
      JournalCursor cursor,
      boolean ownsJournal,
      Optional<Path> dir,
      Optional<SessionStore> sessionStore,
      Consumer<CaptureEvent> events) {
    GuardedCompressor compressor = null;
    GuardedConsolidator consolidator = null;
    try {
      CaptureCounters counters = new CaptureCounters(events, clock);
      SessionBook book =
          SessionBook.open(
              sessionStore.orElseGet(
                  () ->
                      dir.<SessionStore>map(d -> FileSessionStore.open(d.resolve("sessions")))
                          .orElseGet(InMemorySessionStore::new)),
              new SessionStoreFailures(counters.sessionStoreFailures));
      compressor = GuardedCompressor.of(options, counters::compressionFellBack);
      consolidator = GuardedConsolidator.of(options, counters::consolidationFellBack);
      ObservationWriter writer = new ObservationWriter(store, embedder, intake, compressor);
      SessionConsolidation consolidation = new SessionConsolidation(store, consolidator, writes);
      return new CapturePipeline(
          options,
          clock,
          sanitizer,
          cursor,
          ownsJournal,
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
      if (ownsJournal) {
        cursor.journal().close();
      }
      throw e;
    }
  }
}
