package dev.memhook.api;

import java.util.Objects;
import java.util.regex.Pattern;

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

  // declared before DEFAULT: static fields initialise in order
  private static final Pattern VALID =
      Pattern.compile("[A-Za-z0-9._@+-]{1,64}(/[A-Za-z0-9._@+-]{1,64}){0,7}");

  /** The scope used when a host names none. */
  public static final Scope DEFAULT = new Scope("default");

  /** Validates the path. */
  public Scope {
    Objects.requireNonNull(value, "value");
    if (!VALID.matcher(value).matches()) {
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

  @Override
  public String toString() {
    return value;
  }
}
