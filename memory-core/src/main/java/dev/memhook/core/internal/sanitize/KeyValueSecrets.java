package dev.memhook.core.internal.sanitize;

import java.util.List;
import java.util.Locale;

/**
 * Redacts the value of a secret-named key in configuration, environment, JSON and YAML shapes:
 * {@code password=x}, {@code DB_PASSWORD: x}, {@code "api_key": "x"}, {@code 'token' => 'x'},
 * {@code apiKey: x}. The key is one token of letters, digits, {@code _ . -} whose name (in any
 * case) ends with one of the rule's secret words, followed by {@code = : => :=}; the value is the
 * quoted string (the quotes are kept, so JSON stays JSON; a quote escaped with backslashes, as in
 * JSON nested in a JSON string, counts as a quote) or the token up to white space, {@code ,} or
 * {@code ;}, and after a quoted key also up to a closing brace or bracket ({@code {"pin": 1234}}).
 * The value is on the key's line, or, when the line ends after the separator, on the next one
 * ({@code "password":⏎ "x"}, YAML's {@code password:⏎ x}) unless that line is a key of its own, a
 * structure, a list item or a comment ({@code password:⏎ min_length: 12}). A key followed by
 * anything else ({@code password policy: 12 chars}, {@code password_policy: strict}) is left alone.
 *
 * <p>Two instances run: {@link #awsSecretAccessKeys()} first, so an AWS secret access key gets its
 * own kind, then {@link #generic()} for every other secret word.
 *
 * <p>Keys are found by a literal scan for their secret word, and read at most {@link #MAX_KEY}
 * characters either way; a quoted value is read to its closing quote or the end of its line, and
 * the opening quote of any later value on the line closes it; only a key that ends its line looks
 * at the next line, reading its indentation and at most one key there. So each character is read a
 * bounded number of times. Immutable and thread-safe.
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

  private static final String GENERIC_KIND = "secret";
  private static final String AWS_KIND = "aws-secret-key";

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
    return new KeyValueSecrets(
        GENERIC_KIND, SECRET_SUFFIXES, "pass", "pwd", "secret", "token", "key");
  }

  /** Values of keys ending with {@link #AWS_SECRET_SUFFIXES}, kind {@code aws-secret-key}. */
  static KeyValueSecrets awsSecretAccessKeys() {
    return new KeyValueSecrets(AWS_KIND, AWS_SECRET_SUFFIXES, "secret");
  }

  @Override
  public String kind() {
    return kind;
  }

  /**
   * The kind of secret a structure's key names, as this rule reads a key in text: the last token of
   * key characters in {@code key}, at most {@link #MAX_KEY} long, ending with an AWS secret word
   * ({@code aws-secret-key}) or another secret word ({@code secret}); or null. For a value held
   * apart from its key (a memory's attribute), where no {@code key=value} text exists for the rule
   * to find.
   */
  static String kindOfKey(String key) {
    int end = key.length();
    while (end > 0 && !isKeyChar(key.charAt(end - 1))) {
      end--;
    }
    int start = end;
    while (start > 0 && isKeyChar(key.charAt(start - 1))) {
      start--;
    }
    if (start == end || end - start > MAX_KEY) {
      return null;
    }
    String folded = key.substring(start, end).toLowerCase(Locale.ROOT);
    if (endsWithSecretWord(folded, 0, folded.length(), AWS_SECRET_SUFFIXES)) {
      return AWS_KIND;
    }
    return endsWithSecretWord(folded, 0, folded.length(), SECRET_SUFFIXES) ? GENERIC_KIND : null;
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
    boolean quotedKey = keyQuote >= 0;
    if (quotedKey) {
      i = keyQuote + 1; // the key's closing quote
    }
    i = skipBlanks(text, i);
    int separator = separatorLength(text, i);
    if (separator == 0) {
      return -1;
    }
    i = skipBlanks(text, i + separator);
    if (i < n && isLineBreak(text.charAt(i))) {
      i = valueOnNextLine(text, i, quotedKey);
    }
    if (i < 0 || i >= n) {
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
    while (end < n && !endsUnquotedValue(text.charAt(end), quotedKey)) {
      end++;
    }
    if (end > i && !Rule.isMarkerAt(text, i)) {
      edits.add(i, end);
    }
    return end > i ? end : -1;
  }

  /** The length of the separator {@code = : => :=} at {@code i}, or 0. */
  private static int separatorLength(String text, int i) {
    if (text.startsWith("=>", i) || text.startsWith(":=", i)) {
      return 2;
    }
    return i < text.length() && (text.charAt(i) == '=' || text.charAt(i) == ':') ? 1 : 0;
  }

  /**
   * Where the value starts on the line after the line break at {@code i}, or -1 if that line holds
   * no value. JSON may put a value on the next line at any indentation and YAML indents it, so one
   * line break and the indentation are skipped (at least one blank after an unquoted key, or a
   * line of an {@code .env} file that leaves a value empty would read the next line as its value).
   * A line that is a key of its own ({@code min_length: 12}, {@code "user": …}, {@code user =
   * bob}: a nested map or the next entry), a structure ({@code { [}, a list item {@code - }), a
   * comment or another line break is not a value. Reads at most the indentation and one key.
   */
  private static int valueOnNextLine(String text, int i, boolean quotedKey) {
    int n = text.length();
    i += text.startsWith("\r\n", i) ? 2 : 1;
    int start = skipBlanks(text, i);
    if (start >= n || start == i && !quotedKey) {
      return -1;
    }
    char c = text.charAt(start);
    if (isLineBreak(c) || c == '{' || c == '[' || c == '#') {
      return -1;
    }
    if (c == '-' && (start + 1 == n || Character.isWhitespace(text.charAt(start + 1)))) {
      return -1;
    }
    return isKeyAt(text, start) ? -1 : start;
  }

  /**
   * Whether a key and its separator start at {@code i}: a token of key characters, quoted or not,
   * then {@code :} before white space or the end, or {@code = => :=} (not {@code ==}, which ends a
   * base64 value). Reads at most {@link #MAX_KEY} characters and the separator.
   */
  private static boolean isKeyAt(String text, int i) {
    int n = text.length();
    int quote = quoteAt(text, i);
    int end = quote >= 0 ? quote + 1 : i;
    int keyStart = end;
    while (end < n && end - keyStart <= MAX_KEY && isKeyChar(text.charAt(end))) {
      end++;
    }
    if (end == keyStart || end - keyStart > MAX_KEY) {
      return false;
    }
    if (quote >= 0) {
      int close = quoteAt(text, end);
      if (close < 0 || text.charAt(close) != text.charAt(quote)) {
        return false;
      }
      end = close + 1;
    }
    end = skipBlanks(text, end);
    int separator = separatorLength(text, end);
    if (separator == 0) {
      return false;
    }
    int after = end + separator;
    if (separator == 1 && text.charAt(end) == ':') {
      return after == n || Character.isWhitespace(text.charAt(after));
    }
    return after == n || text.charAt(after) != '=';
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

  /**
   * Whether {@code c} ends a value without quotes: white space, {@code ,} and {@code ;}, and after
   * a quoted key, as in JSON, the brace or bracket that closes the structure.
   */
  private static boolean endsUnquotedValue(char c, boolean quotedKey) {
    return Character.isWhitespace(c) || c == ',' || c == ';' || quotedKey && (c == '}' || c == ']');
  }

  private static boolean isLineBreak(char c) {
    return c == '\n' || c == '\r';
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
