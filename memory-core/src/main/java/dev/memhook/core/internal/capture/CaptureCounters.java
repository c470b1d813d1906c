package dev.memhook.core.internal.capture;

import dev.memhook.api.CaptureStats;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The capture pipeline's counters, in one place so each event is counted once: {@code observe}
 * counts what it accepted, recognised, shed or rejected; the worker counts how each accepted event
 * ended. Thread-safe.
 */
final class CaptureCounters {

  final LongAdder accepted = new LongAdder();
  final LongAdder duplicates = new LongAdder();
  final LongAdder shed = new LongAdder();
  final LongAdder rejected = new LongAdder();
  final LongAdder processed = new LongAdder();
  final LongAdder duplicatesProcessed = new LongAdder();
  final LongAdder dropped = new LongAdder();
  final LongAdder failed = new LongAdder();
  final LongAdder replayed = new LongAdder();
  final LongAdder consolidated = new LongAdder();

  /** Events accepted or replayed that have ended one way or another. */
  long finished() {
    return processed.sum() + duplicatesProcessed.sum() + dropped.sum() + failed.sum();
  }

  /** Events accepted or replayed so far. */
  long started() {
    return accepted.sum() + replayed.sum();
  }

  CaptureStats snapshot(LongSupplier compressorFallbacks) {
    long done = finished();
    long all = started();
    return new CaptureStats(
        accepted.sum(),
        duplicates.sum(),
        shed.sum(),
        rejected.sum(),
        processed.sum(),
        duplicatesProcessed.sum(),
        dropped.sum(),
        failed.sum(),
        Math.max(0, all - done),
        replayed.sum(),
        compressorFallbacks.getAsLong(),
        consolidated.sum());
  }
}
