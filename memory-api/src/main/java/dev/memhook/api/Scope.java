package dev.memhook.api;

import java.util.Objects;

/**
 * The partition a memory belongs to, such as a tenant, a user, a project or an agent.
 *
 * <p>A scope is a path of one to eight segments joined by {@code /}, for example {@code
 * acme/alice/checkout-service}. Scope is a hard filter applied inside the store: a recall for one
 * scope never returns a memory of another, and scopes do not inherit: {@code acme/alice} does not
 * see memories stored under {@code acme}.
 *
 * <p>Immutable and thread-safe. {@code null} is rejected with a {@link NullPointerException}.
 *
 * @param value the canonical path, segments of {@code [A-Za-z0-9._@+-]}
 */
public record Scope(String value) {

  private static final int MAX_SEGMENTS = 8;
  private static final int MAX_SEGMENT_LENGTH = 64;

  /** The scope used when a host names none. */
  public static final Scope DEFAULT = new Scope("default");

  /** Validates the path. */
  public Scope {
    Objects.requireNonNull(value, "value");
    if (!isValid(value)) {
      throw new IllegalArgumentException(
          "scope must be 1-8 '/'-separated segments of [A-Za-z0-9._@+-] (each 1-64 chars), got '"
              + FieldLimits.abbreviate(value, 80)
              + "' ("
              + value.length()
              + " characters)");
    }
  }

  /**
   * Builds a scope from its segments, for example {@code Scope.of("acme", "alice")}.
   *
   * @throws IllegalArgumentException if a segment is empty or holds a character outside the set
   */
  public static Scope of(String first, String... more) {
    Objects.requireNonNull(first, "first");
    StringBuilder sb = new StringBuilder(first);
    for (String segment : more) {
      Objects.requireNonNull(segment, "segment");
      if (segment.contains("/")) {
        throw new IllegalArgumentException("scope segment must not contain '/': '" + segment + "'");
      }
      sb.append('/').append(segment);
    }
    if (first.contains("/")) {
      throw new IllegalArgumentException("scope segment must not contain '/': '" + first + "'");
    }
    return new Scope(sb.toString());
  }

  /**
   * Whether {@code value} is 1 to 8 segments of 1 to 64 characters of {@code [A-Za-z0-9._@+-]},
   * joined by {@code /}. A loop, not a regular expression: every record a store reads back names
   * its scope.
   */
  private static boolean isValid(String value) {
    int segments = 1;
    int length = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '/') {
        if (length == 0 || ++segments > MAX_SEGMENTS) {
          return false;
        }
        length = 0;
      } else if (isSegmentChar(c) && ++length <= MAX_SEGMENT_LENGTH) {
        continue;
      } else {
        return false;
      }
    }
    return length > 0;
  }

  private static boolean isSegmentChar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '.'
        || c == '_'
        || c == '@'
        || c == '+'
        || c == '-';
  }

  @Override
  public String toString() {
    return value;
  }
}
