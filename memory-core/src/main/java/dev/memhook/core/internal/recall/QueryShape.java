package dev.memhook.core.internal.recall;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether a query looks like an exact reference, the question fusion asks before it weighs the
 * vector signal (see {@link dev.memhook.api.FusionMethod}). A query is <em>exact</em> when one of
 * its whitespace-separated words is one of:
 *
 * <ul>
 *   <li>an identifier with an inner capital or an underscore ({@code AuthMiddleware}, {@code
 *       user_id}, {@code ERR_CONN_RESET}), or a dotted name of three parts or more ({@code
 *       com.acme.shop}, {@code charge.dispute.created});
 *   <li>a path ({@code src/main}, {@code ./run.sh}: a slash and a dot, a second slash or a leading
 *       slash, tilde or dot; {@code and/or} is not one) or a file name with a source, build or
 *       config extension ({@code Makefile} is not: no extension);
 *   <li>a hexadecimal run of 7 to 40 characters holding a digit (a commit SHA, not {@code
 *       defaced});
 *   <li>an error code: capitals, an optional dash, at least two digits ({@code E017}, {@code
 *       SHIP-E009}, {@code ORA-00942});
 *   <li>a command-line flag ({@code --env}, {@code -v}), a call ({@code authorize()}) or anything
 *       in backquotes;
 *   <li>a word of 40 characters or more (a URL, a token, a hash).
 * </ul>
 *
 * Natural-language questions, however technical their topic, are not exact. Neither is an
 * abbreviation in brackets right after the words it abbreviates, letter for initial ("the Museum of
 * Modern Art (MoMA)", "a Peer-to-Peer (PtP) network"): it names what the words before it name,
 * whatever its capitals. Each word is tested alone but for that look back at the initials of the
 * words before it, which is bounded, so the cost is linear in the query's length. Stateless and
 * thread-safe.
 */
final class QueryShape {

  /** Words at least this long are exact whatever they hold. */
  static final int LONG_WORD = 40;

  /**
   * The longest abbreviation in brackets read as the words before it: letters, not counting them.
   */
  static final int MAX_ABBREVIATION = 10;

  /** Stands for a word part that starts with no letter: no letter of an abbreviation equals it. */
  private static final char NOT_AN_INITIAL = '\0';

  private static final Pattern INNER_CAPITAL = Pattern.compile("[a-z][A-Z]");
  private static final Pattern SNAKE = Pattern.compile("[A-Za-z0-9]_[A-Za-z0-9]");
  private static final Pattern DOTTED = Pattern.compile("[A-Za-z_]\\w*(\\.[A-Za-z_]\\w*){2,}");
  private static final Pattern SHA = Pattern.compile("[0-9a-f]{7,40}");
  private static final Pattern ERROR_CODE = Pattern.compile("[A-Z]+-?[A-Z]*[0-9]{2,}");
  private static final Pattern FLAG = Pattern.compile("--?[A-Za-z][\\w-]*");
  private static final Pattern FILE_NAME = Pattern.compile("[\\w.-]*\\w\\.([A-Za-z0-9]{1,10})");

  /** Extensions that make a dotted word a file name rather than the end of a sentence. */
  private static final Set<String> EXTENSIONS =
      Set.of(
          "java",
          "kt",
          "kts",
          "scala",
          "groovy",
          "gradle",
          "go",
          "rs",
          "py",
          "rb",
          "php",
          "js",
          "mjs",
          "ts",
          "tsx",
          "jsx",
          "c",
          "h",
          "cc",
          "cpp",
          "hpp",
          "cs",
          "swift",
          "m",
          "sql",
          "sh",
          "bash",
          "zsh",
          "ps1",
          "yml",
          "yaml",
          "json",
          "jsonl",
          "xml",
          "toml",
          "ini",
          "cfg",
          "conf",
          "properties",
          "env",
          "lock",
          "md",
          "txt",
          "csv",
          "html",
          "css",
          "scss",
          "proto",
          "tf",
          "dockerfile",
          "mod",
          "sum",
          "log",
          "pem",
          "jar",
          "war",
          "zip",
          "gz",
          "tgz");

  /** Trimmed off each word's ends before the tests: sentence punctuation and brackets. */
  private static final String EDGE_PUNCTUATION = "?!,;:\"'()[]{}<>«»“”‘’";

  private QueryShape() {}

  /** Whether {@code query} holds a word shaped like an exact reference (see the class comment). */
  static boolean exact(String query) {
    int n = query.length();
    int i = 0;
    // the initials of the words read so far, the last MAX_ABBREVIATION of them
    StringBuilder initials = new StringBuilder(MAX_ABBREVIATION + 4);
    while (i < n) {
      while (i < n && Character.isWhitespace(query.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < n && !Character.isWhitespace(query.charAt(i))) {
        i++;
      }
      if (i > start) {
        if (!abbreviates(query, start, i, initials) && exactWord(query, start, i)) {
          return true;
        }
        addInitials(query, start, i, initials);
      }
    }
    return false;
  }

  /**
   * Whether the word from {@code start} to {@code end} is an abbreviation in brackets, of 2 to
   * {@link #MAX_ABBREVIATION} letters, whose letters are the {@code initials} of the words just
   * before it, in order, whatever their case.
   */
  private static boolean abbreviates(String query, int start, int end, CharSequence initials) {
    while (end > start && ".,;:?!".indexOf(query.charAt(end - 1)) >= 0) {
      end--;
    }
    int letters = end - start - 2;
    if (letters < 2
        || letters > MAX_ABBREVIATION
        || letters > initials.length()
        || query.charAt(start) != '('
        || query.charAt(end - 1) != ')') {
      return false;
    }
    int from = initials.length() - letters;
    for (int k = 0; k < letters; k++) {
      char c = query.charAt(start + 1 + k);
      if (!Character.isLetter(c)
          || Character.toLowerCase(c) != Character.toLowerCase(initials.charAt(from + k))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Appends the initials of the word from {@code start} to {@code end}, one per hyphenated part
   * ({@code Server-Sent}: S, S), a part that does not start with a letter as a character no letter
   * equals, and keeps the last {@link #MAX_ABBREVIATION}.
   */
  private static void addInitials(String query, int start, int end, StringBuilder initials) {
    while (start < end && EDGE_PUNCTUATION.indexOf(query.charAt(start)) >= 0) {
      start++;
    }
    boolean partStart = true;
    for (int k = start; k < end; k++) {
      char c = query.charAt(k);
      if (c == '-') {
        partStart = true;
      } else if (partStart) {
        initials.append(Character.isLetter(c) ? c : NOT_AN_INITIAL);
        if (initials.length() > MAX_ABBREVIATION) {
          initials.deleteCharAt(0);
        }
        partStart = false;
      }
    }
  }

  private static boolean exactWord(String query, int start, int end) {
    String raw = query.substring(start, end);
    if (end - start >= LONG_WORD || raw.indexOf('`') >= 0 || raw.contains("()")) {
      return true;
    }
    while (start < end && EDGE_PUNCTUATION.indexOf(query.charAt(start)) >= 0) {
      start++;
    }
    while (end > start && EDGE_PUNCTUATION.indexOf(query.charAt(end - 1)) >= 0) {
      end--;
    }
    if (end > start && query.charAt(end - 1) == '.') {
      end--; // a full stop, unless the word is a path or file name without it anyway
    }
    if (end - start < 2) {
      return false;
    }
    String w = query.substring(start, end);
    return path(w)
        || INNER_CAPITAL.matcher(w).find()
        || SNAKE.matcher(w).find()
        || DOTTED.matcher(w).matches()
        || fileName(w)
        || (SHA.matcher(w).matches() && w.chars().anyMatch(Character::isDigit))
        || ERROR_CODE.matcher(w).matches()
        || FLAG.matcher(w).matches();
  }

  private static boolean path(String w) {
    int slash = w.indexOf('/');
    if (slash < 0) {
      return false;
    }
    char first = w.charAt(0);
    return first == '/'
        || first == '~'
        || first == '.'
        || w.indexOf('/', slash + 1) >= 0
        || w.indexOf('.') >= 0;
  }

  private static boolean fileName(String w) {
    var m = FILE_NAME.matcher(w);
    return m.matches() && EXTENSIONS.contains(m.group(1).toLowerCase(Locale.ROOT));
  }
}
