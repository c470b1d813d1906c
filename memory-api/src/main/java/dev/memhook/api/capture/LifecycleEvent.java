package dev.memhook.api.capture;

import dev.memhook.api.internal.BuilderSettings;
import java.time.Instant;
import java.util.Objects;

/**
 * One lifecycle event for {@code MemoryCapture.observe}: what happened, in which session of which
 * project, and when.
 *
 * <p>The record only holds values; {@code observe} validates them (required fields, each field's
 * limit, the data the {@link LifecycleEventType} requires) and rejects an invalid event whole with
 * an {@link IllegalArgumentException} naming the field. Build one with {@link
 * #builder(LifecycleEventType, String)}.
 *
 * <p>Immutable and thread-safe. {@code type}, {@code sessionId} and {@code data} are non-null;
 * {@code project} and {@code cwd} may be null (a session must have them once: see {@code observe});
 * {@code timestamp} may be null (the service's clock is used); {@code eventId} may be null.
 *
 * @param type what happened
 * @param sessionId the session it happened in
 * @param project the project the session works on, such as a repository name
 * @param cwd the working directory of the session
 * @param timestamp when it happened
 * @param eventId a host-assigned id; an event delivered twice with the same id is stored once
 * @param data what the event carries
 */
public record LifecycleEvent(
    LifecycleEventType type,
    String sessionId,
    String project,
    String cwd,
    Instant timestamp,
    String eventId,
    EventData data) {

  /** Requires the type, session id and data. */
  public LifecycleEvent {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(data, "data");
  }

  /** A builder for an event of {@code type} in session {@code sessionId}. */
  public static Builder builder(LifecycleEventType type, String sessionId) {
    return new Builder(type, sessionId);
  }

  /**
   * Builds a {@link LifecycleEvent}. Not thread-safe. Each setter may be called once; a second call
   * throws {@link IllegalStateException} naming the setter, and a value a setter rejects sets
   * nothing. Defaults: no project, cwd or event id, the service's clock for the timestamp, {@link
   * EventData#EMPTY} for the data.
   */
  public static final class Builder {
    private final BuilderSettings settings = new BuilderSettings();
    private final LifecycleEventType type;
    private final String sessionId;
    private String project;
    private String cwd;
    private Instant timestamp;
    private String eventId;
    private EventData data = EventData.EMPTY;

    private Builder(LifecycleEventType type, String sessionId) {
      this.type = Objects.requireNonNull(type, "type");
      this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
    }

    /** The project; null, like not calling this, means none. */
    public Builder project(String value) {
      settings.checkUnset("project");
      this.project = value;
      return settings.recorded(this, "project");
    }

    /** The working directory; null, like not calling this, means none. */
    public Builder cwd(String value) {
      settings.checkUnset("cwd");
      this.cwd = value;
      return settings.recorded(this, "cwd");
    }

    /** When it happened; null, like not calling this, means "now, by the service's clock". */
    public Builder timestamp(Instant value) {
      settings.checkUnset("timestamp");
      this.timestamp = value;
      return settings.recorded(this, "timestamp");
    }

    /**
     * The host's id for this event, used to store a redelivered event once; null, like not calling
     * this, means none.
     */
    public Builder eventId(String value) {
      settings.checkUnset("eventId");
      this.eventId = value;
      return settings.recorded(this, "eventId");
    }

    /** What the event carries; not null. */
    public Builder data(EventData value) {
      settings.checkUnset("data");
      this.data = Objects.requireNonNull(value, "data");
      return settings.recorded(this, "data");
    }

    /** The event. */
    public LifecycleEvent build() {
      return new LifecycleEvent(type, sessionId, project, cwd, timestamp, eventId, data);
    }
  }
}
