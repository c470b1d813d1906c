package dev.memhook.core.internal.capture;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import java.time.Instant;

/**
 * A session record as the JSON text every {@link dev.memhook.api.spi.SessionStore} keeps: the one
 * place its format lives. The fields and their order are those the {@code sessions} directory has
 * always held ({@code id}, {@code scope}, {@code project}, {@code cwd}, {@code startedAt}, {@code
 * lastEventAt}, {@code endedAt}, {@code status}, {@code observationCount}, {@code firstPrompt},
 * {@code summary}, {@code lastCapturedAt}), so existing directories open and new files read as old
 * ones did. Stateless and thread-safe.
 */
final class SessionRecordJson {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A decoded record: the session, and when this book last captured an event of it. */
  record Stored(Session session, Instant lastCapturedAt) {}

  private SessionRecordJson() {}

  /** The record of {@code s}; {@code lastCapturedAt} may be null. */
  static String write(Session s, Instant lastCapturedAt) {
    ObjectNode n = JSON.createObjectNode();
    n.put("id", s.id());
    n.put("scope", s.scope().value());
    n.put("project", s.project());
    n.put("cwd", s.cwd());
    n.put("startedAt", s.startedAt().toString());
    n.put("lastEventAt", s.lastEventAt().toString());
    n.put("endedAt", s.endedAt() == null ? null : s.endedAt().toString());
    n.put("status", s.status().name());
    n.put("observationCount", s.observationCount());
    n.put("firstPrompt", s.firstPrompt());
    n.put("summary", s.summary());
    n.put("lastCapturedAt", lastCapturedAt == null ? null : lastCapturedAt.toString());
    try {
      return JSON.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a session record could not be written as JSON", e);
    }
  }

  /**
   * The record in {@code json}; a record without {@code lastCapturedAt} counts its last event as
   * the last capture.
   *
   * @throws IllegalArgumentException if {@code json} is not a readable session record
   */
  static Stored read(String json) {
    try {
      JsonNode n = JSON.readTree(json);
      Session s =
          new Session(
              n.get("id").asText(),
              new Scope(n.get("scope").asText()),
              n.get("project").asText(),
              n.get("cwd").asText(),
              Instant.parse(n.get("startedAt").asText()),
              Instant.parse(n.get("lastEventAt").asText()),
              instant(n, "endedAt"),
              SessionStatus.valueOf(n.get("status").asText()),
              n.get("observationCount").asInt(),
              text(n, "firstPrompt"),
              text(n, "summary"));
      Instant captured = instant(n, "lastCapturedAt");
      return new Stored(s, captured != null ? captured : s.lastEventAt());
    } catch (JsonProcessingException | RuntimeException e) {
      throw new IllegalArgumentException("unreadable session record: " + e, e);
    }
  }

  private static Instant instant(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : Instant.parse(v.asText());
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}
