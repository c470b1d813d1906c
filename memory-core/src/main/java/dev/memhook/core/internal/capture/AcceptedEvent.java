package dev.memhook.core.internal.capture;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.LifecycleEvent;
import java.time.Instant;
import java.util.Objects;

/**
 * An event {@code observe} accepted: validated, sanitized and cut, with everything the pipeline
 * needs to process it the same way after a crash. This is what the capture journal holds.
 *
 * <p>Immutable and thread-safe; nothing is null. The event's timestamp is always set (the clock's
 * time at acceptance when the host sent none).
 *
 * @param event the sanitized event, every oversized part cut with a visible marker
 * @param key the duplicate key: from the session and event id, or a digest of session, hook type,
 *     timestamp and content ({@link EventKeys#key})
 * @param observationId the id its stored observation gets, derived from {@code key} ({@link
 *     EventKeys#observationId})
 * @param scope the scope it is stored in
 * @param capturedAt when {@code observe} accepted it
 * @param truncated whether any part was cut
 */
public record AcceptedEvent(
    LifecycleEvent event,
    String key,
    MemoryId observationId,
    Scope scope,
    Instant capturedAt,
    boolean truncated) {

  /** Requires every component. */
  public AcceptedEvent {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(event.timestamp(), "event.timestamp");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(observationId, "observationId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(capturedAt, "capturedAt");
  }
}
