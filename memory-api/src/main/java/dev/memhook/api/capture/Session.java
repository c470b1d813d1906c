package dev.memhook.api.capture;

import dev.memhook.api.Scope;
import java.time.Instant;
import java.util.Objects;

/**
 * A captured session, as the capture pipeline has processed it so far.
 *
 * <p>Immutable and thread-safe. {@code endedAt}, {@code firstPrompt} and {@code summary} are null
 * until known; every other component is non-null.
 *
 * @param id the session id the events named
 * @param scope the scope its observations are stored in
 * @param project the project, as the first event that named one gave it
 * @param cwd the working directory, as the first event that named one gave it
 * @param startedAt the time of its earliest event
 * @param lastEventAt the time of its latest event
 * @param endedAt when it ended or was found abandoned, or null while active
 * @param status active, completed or abandoned
 * @param observationCount how many observations it has stored
 * @param firstPrompt the first prompt the user submitted (sanitized, cut), or null
 * @param summary what the session did, written when it is consolidated, or null
 */
public record Session(
    String id,
    Scope scope,
    String project,
    String cwd,
    Instant startedAt,
    Instant lastEventAt,
    Instant endedAt,
    SessionStatus status,
    int observationCount,
    String firstPrompt,
    String summary) {

  /** Requires the non-null components. */
  public Session {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(project, "project");
    Objects.requireNonNull(cwd, "cwd");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(lastEventAt, "lastEventAt");
    Objects.requireNonNull(status, "status");
  }
}
