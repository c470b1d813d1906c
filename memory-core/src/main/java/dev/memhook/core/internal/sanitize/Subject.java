package dev.memhook.core.internal.sanitize;

/**
 * The text one {@code sanitize} call is working on, as it changes rule by rule, with the views
 * rules search: a budgeted view for regexes and an ASCII-lower-cased copy for case-insensitive
 * literal scans (same length and indices as the text, made only when a rule asks for it).
 *
 * <p>Not thread-safe; one per call.
 */
final class Subject {

  private String text;
  private String folded;

  Subject(String text) {
    this.text = text;
  }

  String text() {
    return text;
  }

  /** The text for one rule's regexes, with a fresh step budget. */
  StepBudget budgeted() {
    return new StepBudget(text);
  }

  /** The folded text for one rule's regexes, with a fresh step budget. */
  StepBudget budgetedFolded() {
    return new StepBudget(folded());
  }

  /** The text with {@code A-Z} lower-cased and every other character as it is. */
  String folded() {
    if (folded == null) {
      folded = foldAscii(text);
    }
    return folded;
  }

  /** Applies one rule's edits. */
  void apply(Edits edits, String marker) {
    if (!edits.isEmpty()) {
      text = edits.applyTo(text, marker);
      folded = null;
    }
  }

  static String foldAscii(String s) {
    int i = 0;
    int n = s.length();
    while (i < n && !isAsciiUpper(s.charAt(i))) {
      i++;
    }
    if (i == n) {
      return s;
    }
    char[] chars = s.toCharArray();
    for (; i < n; i++) {
      if (isAsciiUpper(chars[i])) {
        chars[i] = (char) (chars[i] + ('a' - 'A'));
      }
    }
    return new String(chars);
  }

  private static boolean isAsciiUpper(char c) {
    return c >= 'A' && c <= 'Z';
  }
}
