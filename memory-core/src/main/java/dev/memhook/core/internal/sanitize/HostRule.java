package dev.memhook.core.internal.sanitize;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A redaction rule a host adds: every match of {@code pattern} becomes {@code [redacted:KIND]},
 * except, when {@code keptGroup} is above 0, the match's text up to the end of that group, which
 * stays as a prefix ({@code (employee id:\s*)\d+} with group 1 gives {@code employee id:
 * [redacted:employee-id]}).
 *
 * <p>Immutable and thread-safe. Null arguments throw {@link NullPointerException}.
 *
 * @param kind the name the marker shows: 1 to 40 characters of {@code a-z 0-9 -}
 * @param pattern what to redact; it runs under the step budget ({@link Sanitizer})
 * @param keptGroup 0 to redact the whole match, or the group whose end ends the kept prefix
 */
public record HostRule(String kind, Pattern pattern, int keptGroup) {

  private static final Pattern KIND = Pattern.compile("[a-z0-9-]{1,40}");

  /**
   * @throws IllegalArgumentException if the kind is not 1 to 40 characters of {@code a-z 0-9 -}, or
   *     {@code keptGroup} is not 0 or a group of the pattern
   */
  public HostRule {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(pattern, "pattern");
    checkArgument(
        KIND.matcher(kind).matches(),
        "a redaction kind must be 1 to 40 characters of a-z, 0-9 and '-', since it is shown in"
            + " the marker [redacted:KIND]; got '%s'",
        kind);
    int groups = pattern.matcher("").groupCount();
    checkArgument(
        keptGroup >= 0 && keptGroup <= groups,
        "the kept group of rule '%s' must be 0 (redact the whole match) or a group of its pattern"
            + " (1 to %s); got %s",
        kind,
        groups,
        keptGroup);
  }

  Rule toRule() {
    return PatternRule.everywhere(
        kind,
        pattern,
        (m, text, edits) -> {
          int from = keptGroup > 0 && m.end(keptGroup) >= 0 ? m.end(keptGroup) : m.start();
          edits.add(from, m.end());
        });
  }
}
