package dev.memhook.core.internal.capture;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import java.time.Instant;

/**
 * Checks a {@link LifecycleEvent} whole before anything of it is stored, the same way whether it
 * came typed or as JSON ({@link EventJson}).
 *
 * <p>Rules: {@code sessionId} is not blank and at most {@value MemoryDraft#MAX_SESSION} characters;
 * {@code project}, {@code toolName}, {@code agentName} and {@code speaker}, when present, are not
 * blank and at most {@value MemoryDraft#MAX_ORIGIN_NAME}; {@code cwd}, when present, is not blank
 * and at most {@value MemoryDraft#MAX_FILE}; {@code eventId}, when present, is not blank and at
 * most {@value #MAX_EVENT_ID}; the data the {@link LifecycleEventType} requires is present and not
 * blank; a timestamp, when present, lies in the years 1970 to 9999. The big text fields ({@code
 * input}, {@code output}, {@code prompt}, {@code error}, {@code message}) have no length limit
 * here: {@link EventScrub} cuts them visibly.
 *
 * <p>Errors: {@link IllegalArgumentException} whose message starts with the field path, such as
 * {@code "data.toolName is required for PostToolUse"} or {@code "sessionId must be at most 200
 * characters, got 201"}. Stateless and thread-safe.
 */
public final class EventValidation {

  /** The longest event id, in characters. */
  public static final int MAX_EVENT_ID = 200;

  /** The earliest timestamp accepted: the epoch. */
  public static final Instant EARLIEST = Instant.EPOCH;

  /** The first instant after the latest accepted timestamp: the start of the year 10000. */
  public static final Instant END = Instant.parse("+10000-01-01T00:00:00Z");

  private EventValidation() {}

  /**
   * Checks {@code event}.
   *
   * @throws NullPointerException if {@code event} is null
   * @throws IllegalArgumentException naming the first field that breaks a rule
   */
  public static void check(LifecycleEvent event) {
    required("sessionId", event.sessionId(), MemoryDraft.MAX_SESSION);
    optional("project", event.project(), MemoryDraft.MAX_ORIGIN_NAME);
    optional("cwd", event.cwd(), MemoryDraft.MAX_FILE);
    optional("eventId", event.eventId(), MAX_EVENT_ID);
    Instant at = event.timestamp();
    if (at != null && (at.isBefore(EARLIEST) || !at.isBefore(END))) {
      throw new IllegalArgumentException("timestamp must lie in the years 1970 to 9999, got " + at);
    }
    EventData data = event.data();
    optional("data.toolName", data.toolName(), MemoryDraft.MAX_ORIGIN_NAME);
    optional("data.agentName", data.agentName(), MemoryDraft.MAX_ORIGIN_NAME);
    optional("data.speaker", data.speaker(), MemoryDraft.MAX_ORIGIN_NAME);
    LifecycleEventType type = event.type();
    switch (type) {
      case PROMPT_SUBMIT -> requiredFor(type, "data.prompt", data.prompt());
      case PRE_TOOL_USE, POST_TOOL_USE -> requiredFor(type, "data.toolName", data.toolName());
      case TOOL_FAILURE -> {
        requiredFor(type, "data.toolName", data.toolName());
        requiredFor(type, "data.error", data.error());
      }
      case AGENT_RESPONSE -> requiredFor(type, "data.message", data.message());
      case SUBAGENT_START, SUBAGENT_STOP -> requiredFor(type, "data.agentName", data.agentName());
      case SESSION_START, PRE_COMPACT, SESSION_END -> {
        // nothing required
      }
    }
  }

  private static void required(String path, String value, int max) {
    if (value == null) {
      throw new IllegalArgumentException(path + " is required");
    }
    optional(path, value, max);
  }

  private static void optional(String path, String value, int max) {
    if (value == null) {
      return;
    }
    if (value.isBlank()) {
      throw new IllegalArgumentException(path + " must not be blank");
    }
    if (value.length() > max) {
      throw new IllegalArgumentException(
          path + " must be at most " + max + " characters, got " + value.length());
    }
  }

  private static void requiredFor(LifecycleEventType type, String path, String value) {
    if (value == null) {
      throw new IllegalArgumentException(path + " is required for " + type.wireName());
    }
    if (value.isBlank()) {
      throw new IllegalArgumentException(
          path + " is required for " + type.wireName() + " and must not be blank");
    }
  }
}
