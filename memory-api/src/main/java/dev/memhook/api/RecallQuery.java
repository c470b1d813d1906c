package dev.memhook.api;

import java.time.Instant;
import java.util.Objects;

/**
 * A request to recall the memories of one scope that matter for a piece of text.
 *
 * <p>Immutable and thread-safe. {@code scope} and {@code text} must not be null; {@code asOf} and
 * {@code excludedSession} may be.
 *
 * @param scope the only scope searched (a hard filter)
 * @param text what to recall for: a user message, a model's reasoning, a question
 * @param limit the most memories returned, 1 to {@value #MAX_LIMIT}
 * @param asOf when the question is asked: what the time words of {@code text} ("yesterday", "last
 *     week", "in May") count from when recall favours the memories of the time they name; null for
 *     the service clock's now, which is right for a live conversation. A host replaying an older
 *     conversation, or asking on behalf of one, gives that conversation's time.
 * @param excludedSession a source session whose memories ({@link Memory#sourceSession()}) the
 *     recall leaves out before they can act: they give the query no evidence at the relevance gate,
 *     seed nothing, and take no place under the limit; null leaves nothing out. A host recalling
 *     for a conversation it also captures names that conversation's session: its turns are in the
 *     model's context already, and the message just captured matches itself perfectly, so it would
 *     let unrelated memories through the gate behind it. The chat hook ({@link
 *     MemoryService#hookInto}) does this itself.
 */
public record RecallQuery(
    Scope scope, String text, int limit, Instant asOf, String excludedSession) {

  /** The default number of memories returned. */
  public static final int DEFAULT_LIMIT = 5;

  /** The largest accepted limit. */
  public static final int MAX_LIMIT = 100;

  /** Validates the query. */
  public RecallQuery {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(text, "text");
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be in [1, " + MAX_LIMIT + "], got " + limit);
    }
    if (excludedSession != null && excludedSession.isBlank()) {
      throw new IllegalArgumentException(
          "excludedSession must name a session, or be null to leave nothing out");
    }
  }

  /** A query asked at {@code asOf} (null: now) that leaves nothing out. */
  public RecallQuery(Scope scope, String text, int limit, Instant asOf) {
    this(scope, text, limit, asOf, null);
  }

  /**
   * A query asked now that leaves nothing out: its time words count from the service clock's now.
   */
  public RecallQuery(Scope scope, String text, int limit) {
    this(scope, text, limit, null, null);
  }

  /**
   * A query for {@code text} in {@code scope} returning at most {@value #DEFAULT_LIMIT} memories.
   */
  public static RecallQuery of(Scope scope, String text) {
    return new RecallQuery(scope, text, DEFAULT_LIMIT);
  }

  /** This query with another limit. */
  public RecallQuery withLimit(int newLimit) {
    return new RecallQuery(scope, text, newLimit, asOf, excludedSession);
  }

  /** This query asked at {@code instant}; null asks it at the service clock's now. */
  public RecallQuery withAsOf(Instant instant) {
    return new RecallQuery(scope, text, limit, instant, excludedSession);
  }

  /**
   * This query leaving out the memories captured from {@code session}; null leaves nothing out.
   *
   * @throws IllegalArgumentException if {@code session} is blank
   */
  public RecallQuery excludingSession(String session) {
    return new RecallQuery(scope, text, limit, asOf, session);
  }
}
