package dev.memhook.core.internal.sanitize;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rule that is a regex, tried in one of three ways: only where one of its trigger literals occurs
 * (credential rules, whose patterns start at the trigger), only where a cheap scan says a match may
 * start ({@link Starts}: personal-data rules, which have no literal to look for), or at every
 * position with {@code find} (host rules). The first two use possessive quantifiers, so each
 * attempt reads a bounded stretch or a run no other attempt reads; host rules are bounded by the
 * step budget instead.
 *
 * <p>Why not {@code find} for every built-in rule: a pattern that opens with a look-behind, as each
 * built-in one does to keep from starting inside a longer token, gives java.util.regex nothing to
 * skip ahead by, so {@code find} evaluates the look-behind at every position, several times slower
 * per character than a plain scan of the text for the characters a match can start with.
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

  /**
   * Where a match may start: the scan that stands in for trying the pattern at every position. It
   * must return every position where the pattern can match (it may return more), in increasing
   * order, reading a bounded stretch around each position it passes, so walking every candidate
   * costs time linear in the text.
   */
  @FunctionalInterface
  interface Starts {
    /** The first position at or after {@code from} where a match may start, or -1. */
    int next(String text, int from);
  }

  /**
   * The most letters and digits a name glued to a credential's prefix may have ({@code
   * passwordghp_…}); a longer run before the prefix is another token's body.
   */
  private static final int MAX_GLUED_HEAD = 12;

  private final String kind;
  private final Pattern pattern;
  private final Starts starts;
  private final String[] triggers;
  private final boolean foldedTriggers;
  private final String skipOnMiss;
  private final int shortestTrigger;
  private final Redact redact;

  private PatternRule(
      String kind,
      Pattern pattern,
      Starts starts,
      String[] triggers,
      boolean foldedTriggers,
      String skipOnMiss,
      Redact redact) {
    this.kind = kind;
    this.pattern = pattern;
    this.starts = starts;
    this.triggers = triggers;
    this.foldedTriggers = foldedTriggers;
    this.skipOnMiss = skipOnMiss;
    int shortest = Integer.MAX_VALUE;
    for (String trigger : triggers == null ? new String[0] : triggers) {
      shortest = Math.min(shortest, trigger.length());
    }
    this.shortestTrigger = triggers == null ? 0 : shortest;
    this.redact = redact;
  }

  /**
   * A rule tried where one of {@code triggers} occurs, matched there with {@code lookingAt}.
   * Triggers and pattern are matched case-sensitively, or, when {@code foldedTriggers}, against the
   * text with ASCII letters lower-cased (then both must be written in lower case: this is much
   * cheaper than {@code (?i)}); the redaction still reads the original text.
   *
   * <p>A trigger glued to the token before it is tried like any other. After {@code _} or {@code -}
   * ({@code token_ghp_…}, {@code key-sk-ant-…}) what it matched is redacted as it would be
   * anywhere. After an ASCII letter or digit it is redacted only if at most {@value
   * #MAX_GLUED_HEAD} letters and digits run up to the trigger (more is another token's body, such
   * as a random key that holds {@code AIza} by chance, which that token's own rule redacts whole)
   * and the redacted stretch after the trigger {@linkplain TokenShape#looksRandom looks random}: a
   * credential glued to a name is still a credential, while a word that happens to end in a prefix
   * ({@code task-runner-…}) is not one.
   *
   * <p>{@code skipOnMiss}, when not empty, lists the characters of the run the pattern reads
   * without a bound before it can fail (a JWT's first segment before its dot): after a miss the
   * scan goes on past that run, since every later trigger inside it would read the same run and
   * miss the same way. That keeps a text of repeated triggers linear. Empty for a pattern whose
   * miss reads a bounded stretch.
   */
  static PatternRule triggered(
      String kind,
      String regex,
      boolean foldedTriggers,
      String skipOnMiss,
      Redact redact,
      String... triggers) {
    return new PatternRule(
        kind, Pattern.compile(regex), null, triggers, foldedTriggers, skipOnMiss, redact);
  }

  /**
   * A rule tried where {@code starts} says a match may start, matched there with {@code lookingAt};
   * the pattern's look-behinds see the text before that position.
   */
  static PatternRule startingAt(String kind, String regex, Starts starts, Redact redact) {
    return new PatternRule(kind, Pattern.compile(regex), starts, null, false, "", redact);
  }

  /** A rule searched for everywhere with {@code find}. */
  static PatternRule everywhere(String kind, Pattern pattern, Redact redact) {
    return new PatternRule(kind, pattern, null, null, false, "", redact);
  }

  /**
   * The positions of a character that can start a match and is not right after a character the
   * pattern's look-behind refuses there. Given as pairs: a set of first characters, then the set of
   * characters a match starting with one of them cannot follow ({@code "0-8", "0-9-"} for a pattern
   * {@code (?<![0-9-])[0-8]…}); one pair per alternative of the pattern. Sets are ASCII, written as
   * characters and ranges such as {@code "0-9A-Z+-"} (a {@code -} is itself only last); a first
   * character in several pairs is refused only after a character every one of them refuses.
   *
   * @throws IllegalArgumentException if the arguments are not pairs
   */
  static Starts tokenStarts(String... firstThenNotAfter) {
    if (firstThenNotAfter.length % 2 != 0) {
      throw new IllegalArgumentException("tokenStarts takes pairs of first and refused characters");
    }
    // refused[c] is null where c starts no match, else the characters c may not follow
    boolean[][] refused = new boolean[128][];
    for (int p = 0; p < firstThenNotAfter.length; p += 2) {
      boolean[] first = asciiSet(firstThenNotAfter[p]);
      boolean[] notAfter = asciiSet(firstThenNotAfter[p + 1]);
      for (int c = 0; c < 128; c++) {
        if (!first[c]) {
          continue;
        }
        if (refused[c] == null) {
          refused[c] = notAfter.clone();
        } else {
          for (int b = 0; b < 128; b++) {
            refused[c][b] &= notAfter[b];
          }
        }
      }
    }
    return (text, from) -> {
      for (int i = from; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c < 128 && refused[c] != null) {
          char before = i > 0 ? text.charAt(i - 1) : 128;
          if (before >= 128 || !refused[c][before]) {
            return i;
          }
        }
      }
      return -1;
    };
  }

  private static boolean[] asciiSet(String spec) {
    boolean[] set = new boolean[128];
    for (int i = 0; i < spec.length(); i++) {
      char from = spec.charAt(i);
      char to = from;
      if (i + 2 < spec.length() && spec.charAt(i + 1) == '-') {
        to = spec.charAt(i + 2);
        i += 2;
      }
      if (to < from || to >= 128) {
        throw new IllegalArgumentException("not a set of ASCII characters: '" + spec + "'");
      }
      for (char c = from; c <= to; c++) {
        set[c] = true;
      }
    }
    return set;
  }

  /**
   * This rule tried at every position with {@code find}: what a rule tried at its {@link Starts}
   * must agree with, which is how the starts are tested.
   */
  PatternRule triedEverywhere() {
    return everywhere(kind, pattern, redact);
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
    if (starts != null) {
      findAtStarts(m, text, edits);
    } else if (triggers != null) {
      findAtTriggers(m, text, foldedTriggers ? subject.folded() : text, edits);
    } else {
      int from = 0;
      while (from <= text.length() && m.find(from)) {
        redact.redact(m, text, edits);
        from = m.end() > m.start() ? m.end() : m.end() + 1;
      }
    }
  }

  private void findAtStarts(Matcher m, String text, Edits edits) {
    m.useTransparentBounds(true).useAnchoringBounds(false);
    int from = 0;
    for (int at = starts.next(text, from); at >= 0; at = starts.next(text, from)) {
      m.region(at, text.length());
      if (m.lookingAt() && m.end() > at) {
        redact.redact(m, text, edits);
        from = m.end();
      } else {
        from = at + 1;
      }
    }
  }

  private void findAtTriggers(Matcher m, String text, String scanned, Edits edits) {
    m.useTransparentBounds(true).useAnchoringBounds(false);
    Triggers candidates = new Triggers(scanned, triggers);
    int from = 0;
    int redactedTo = 0;
    for (int at = candidates.next(from); at >= 0; at = candidates.next(from)) {
      m.region(at, text.length());
      if (!m.lookingAt() || m.end() <= at) {
        from = skipOnMiss.isEmpty() ? at + 1 : endOfRun(text, at + 1);
        continue;
      }
      from = m.end();
      // a redaction of this rule just before the trigger ends the token there, as its marker will
      if (at > redactedTo && isLetterOrDigit(text.charAt(at - 1))) {
        if (insideLongRun(text, at, redactedTo)) {
          continue; // the body of a longer token, another credential's, not a name before a prefix
        }
        Edits one = new Edits();
        redact.redact(m, text, one);
        // the trigger's own letters say nothing about whether what follows it is random
        int body = Math.max(one.isEmpty() ? at : one.start(0), at + shortestTrigger);
        if (one.isEmpty() || !TokenShape.looksRandom(text, body, Math.max(body, one.end(0)))) {
          continue;
        }
      }
      redact.redact(m, text, edits);
      redactedTo = m.end();
    }
  }

  /** The end of the run of {@link #skipOnMiss} characters at or after {@code from}. */
  private int endOfRun(String text, int from) {
    int end = from;
    while (end < text.length() && skipOnMiss.indexOf(text.charAt(end)) >= 0) {
      end++;
    }
    return end;
  }

  /**
   * Whether more than {@link #MAX_GLUED_HEAD} letters and digits run up to {@code at}: a prefix
   * that deep inside a token is part of that token's body (a random key holding {@code AIza} by
   * chance), not a credential glued to a name. The run starts after {@code floor}, where this
   * rule's last redaction ends. Reads at most that many characters back.
   */
  private static boolean insideLongRun(String text, int at, int floor) {
    int head = 0;
    for (int i = at - 1; i >= floor && isLetterOrDigit(text.charAt(i)); i--) {
      if (++head > MAX_GLUED_HEAD) {
        return true;
      }
    }
    return false;
  }

  private static boolean isLetterOrDigit(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
  }

  @Override
  public String toString() {
    return kind + " " + pattern;
  }
}
