package dev.memhook.core.internal.sanitize;

import java.util.List;

/**
 * Redacts the value of a secret-named key in configuration, environment, JSON and YAML shapes:
 * {@code password=x}, {@code DB_PASSWORD: x}, {@code "api_key": "x"}, {@code 'token' => 'x'},
 * {@code aws_secret_access_key = x}. The key is one token of letters, digits, {@code _ . -} whose
 * name (in any case) ends with a secret word ({@link #SECRET_SUFFIXES}), followed on the same line
 * by {@code = : => :=}; the value is the quoted string (the quotes are kept, so JSON stays JSON) or
 * the token up to white space, {@code ,} or {@code ;}. A key followed by anything else ({@code
 * password policy: 12 chars}, {@code password_policy: strict}) is left alone.
 *
 * <p>Keys are found by a literal scan for their secret word, and read at most {@link #MAX_KEY}
 * characters either way; a quoted value is read to its closing quote or the end of its line, and
 * the opening quote of any later value on the line closes it, so each character is read a bounded
 * number of times. Stateless and thread-safe.
 */
final class KeyValueSecrets implements Rule {

  /** Lower-case endings of a key that names a secret. */
  static final List<String> SECRET_SUFFIXES =
      List.of(
          "password",
          "passwd",
          "pwd",
          "passphrase",
          "secret",
          "token",
          "apikey",
          "api_key",
          "api-key",
          "secretkey",
          "secret_key",
          "secret-key",
          "privatekey",
          "private_key",
          "private-key",
          "secret_access_key");

  /** Literals one of which every secret key contains, searched in the folded text. */
  private static final String[] TRIGGERS = {"pass", "pwd", "secret", "token", "key"};

  /** The longest key read; a longer token is not a key. */
  static final int MAX_KEY = 64;

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
      int keyStart = at;
      while (keyStart > 0 && at - keyStart <= MAX_KEY && isKeyChar(text.charAt(keyStart - 1))) {
        keyStart--;
      }
      int keyEnd = at;
      while (keyEnd < text.length() && keyEnd - at <= MAX_KEY && isKeyChar(text.charAt(keyEnd))) {
        keyEnd++;
      }
      // Every trigger inside this token belongs to the same key, so none needs another look.
      from = Math.max(keyEnd, at + 1);
      if (keyEnd - keyStart > MAX_KEY
          || keyStart > 0 && isKeyChar(text.charAt(keyStart - 1))
          || !endsWithSecretWord(folded, keyStart, keyEnd)) {
        continue;
      }
      int valueEnd = redactValue(text, keyEnd, edits);
      if (valueEnd > 0) {
        from = valueEnd;
      }
    }
  }

  /**
   * Redacts the value after the key ending at {@code i}, if a separator and a value follow, and
   * returns where the value ends; or -1.
   */
  private static int redactValue(String text, int i, Edits edits) {
    int n = text.length();
    if (i < n && (text.charAt(i) == '"' || text.charAt(i) == '\'')) {
      i++; // the key's closing quote
    }
    i = skipBlanks(text, i);
    if (text.startsWith("=>", i) || text.startsWith(":=", i)) {
      i += 2;
    } else if (i < n && (text.charAt(i) == '=' || text.charAt(i) == ':')) {
      i++;
    } else {
      return -1;
    }
    i = skipBlanks(text, i);
    if (i >= n) {
      return -1;
    }
    char quote = text.charAt(i);
    if (quote == '"' || quote == '\'') {
      int close = closingQuote(text, i + 1, quote);
      if (close >= 0) {
        if (close > i + 1 && !Rule.isMarkerAt(text, i + 1)) {
          edits.add(i + 1, close);
        }
        return close + 1;
      }
    }
    int end = i;
    while (end < n && !endsUnquotedValue(text.charAt(end))) {
      end++;
    }
    if (end > i && !Rule.isMarkerAt(text, i)) {
      edits.add(i, end);
    }
    return end > i ? end : -1;
  }

  /** The index of the quote closing a string that starts at {@code i}, or -1 if the line ends. */
  private static int closingQuote(String text, int i, char quote) {
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == quote) {
        return i;
      }
      if (c == '\n' || c == '\r') {
        return -1;
      }
      i += c == '\\' ? 2 : 1;
    }
    return -1;
  }

  private static int skipBlanks(String text, int i) {
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static boolean endsWithSecretWord(String folded, int start, int end) {
    for (String suffix : SECRET_SUFFIXES) {
      int s = end - suffix.length();
      if (s >= start && folded.startsWith(suffix, s)) {
        return true;
      }
    }
    return false;
  }

  private static boolean endsUnquotedValue(char c) {
    return Character.isWhitespace(c) || c == ',' || c == ';';
  }

  static boolean isKeyChar(char c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || c == '_'
        || c == '.'
        || c == '-';
  }
}
