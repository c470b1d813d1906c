package dev.memhook.core.internal.capture;

import dev.memhook.core.internal.compress.GuardedCompressor;
import dev.memhook.core.internal.compress.GuardedConsolidator;
import java.util.Objects;

/**
 * What a {@link CapturePipeline} runs over, as {@link OpenCapture} assembled it: what the service
 * gave capture, where capture keeps its records, and the parts opened for this pipeline. The
 * pipeline owns and closes the session book, the compressor, the consolidator and, if {@link
 * CaptureStorage#journalOwner()} says so, the journal.
 *
 * @param inputs what the service gave capture
 * @param storage the journal and where the sessions go
 * @param book the sessions, opened and loaded
 * @param compressor the compressor, behind its guard
 * @param consolidator the consolidator, behind its guard
 * @param counters the pipeline's counters, shared by {@code observe} and the worker
 */
record CaptureParts(
    CaptureInputs inputs,
    CaptureStorage storage,
    SessionBook book,
    GuardedCompressor compressor,
    GuardedConsolidator consolidator,
    CaptureCounters counters) {

  CaptureParts {
    Objects.requireNonNull(inputs, "inputs");
    Objects.requireNonNull(storage, "storage");
    Objects.requireNonNull(book, "book");
    Objects.requireNonNull(compressor, "compressor");
    Objects.requireNonNull(consolidator, "consolidator");
    Objects.requireNonNull(counters, "counters");
  }
}
