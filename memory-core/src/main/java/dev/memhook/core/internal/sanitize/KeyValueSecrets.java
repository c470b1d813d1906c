package dev.memhook.core.internal.sanitize;

import java.util.List;

/**
 * Redacts the value of a secret-named key in configuration, environment, JSON and YAML shapes:
 * {@code password=x}, {@code DB_PASSWORD: x}, {@code "api_key": "x"}, {@code 'token' => 'x'},
 * {@code apiKey: x}. The key is one token of letters, digits, {@code _ . -} whose name (in any
 * case) ends with one of the rule's secret words, followed on the same line by {@code = : => :=};
 * the value is the quoted string (the quotes are kept, so JSON stays JSON; a quote escaped with
 * backslashes, as in JSON nested in a JSON string, counts as a quote) or the token up to white
 * space, {@code ,} or {@code ;}. A key followed by anything else ({@code password policy: 12
 * chars}, {@code password_policy: strict}) is left alone.
 *
 * <p>Two instances run: {@link #awsSecretAccessKeys()} first, so an AWS secret access key gets its
 * own kind, then {@link #generic()} for every other secret word.
 *
 * <p>Keys are found by a literal scan for their secret word, and read at most {@link #MAX_KEY}
 * characters either way; a quoted value is read to its closing quote or the end of its line, and
 * the opening quote of any later value on the line closes it, so each character is read a bounded
 * number of times. Immutable and thread-safe.
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

  /**
   * Lower-case endings of a key that names an AWS secret access key: {@code aws_secret_access_key},
   * {@code AWS_SECRET_ACCESS_KEY}, {@code "SecretAccessKey"} (the AWS CLI's JSON), {@code
   * secretAccessKey}.
   */
  static final List<String> AWS_SECRET_SUFFIXES =
      List.of("secret_access_key", "secretaccesskey", "secret-access-key");

  /** The longest key read; a longer token is not a key. */
  static final int MAX_KEY = 64;

  /** The most backslashes read before a quote that counts as an escaped quote. */
  private static final int MAX_ESCAPES = 8;

  private final String kind;
  private final List<String> suffixes;
  private final String[] triggers;

  private KeyValueSecrets(String kind, List<String> suffixes, String... triggers) {
    this.kind = kind;
    this.suffixes = suffixes;
    this.triggers = triggers;
  }

  /** Values of keys ending with {@link #SECRET_SUFFIXES}, kind {@code secret}. */
  static KeyValueSecrets generic() {
    // one of these literals occurs in every suffix
    return new KeyValueSecrets("secret", SECRET_SUFFIXES, "pass", "pwd", "secret", "token", "key");
  }

  /** Values of keys ending with {@link #AWS_SECRET_SUFFIXES}, kind {@code aws-secret-key}. */
  static KeyValueSecrets awsSecretAccessKeys() {
    return new KeyValueSecrets("aws-secret-key", AWS_SECRET_SUFFIXES, "secret");
  }

  @Override
  public String kind() {
    return kind;
  }

  @Override
  public void find(Subject subject, Edits edits) {
    String text = subject.text();
    String folded = subject.folded();
    Triggers candidates = new Triggers(folded, triggers);
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
          || !endsWithSecretWord(folded, keyStart, keyEnd, suffixes)) {
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
    int keyQuote = quoteAt(text, i);
    if (keyQuote >= 0) {
      i = keyQuote + 1; // the key's closing quote
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
    int open = quoteAt(text, i);
    if (open >= 0) {
      boolean escaped = open > i;
      int start = open + 1;
      int close = closingQuote(text, start, text.charAt(open), escaped);
      if (close >= 0) {
        int end = close;
        // an escaped closing quote's backslashes are not part of the value
        while (escaped && end > start && text.charAt(end - 1) == '\\') {
          end--;
        }
        if (end > start && !Rule.isMarkerAt(text, start)) {
          edits.add(start, end);
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

  /**
   * The index of the quote at {@code i}, or after at most {@link #MAX_ESCAPES} backslashes from
   * {@code i} (an escaped quote, as in JSON nested in a JSON string); or -1.
   */
  private static int quoteAt(String text, int i) {
    int q = i;
    while (q < text.length() && q - i < MAX_ESCAPES && text.charAt(q) == '\\') {
      q++;
    }
    if (q < text.length() && (text.charAt(q) == '"' || text.charAt(q) == '\'')) {
      return q;
    }
    return -1;
  }

  /**
   * The index of the quote closing a string that starts at {@code i}, or -1 if the line ends. In a
   * string opened by an escaped quote, a backslash escapes nothing: the string's own closing quote
   * is escaped too.
   */
  private static int closingQuote(String text, int i, char quote, boolean escaped) {
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == quote) {
        return i;
      }
      if (c == '\n' || c == '\r') {
        return -1;
      }
      i += c == '\\' && !escaped ? 2 : 1;
    }
    return -1;
  }

  private static int skipBlanks(String text, int i) {
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static boolean endsWithSecretWord(
      String folded, int start, int end, List<String> suffixes) {
    for (String suffix : suffixes) {
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
