package dev.memhook.api;

import java.time.Instant;
import java.util.Objects;

/**
 * A request to recall the memories of one scope that matter for a piece of text.
 *
 * <p>Immutable and thread-safe. {@code scope} and {@code text} must not be null; {@code asOf} may
 * be.
 *
 * @param scope the only scope searched (a hard filter)
 * @param text what to recall for: a user message, a model's reasoning, a question
 * @param limit the most memories returned, 1 to {@value #MAX_LIMIT}
 * @param asOf when the question is asked: what the time words of {@code text} ("yesterday", "last
 *     week", "in May") count from when recall favours the memories of the time they name; null for
 *     the service clock's now, which is right for a live conversation. A host replaying an older
 *     conversation, or asking on behalf of one, gives that conversation's time.
 */
public record RecallQuery(Scope scope, String text, int limit, Instant asOf) {

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
  }

  /** A query asked now: its time words count from the service clock's now. */
  public RecallQuery(Scope scope, String text, int limit) {
    this(scope, text, limit, null);
  }

  /**
   * A query for {@code text} in {@code scope} returning at most {@value #DEFAULT_LIMIT} memories.
   */
  public static RecallQuery of(Scope scope, String text) {
    return new RecallQuery(scope, text, DEFAULT_LIMIT);
  }

  /** This query with another limit. */
  public RecallQuery withLimit(int newLimit) {
    return new RecallQuery(scope, text, newLimit, asOf);
  }

  /** This query asked at {@code instant}; null asks it at the service clock's now. */
  public RecallQuery withAsOf(Instant instant) {
    return new RecallQuery(scope, text, limit, instant);
  }
}
