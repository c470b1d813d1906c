package dev.memhook.core.internal.capture;

import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.core.internal.observe.FieldText;
import java.time.Instant;

/**
 * What each step of capture does to a session record, in one place: an event starts or touches it,
 * an observation counts, an end records status and summary, a forget clears its quotes. Stateless;
 * every method returns a new record.
 */
final class SessionChanges {

  /** The longest first prompt a session record keeps. */
  static final int MAX_FIRST_PROMPT = 500;

  private SessionChanges() {}

  /** The record a session's first processed event {@code e} starts. */
  static Session started(AcceptedEvent e, String prompt) {
    Instant at = e.event().timestamp();
    return new Session(
        e.event().sessionId(),
        e.scope(),
        orEmpty(e.event().project()),
        orEmpty(e.event().cwd()),
        at,
        at,
        null,
        SessionStatus.ACTIVE,
        0,
        firstPrompt(prompt),
        null);
  }

  /**
   * {@code s} after its event {@code e}: the start and last event times widen to include it, the
   * first prompt, the project and the cwd are kept once known, and an abandoned session, or one
   * ended when the service closed, is active again if {@code e} is news to it (such a session that
   * speaks again is not over: a new segment of it begins; an event it had seen, replayed after a
   * crash, changes nothing). A session its end event completed stays completed. Applying it twice
   * changes nothing more.
   *
   * @param news whether {@code e} was captured after every event the session had before
   */
  static Session touched(Session s, AcceptedEvent e, String prompt, boolean news) {
    Instant at = e.event().timestamp();
    Instant started = at.isBefore(s.startedAt()) ? at : s.startedAt();
    Instant last = at.isAfter(s.lastEventAt()) ? at : s.lastEventAt();
    boolean resumable = s.status() == SessionStatus.ABANDONED || s.status() == SessionStatus.CLOSED;
    SessionStatus status = resumable && news ? SessionStatus.ACTIVE : s.status();
    return new Session(
        s.id(),
        s.scope(),
        s.project().isEmpty() ? orEmpty(e.event().project()) : s.project(),
        s.cwd().isEmpty() ? orEmpty(e.event().cwd()) : s.cwd(),
        started,
        last,
        status == SessionStatus.ACTIVE ? null : s.endedAt(),
        status,
        s.observationCount(),
        s.firstPrompt() != null ? s.firstPrompt() : firstPrompt(prompt),
        s.summary());
  }

  /** {@code s} with another status, end time, observation count and summary. */
  static Session with(Session s, SessionStatus status, Instant endedAt, int count, String summary) {
    return new Session(
        s.id(),
        s.scope(),
        s.project(),
        s.cwd(),
        s.startedAt(),
        s.lastEventAt(),
        endedAt,
        status,
        count,
        s.firstPrompt(),
        summary);
  }

  /** {@code s} without its first prompt and summary, which may quote a forgotten text. */
  static Session withoutQuotes(Session s) {
    return new Session(
        s.id(),
        s.scope(),
        s.project(),
        s.cwd(),
        s.startedAt(),
        s.lastEventAt(),
        s.endedAt(),
        s.status(),
        s.observationCount(),
        null,
        null);
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  private static String firstPrompt(String prompt) {
    if (prompt == null || prompt.isBlank()) {
      return null;
    }
    return FieldText.cutEnd(prompt.strip(), MAX_FIRST_PROMPT);
  }
}
