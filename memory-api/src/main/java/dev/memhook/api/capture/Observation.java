package dev.memhook.api.capture;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import java.time.Instant;
import java.util.Objects;

/**
 * A raw observation: one accepted event after sanitizing, attributed to its origin, as a {@link
 * dev.memhook.api.capture.Compressor} receives it. Its {@link #text()} is what a full {@code
 * get_memory} fetch of the stored observation shows.
 *
 * <p>Immutable and thread-safe. {@code toolName} is null unless a tool produced it; every other
 * component is non-null.
 *
 * @param id the id its stored memory has (derived from the event, so a redelivery maps to it)
 * @param type the event's type
 * @param scope the scope it is stored in
 * @param sessionId its session
 * @param project its session's project (empty when the event named none)
 * @param cwd its session's working directory (empty when the event named none)
 * @param origin how its content entered: user, tool (named), agent, import, shared
 * @param toolName the tool's name, or null
 * @param occurredAt when the event happened
 * @param capturedAt when {@code observe} accepted it
 * @param data the event's data, sanitized, each oversized part cut with a visible marker
 * @param text the whole sanitized event as one text (a header line, then each part of the data)
 * @param truncated whether any part was cut
 */
public record Observation(
    MemoryId id,
    LifecycleEventType type,
    Scope scope,
    String sessionId,
    String project,
    String cwd,
    Origin origin,
    String toolName,
    Instant occurredAt,
    Instant capturedAt,
    EventData data,
    String text,
    boolean truncated) {

  /** Requires the non-null components. */
  public Observation {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(project, "project");
    Objects.requireNonNull(cwd, "cwd");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(occurredAt, "occurredAt");
    Objects.requireNonNull(capturedAt, "capturedAt");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(text, "text");
  }
}
