package dev.memhook.core.internal.sanitize;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rule that is a regex: either tried only where one of its trigger literals occurs (built-in
 * rules, whose patterns start at the trigger and use possessive quantifiers, so each attempt reads
 * a bounded stretch or a run no other attempt reads), or searched for everywhere (host rules,
 * bounded by the step budget instead).
 *
 * <p>Immutable and thread-safe.
 */
final class PatternRule implements Rule {

  /** Chooses what of a match is redacted. */
  @FunctionalInterface
  interface Redact {
    /** Adds the range of {@code m} to redact to {@code edits}, or nothing to leave it. */
    void redact(Matcher m, String text, Edits edits);
  }

  private final String kind;
  private final Pattern pattern;
  private final String[] triggers;
  private final boolean foldedTriggers;
  private final String notAfter;
  private final Redact redact;

  private PatternRule(
      String kind,
      Pattern pattern,
      String[] triggers,
      boolean foldedTriggers,
      String notAfter,
      Redact redact) {
    this.kind = kind;
    this.pattern = pattern;
    this.triggers = triggers;
    this.foldedTriggers = foldedTriggers;
    this.notAfter = notAfter;
    this.redact = redact;
  }

  /**
   * A rule tried where one of {@code triggers} occurs, matched there with {@code lookingAt}.
   * Triggers and pattern are matched case-sensitively, or, when {@code foldedTriggers}, against the
   * text with ASCII letters lower-cased (then both must be written in lower case: this is much
   * cheaper than {@code (?i)}); the redaction still reads the original text. A trigger right after
   * an ASCII letter or digit or one of {@code notAfter} is skipped without running the regex, whose
   * look-behind must refuse at least those characters: this is what keeps a run of repeated
   * triggers cheap.
   */
  static PatternRule triggered(
      String kind,
      String regex,
      boolean foldedTriggers,
      String notAfter,
      Redact redact,
      String... triggers) {
    return new PatternRule(
        kind, Pattern.compile(regex), triggers, foldedTriggers, notAfter, redact);
  }

  /** A rule searched for everywhere with {@code find}. */
  static PatternRule everywhere(String kind, Pattern pattern, Redact redact) {
    return new PatternRule(kind, pattern, null, false, "", redact);
  }

  /** Redacts group {@code group} (0: the whole match). */
  static Redact group(int group) {
    return (m, text, edits) -> {
      if (m.start(group) >= 0) {
        edits.add(m.start(group), m.end(group));
      }
    };
  }

  @Override
  public String kind() {
    return kind;
  }

  @Override
  public void find(Subject subject, Edits edits) {
    String text = subject.text();
    Matcher m = pattern.matcher(foldedTriggers ? subject.budgetedFolded() : subject.budgeted());
    if (triggers == null) {
      int from = 0;
      while (from <= text.length() && m.find(from)) {
        redact.redact(m, text, edits);
        from = m.end() > m.start() ? m.end() : m.end() + 1;
      }
      return;
    }
    m.useTransparentBounds(true).useAnchoringBounds(false);
    Triggers candidates = new Triggers(foldedTriggers ? subject.folded() : text, triggers);
    int from = 0;
    for (int at = candidates.next(from); at >= 0; at = candidates.next(from)) {
      if (at > 0 && continuesToken(text.charAt(at - 1))) {
        from = at + 1;
        continue;
      }
      m.region(at, text.length());
      if (m.lookingAt() && m.end() > at) {
        redact.redact(m, text, edits);
        from = m.end();
      } else {
        from = at + 1;
      }
    }
  }

  private boolean continuesToken(char c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || notAfter.indexOf(c) >= 0;
  }

  @Override
  public String toString() {
    return kind + " " + pattern;
  }
}
