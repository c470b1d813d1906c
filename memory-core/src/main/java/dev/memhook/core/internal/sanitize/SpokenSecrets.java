package dev.memhook.core.internal.sanitize;

import java.util.Locale;

/**
 * Redacts a secret said in words: {@code the password is hunter2}, {@code my password is:
 * swordfish}, {@code passcode was 7731}, {@code the password is now 'x'}, {@code pin is 1234},
 * {@code PIN code: 998877}, {@code the password for prod is hunter2}. The value is the next word
 * (quotes kept, trailing punctuation kept); it is left alone when it is an ordinary word ({@link
 * OrdinaryWords}: {@code the password is required}), and a PIN must be 4 to 8 digits. {@code
 * password policy}, {@code the password field} and {@code the password isn't} have no value and are
 * left alone. With no verb or colon at all, the next word is the value only when it reads as one
 * ({@link #isBareSecret}): {@code the password hunter2-Xyzzy-99}, {@code my PIN 4821}.
 *
 * <p>A verb with a colon ({@code the password is: correct horse battery staple}, {@code was:},
 * {@code is now:}) says that a disclosure follows, so the value is the whole clause, ordinary words
 * included: to the end of the line, of the sentence ({@code . ! ?} before white space or the end)
 * or of the quote it opens, and at most {@link #MAX_DISCLOSURE} characters (then to the end of the
 * word reached). A PIN stays one number, and a bare {@code password:} one word.
 *
 * <p>Between the keyword and the verb may stand a short qualifier: {@code for}, {@code of}, {@code
 * on} or {@code to} and one to {@link #MAX_QUALIFIER_WORDS} words on the same line, none ending a
 * clause, within {@link #MAX_QUALIFIER} characters ({@code the password for the prod db is x}).
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
  private static final String[] QUALIFYING_WORDS = {"for", "of", "on", "to"};

  /** The most words a qualifier phrase takes after its preposition. */
  static final int MAX_QUALIFIER_WORDS = 3;

  /** The most characters read for a qualifier phrase, preposition included. */
  static final int MAX_QUALIFIER = 48;

  /**
   * The most characters of a disclosed clause read before its end; a clause that runs on is
   * redacted this far and to the end of the word reached. A passphrase is rarely longer, and the
   * bound keeps each keyword's read bounded.
   */
  static final int MAX_DISCLOSURE = 128;

  /**
   * Where a value starts, whether a verb with a colon made it a disclosed clause, and whether the
   * value follows the keyword with nothing but blanks between ({@code the password hunter2}).
   */
  private record Separator(int valueStart, boolean disclosure, boolean bare) {}

  /**
   * The fewest characters of a value right after a non-PIN keyword that, holding a digit, is taken
   * for a secret: {@code password hunter2} is one, {@code password v2} is a version.
   */
  static final int MIN_BARE = 6;

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
      Separator separator = separator(folded, i);
      if (separator == null) {
        continue;
      }
      int valueStart = separator.valueStart();
      boolean quoted =
          valueStart < text.length() && OPENING_QUOTES.indexOf(text.charAt(valueStart)) >= 0;
      if (quoted) {
        valueStart++;
      }
      if (separator.disclosure() && !pin) {
        from = Math.max(from, redactClause(text, valueStart, quoted, edits));
        continue;
      }
      int valueEnd = valueStart;
      while (valueEnd < text.length()
          && !Character.isWhitespace(text.charAt(valueEnd))
          && VALUE_ENDS.indexOf(text.charAt(valueEnd)) < 0) {
        valueEnd++;
      }
      from = Math.max(from, valueEnd);
      int end = trimPunctuation(text, valueStart, valueEnd);
      if (end > valueStart
          && !Rule.isMarkerAt(text, valueStart)
          && (separator.bare()
              ? isBareSecret(text.substring(valueStart, end), keyword)
              : isSecret(text.substring(valueStart, end), pin))) {
        edits.add(valueStart, end);
      }
    }
  }

  /**
   * Redacts the disclosed clause starting at {@code start} (inside a quote if {@code quoted}) and
   * returns where the clause ends.
   */
  private static int redactClause(String text, int start, boolean quoted, Edits edits) {
    if (start >= text.length() || Rule.isMarkerAt(text, start)) {
      return start;
    }
    int clauseEnd = clauseEnd(text, start, quoted);
    int end = clauseEnd;
    while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
      end--;
    }
    end = trimPunctuation(text, start, end);
    if (end > start) {
      edits.add(start, end);
    }
    return clauseEnd;
  }

  /**
   * Where the clause starting at {@code start} ends: at a line break, a sentence end ({@code . ! ?}
   * before white space or the end of the text), the closing quote if {@code quoted}, or, past
   * {@link #MAX_DISCLOSURE} characters, the end of the word reached.
   */
  private static int clauseEnd(String text, int start, boolean quoted) {
    int n = text.length();
    int limit = Math.min(n, start + MAX_DISCLOSURE);
    for (int i = start; i < limit; i++) {
      char c = text.charAt(i);
      if (c == '\n' || c == '\r' || quoted && VALUE_ENDS.indexOf(c) >= 0) {
        return i;
      }
      if ((c == '.' || c == '!' || c == '?')
          && (i + 1 == n || Character.isWhitespace(text.charAt(i + 1)))) {
        return i;
      }
    }
    int end = limit;
    while (end < n && !Character.isWhitespace(text.charAt(end))) {
      end++;
    }
    return end;
  }

  private static int trimPunctuation(String text, int start, int end) {
    while (end > start && TRAILING_PUNCTUATION.indexOf(text.charAt(end - 1)) >= 0) {
      end--;
    }
    return end;
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
   * Where the value starts after a bare {@code :} or {@code =}, or after {@code is} or {@code was}
   * (each optionally after a qualifier phrase such as {@code for prod}, and followed by a word such
   * as {@code now} and by a colon, which makes the value a disclosed clause); or null.
   */
  private static Separator separator(String folded, int i) {
    int blanks = skipBlanks(folded, i);
    if (blanks < folded.length()
        && (folded.charAt(blanks) == ':' || folded.charAt(blanks) == '=')) {
      return new Separator(skipBlanks(folded, blanks + 1), false, false);
    }
    if (blanks == i) {
      return null;
    }
    if (isVerbAt(folded, blanks)) {
      return afterVerb(folded, blanks);
    }
    int verb = afterQualifier(folded, blanks);
    if (verb >= 0) {
      return afterVerb(folded, verb);
    }
    return blanks < folded.length() ? new Separator(blanks, false, true) : null;
  }

  /** The value after the verb {@code is} or {@code was} at {@code verb}, or null. */
  private static Separator afterVerb(String folded, int verb) {
    int i = verb + (folded.startsWith("is", verb) ? 2 : 3);
    int next = skipBlanks(folded, i);
    for (String qualifier : QUALIFIERS) {
      if (next > i && folded.startsWith(qualifier, next)) {
        int after = next + qualifier.length();
        if (after < folded.length()
            && (isBlank(folded.charAt(after)) || folded.charAt(after) == ':')) {
          i = after;
          next = skipBlanks(folded, i);
          break;
        }
      }
    }
    if (next < folded.length() && folded.charAt(next) == ':') {
      return new Separator(skipBlanks(folded, next + 1), true, false);
    }
    return next > i ? new Separator(next, false, false) : null;
  }

  /**
   * Where the verb starts after the qualifier phrase at {@code i} ({@code for the prod db is}), or
   * -1: a qualifying word, then one to {@link #MAX_QUALIFIER_WORDS} words separated by blanks, none
   * ending in punctuation, all within {@link #MAX_QUALIFIER} characters.
   */
  private static int afterQualifier(String folded, int i) {
    int j = -1;
    for (String word : QUALIFYING_WORDS) {
      int end = i + word.length();
      if (folded.startsWith(word, i) && end < folded.length() && isBlank(folded.charAt(end))) {
        j = skipBlanks(folded, end);
        break;
      }
    }
    if (j < 0) {
      return -1;
    }
    int limit = Math.min(folded.length(), i + MAX_QUALIFIER);
    for (int words = 0; words < MAX_QUALIFIER_WORDS; words++) {
      int end = j;
      while (end < limit && !Character.isWhitespace(folded.charAt(end))) {
        end++;
      }
      if (end == j
          || end >= limit
          || !isBlank(folded.charAt(end))
          || TRAILING_PUNCTUATION.indexOf(folded.charAt(end - 1)) >= 0) {
        return -1;
      }
      j = skipBlanks(folded, end);
      if (isVerbAt(folded, j)) {
        return j;
      }
    }
    return -1;
  }

  /** Whether the word {@code is} or {@code was} starts at {@code i}. */
  private static boolean isVerbAt(String folded, int i) {
    int end;
    if (folded.startsWith("is", i)) {
      end = i + 2;
    } else if (folded.startsWith("was", i)) {
      end = i + 3;
    } else {
      return false;
    }
    return end == folded.length() || !continuesWord(folded.charAt(end));
  }

  private static boolean isSecret(String value, boolean pin) {
    if (pin) {
      return value.length() >= 4
          && value.length() <= 8
          && value.chars().allMatch(c -> c >= '0' && c <= '9');
    }
    return !OrdinaryWords.AFTER_A_KEYWORD.contains(value.toLowerCase(Locale.ROOT));
  }

  /**
   * Whether {@code value}, right after {@code keyword} with no verb or colon between, is a secret
   * rather than the next word of a sentence ({@code the password reset flow}): after {@code pin} or
   * {@code passcode}, 4 to 8 digits; after any keyword but {@code pin}, a word of at least {@link
   * #MIN_BARE} characters that holds a digit, which words seldom do and passwords mostly do. It
   * must start with a letter or digit: {@code and password (1.6s)} is a test report's timing.
   */
  private static boolean isBareSecret(String value, String keyword) {
    if (!Character.isLetterOrDigit(value.charAt(0))) {
      return false;
    }
    boolean pinLike = keyword.equals("pin") || keyword.equals("passcode");
    if (pinLike && isSecret(value, true)) {
      return true;
    }
    return !keyword.equals("pin")
        && value.length() >= MIN_BARE
        && value.chars().anyMatch(c -> c >= '0' && c <= '9')
        && isSecret(value, false);
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
