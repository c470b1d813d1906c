package dev.memhook.core.internal.sanitize;

import java.util.Locale;
import java.util.Set;

/**
 * Redacts a secret said in words: {@code the password is hunter2}, {@code my password is:
 * swordfish}, {@code passcode was 7731}, {@code the password is now 'x'}, {@code pin is 1234},
 * {@code PIN code: 998877}. The value is the next word (quotes kept, trailing punctuation kept); it
 * is left alone when it is an ordinary word ({@link #NOT_SECRETS}: {@code the password is
 * required}), and a PIN must be 4 to 8 digits. {@code password policy}, {@code the password field}
 * and {@code the password isn't} have no value and are left alone.
 *
 * <p>Keywords are found by a literal scan of the folded text and parsed by hand from there, reading
 * a bounded stretch plus the value, after which the scan goes on: linear. Stateless and
 * thread-safe.
 */
final class SpokenSecrets implements Rule {

  private static final String[] TRIGGERS = {"pass", "pin"};
  private static final String[] KEYWORDS = {"password", "passwd", "passphrase", "passcode", "pin"};
  private static final String[] QUALIFIERS = {"now", "still", "set to", "changed to"};
  private static final String OPENING_QUOTES = "\"'“‘";
  private static final String VALUE_ENDS = "\"'“”‘’";
  private static final String TRAILING_PUNCTUATION = ".,;:!?)]}";

  /**
   * Words that follow "the password is" in prose about passwords rather than in a disclosed one
   * ({@code the password is required}, {@code the password is too short}).
   */
  static final Set<String> NOT_SECRETS =
      Set.of(
          "a",
          "an",
          "the",
          "not",
          "no",
          "yes",
          "required",
          "optional",
          "mandatory",
          "needed",
          "necessary",
          "too",
          "very",
          "set",
          "unset",
          "correct",
          "incorrect",
          "wrong",
          "right",
          "invalid",
          "valid",
          "expired",
          "empty",
          "blank",
          "missing",
          "strong",
          "weak",
          "long",
          "short",
          "case",
          "stored",
          "saved",
          "changed",
          "reset",
          "same",
          "different",
          "being",
          "used",
          "in",
          "on",
          "at",
          "for",
          "also",
          "still",
          "now",
          "never",
          "always",
          "only",
          "just",
          "what",
          "how",
          "where",
          "which",
          "that",
          "this",
          "it",
          "there",
          "here",
          "to",
          "as",
          "of",
          "by",
          "with",
          "without",
          "hashed",
          "encrypted",
          "sensitive",
          "and",
          "or",
          "but",
          "so",
          "true",
          "false",
          "null",
          "none",
          "unknown",
          "ok",
          "fine",
          "good",
          "bad",
          "secure",
          "insecure",
          "stolen",
          "leaked",
          "compromised",
          "visible",
          "hidden",
          "shown",
          "displayed",
          "sent",
          "generated",
          "random",
          "managed",
          "rotated",
          "secret",
          "private",
          "important",
          "easy",
          "hard",
          "simple",
          "complex",
          "known",
          "given",
          "provided",
          "ignored",
          "checked",
          "validated",
          "verified",
          "taken",
          "my",
          "your",
          "his",
          "her",
          "our",
          "their",
          "its",
          "something",
          "nothing",
          "anything",
          "one",
          "updated",
          "case-sensitive",
          "removed",
          "deleted",
          "disabled",
          "enabled",
          "locked",
          "unchanged",
          "accepted",
          "rejected");

  @Override
  public String kind() {
    return "secret";
  }

  @Override
  public void find(Subject subject, Edits edits) {
    String text = subject.text();
    String folded = subject.folded();
    Triggers candidates = new Triggers(folded, TRIGGERS);
    int from = 0;
    for (int at = candidates.next(from); at >= 0; at = candidates.next(from)) {
      from = at + 1;
      if (at > 0 && continuesWord(text.charAt(at - 1))) {
        continue;
      }
      String keyword = keywordAt(folded, at);
      if (keyword == null) {
        continue;
      }
      int i = at + keyword.length();
      boolean pin = keyword.equals("pin");
      if (pin) {
        int after = skipBlanks(folded, i);
        if (after > i && (folded.startsWith("code", after) || folded.startsWith("number", after))) {
          i = after + (folded.startsWith("code", after) ? 4 : 6);
        }
      }
      int valueStart = afterSeparator(folded, i);
      if (valueStart < 0) {
        continue;
      }
      if (valueStart < text.length() && OPENING_QUOTES.indexOf(text.charAt(valueStart)) >= 0) {
        valueStart++;
      }
      int valueEnd = valueStart;
      while (valueEnd < text.length()
          && !Character.isWhitespace(text.charAt(valueEnd))
          && VALUE_ENDS.indexOf(text.charAt(valueEnd)) < 0) {
        valueEnd++;
      }
      from = Math.max(from, valueEnd);
      int end = valueEnd;
      while (end > valueStart && TRAILING_PUNCTUATION.indexOf(text.charAt(end - 1)) >= 0) {
        end--;
      }
      if (end > valueStart
          && !Rule.isMarkerAt(text, valueStart)
          && isSecret(text.substring(valueStart, end), pin)) {
        edits.add(valueStart, end);
      }
    }
  }

  private static String keywordAt(String folded, int at) {
    for (String keyword : KEYWORDS) {
      if (folded.startsWith(keyword, at)) {
        int end = at + keyword.length();
        if (end == folded.length() || !continuesWord(folded.charAt(end))) {
          return keyword;
        }
      }
    }
    return null;
  }

  /**
   * Where the value starts after {@code is}, {@code was} (each optionally followed by a qualifier
   * such as {@code now} and by a colon) or a bare {@code :} or {@code =}; or -1.
   */
  private static int afterSeparator(String folded, int i) {
    int blanks = skipBlanks(folded, i);
    if (blanks < folded.length()
        && (folded.charAt(blanks) == ':' || folded.charAt(blanks) == '=')) {
      return skipBlanks(folded, blanks + 1);
    }
    if (blanks == i) {
      return -1;
    }
    int verb = blanks;
    if (folded.startsWith("is", verb)) {
      i = verb + 2;
    } else if (folded.startsWith("was", verb)) {
      i = verb + 3;
    } else {
      return -1;
    }
    int next = skipBlanks(folded, i);
    for (String qualifier : QUALIFIERS) {
      if (next > i && folded.startsWith(qualifier, next)) {
        int after = next + qualifier.length();
        if (after < folded.length() && isBlank(folded.charAt(after))) {
          i = after;
          next = skipBlanks(folded, i);
          break;
        }
      }
    }
    if (next < folded.length() && folded.charAt(next) == ':') {
      return skipBlanks(folded, next + 1);
    }
    return next > i ? next : -1;
  }

  private static boolean isSecret(String value, boolean pin) {
    if (pin) {
      return value.length() >= 4
          && value.length() <= 8
          && value.chars().allMatch(c -> c >= '0' && c <= '9');
    }
    return !NOT_SECRETS.contains(value.toLowerCase(Locale.ROOT));
  }

  private static int skipBlanks(String text, int i) {
    while (i < text.length() && isBlank(text.charAt(i))) {
      i++;
    }
    return i;
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t';
  }

  private static boolean continuesWord(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '-';
  }
}
