package dev.memhook.core.internal.capture;

import dev.memhook.core.internal.compress.GuardedCompressor;
import dev.memhook.core.internal.compress.GuardedConsolidator;

/**
 * Assembles a {@link CapturePipeline}: opens its session book, compressor and consolidator and
 * starts the pipeline over them, or, if any step fails, closes what it opened. Stateless.
 */
public final class OpenCapture {

  private OpenCapture() {}

  /**
   * Opens the session book ({@link CaptureStorage#openSessions()}), replays capture's records from
   * the journal and starts the worker. If starting fails, closes the journal when capture owns it,
   * and leaves the host's session store open.
   */
  public static CapturePipeline start(CaptureInputs inputs, CaptureStorage storage) {
    GuardedCompressor compressor = null;
    GuardedConsolidator consolidator = null;
    try {
      CaptureCounters counters = new CaptureCounters(inputs.events(), inputs.clock());
      SessionBook book =
          SessionBook.open(
              storage.openSessions(), new SessionStoreFailures(counters.sessionStoreFailures));
      compressor = GuardedCompressor.of(inputs.options(), counters::compressionFellBack);
      consolidator = GuardedConsolidator.of(inputs.options(), counters::consolidationFellBack);
      return new CapturePipeline(
          new CaptureParts(inputs, storage, book, compressor, consolidator, counters));
    } catch (RuntimeException | Error e) {
      if (compressor != null) {
        compressor.close();
      }
      if (consolidator != null) {
        consolidator.close();
      }
      if (storage.ownsJournal()) {
        storage.cursor().journal().close();
      }
      throw e;
    }
  }
}
