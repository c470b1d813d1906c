package dev.memhook.core.internal.capture;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.Observation;
import dev.memhook.api.capture.Session;
import dev.memhook.api.trace.CaptureEvent;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The capture pipeline's counters, in one place so each event is counted once: {@code observe}
 * counts what it accepted, recognised, shed or rejected; the worker counts how each accepted event
 * ended. Thread-safe.
 */
final class CaptureCounters {

  private final Consumer<CaptureEvent> events;
  private final Clock clock;

  /**
   * @param events told of each observation stored, each event shed or dropped and each provider
   *     fallback; what it throws is ignored
   */
  CaptureCounters(Consumer<CaptureEvent> events, Clock clock) {
    this.events = Objects.requireNonNull(events, "events");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Counts an event {@code observe} shed ({@code why} says how), and tells the listeners. */
  void shed(String sessionId, String why) {
    shed.increment();
    tell(CaptureEvent.Kind.EVENT_SHED, null, sessionId, null, why);
  }

  /** Counts an accepted event dropped from a full queue, and tells the listeners. */
  void dropped(Scope scope, String sessionId) {
    dropped.increment();
    tell(
        CaptureEvent.Kind.EVENT_SHED,
        scope,
        sessionId,
        null,
        "dropped from a full queue (drop oldest)");
  }

  /** Counts an observation stored, and tells the listeners. */
  void stored(Scope scope, String sessionId, MemoryId id) {
    processed.increment();
    tell(CaptureEvent.Kind.OBSERVATION_STORED, scope, sessionId, id, "observation stored");
  }

  /** Tells the listeners the optional compressor fell back (it counts fallbacks itself). */
  void compressionFellBack(Observation observation, String reason) {
    tell(
        CaptureEvent.Kind.COMPRESSION_FELL_BACK,
        observation.scope(),
        observation.sessionId(),
        observation.id(),
        "the compressor fell back to the synthetic form: " + reason);
  }

  /** Tells the listeners the optional consolidator fell back (it counts fallbacks itself). */
  void consolidationFellBack(Session session, String reason) {
    tell(
        CaptureEvent.Kind.CONSOLIDATION_FELL_BACK,
        session.scope(),
        session.id(),
        null,
        "the consolidator fell back to the heuristic one: " + reason);
  }

  private void tell(
      CaptureEvent.Kind kind, Scope scope, String sessionId, MemoryId id, String detail) {
    try {
      events.accept(new CaptureEvent(kind, clock.instant(), scope, sessionId, id, detail));
    } catch (RuntimeException e) {
      // listeners run on their own thread; handing the event over does not fail the pipeline
    }
  }

  final LongAdder accepted = new LongAdder();
  final LongAdder duplicates = new LongAdder();
  final LongAdder shed = new LongAdder();
  final LongAdder rejected = new LongAdder();
  final LongAdder processed = new LongAdder();
  final LongAdder duplicatesProcessed = new LongAdder();

  /** Accepted events kept in their session but stored as no memory: noise, held tool starts. */
  final LongAdder notAdmitted = new LongAdder();

  final LongAdder dropped = new LongAdder();
  final LongAdder failed = new LongAdder();
  final LongAdder replayed = new LongAdder();
  final LongAdder consolidated = new LongAdder();
  final LongAdder sessionStoreFailures = new LongAdder();

  /** Events accepted or replayed that have ended one way or another. */
  long finished() {
    return processed.sum()
        + duplicatesProcessed.sum()
        + notAdmitted.sum()
        + dropped.sum()
        + failed.sum();
  }

  /** Events accepted or replayed so far. */
  long started() {
    return accepted.sum() + replayed.sum();
  }

  CaptureStats snapshot(LongSupplier compressorFallbacks, LongSupplier consolidatorFallbacks) {
    long done = finished();
    long all = started();
    return new CaptureStats(
        accepted.sum(),
        duplicates.sum(),
        shed.sum(),
        rejected.sum(),
        processed.sum(),
        duplicatesProcessed.sum(),
        notAdmitted.sum(),
        dropped.sum(),
        failed.sum(),
        Math.max(0, all - done),
        replayed.sum(),
        compressorFallbacks.getAsLong(),
        consolidatorFallbacks.getAsLong(),
        consolidated.sum(),
        sessionStoreFailures.sum());
  }
}
