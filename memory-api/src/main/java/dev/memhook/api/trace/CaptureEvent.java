package dev.memhook.api.trace;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import java.time.Instant;
import java.util.Objects;

/**
 * Something the capture pipeline or a forget did, for {@link MemoryListener#captured}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param kind what happened
 * @param at when
 * @param scope the scope it happened in; null when not known (an event shed before its scope was
 *     resolved)
 * @param sessionId the session of the event or observation; null when none
 * @param memoryId the memory stored or forgotten; null for the other kinds
 * @param detail what happened, in words, with no memory text (it may be private)
 */
public record CaptureEvent(
    Kind kind, Instant at, Scope scope, String sessionId, MemoryId memoryId, String detail) {

  /** What happened. */
  public enum Kind {
    /** An accepted event was stored as an observation. */
    OBSERVATION_STORED,
    /** The optional compressor failed and the synthetic form replaced its answer. */
    COMPRESSION_FELL_BACK,
    /**
     * The optional consolidator failed on a session and the heuristic consolidator consolidated it
     * instead; {@code memoryId} is null.
     */
    CONSOLIDATION_FELL_BACK,
    /** An event was shed or dropped because the capture queue was full. */
    EVENT_SHED,
    /** A memory was forgotten. */
    MEMORY_FORGOTTEN
  }

  /** Validates the event. */
  public CaptureEvent {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(detail, "detail");
  }
}
