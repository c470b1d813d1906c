package dev.memhook.core.internal.compress;

import dev.memhook.api.MemoryDraft;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One pass over text collecting what compression tags an observation with: file paths, class-like
 * {@code CamelCase} identifiers and error class names ({@code IllegalStateException}, {@code
 * TypeError}).
 *
 * <h2>Design note</h2>
 *
 * Tool output can be megabytes, and this runs for every captured event, so there is no regular
 * expression here: a hand-written loop reads each character of the scanned window once, splitting
 * it into path-like tokens (letters, digits and {@code _ . / \ - ~ : $ +}), and each token is then
 * looked at in time proportional to its length. The caller passes a window ({@link #scan}): only
 * that many leading characters are read, so a 5 MB output costs what its first window costs, and a
 * path that appears only after the window is not found. A path is a token whose last segment has an
 * extension; without a directory, the extension must be a known one, so {@code e.g.}, {@code v1.2}
 * and {@code java.lang.String} are not taken for files. Each set is bounded, so memory is bounded
 * too.
 *
 * <p>Not thread-safe: one instance per compression.
 */
final class TokenScan {

  /** File extensions by language or format, as concept tags. */
  static final Map<String, String> LANGUAGES =
      Map.ofEntries(
          Map.entry("java", "java"),
          Map.entry("kt", "kotlin"),
          Map.entry("kts", "kotlin"),
          Map.entry("scala", "scala"),
          Map.entry("groovy", "groovy"),
          Map.entry("py", "python"),
          Map.entry("js", "javascript"),
          Map.entry("mjs", "javascript"),
          Map.entry("jsx", "react"),
          Map.entry("ts", "typescript"),
          Map.entry("tsx", "react"),
          Map.entry("go", "go"),
          Map.entry("rs", "rust"),
          Map.entry("c", "c"),
          Map.entry("h", "c"),
          Map.entry("cpp", "cpp"),
          Map.entry("cc", "cpp"),
          Map.entry("hpp", "cpp"),
          Map.entry("cs", "csharp"),
          Map.entry("rb", "ruby"),
          Map.entry("php", "php"),
          Map.entry("swift", "swift"),
          Map.entry("sh", "shell"),
          Map.entry("bash", "shell"),
          Map.entry("sql", "sql"),
          Map.entry("html", "html"),
          Map.entry("css", "css"),
          Map.entry("scss", "css"),
          Map.entry("vue", "vue"),
          Map.entry("md", "markdown"),
          Map.entry("json", "json"),
          Map.entry("yaml", "yaml"),
          Map.entry("yml", "yaml"),
          Map.entry("toml", "toml"),
          Map.entry("xml", "xml"),
          Map.entry("gradle", "gradle"),
          Map.entry("tf", "terraform"),
          Map.entry("proto", "protobuf"));

  /** Extensions taken for files without a directory, beyond {@link #LANGUAGES}. */
  private static final Set<String> OTHER_EXTENSIONS =
      Set.of(
          "txt",
          "properties",
          "lock",
          "cfg",
          "ini",
          "conf",
          "csv",
          "log",
          "bat",
          "ps1",
          "env",
          "mod",
          "sum",
          "ipynb",
          "rst",
          "adoc",
          "svg",
          "png",
          "jar",
          "gitignore");

  /** Names without an extension that are files all the same. */
  private static final Set<String> NAMED_FILES =
      Set.of(
          "Makefile",
          "Dockerfile",
          "Jenkinsfile",
          "Gemfile",
          "Rakefile",
          "Procfile",
          ".env",
          ".envrc",
          ".gitignore",
          ".gitattributes",
          ".dockerignore",
          ".editorconfig",
          ".nvmrc",
          ".npmrc",
          ".prettierrc",
          ".eslintrc",
          ".babelrc",
          ".clang-format",
          ".clang-tidy",
          ".tool-versions",
          ".python-version",
          ".ruby-version",
          ".node-version",
          ".bashrc",
          ".zshrc");

  /** Library names shaped like file names. */
  private static final Set<String> NOT_FILES =
      Set.of("node.js", "vue.js", "next.js", "nuxt.js", "express.js", "react.js", "three.js");

  private static final int MAX_IDENTIFIERS = 64;
  private static final int MAX_IDENTIFIER = 60;

  final Set<String> files = new LinkedHashSet<>();
  final Set<String> identifiers = new LinkedHashSet<>();
  final Set<String> errorClasses = new LinkedHashSet<>();

  /** Scans the first {@code window} characters of {@code text} (null is nothing). */
  TokenScan scan(String text, int window) {
    if (text == null) {
      return this;
    }
    int n = Math.min(text.length(), window);
    int start = -1;
    for (int i = 0; i <= n; i++) {
      boolean part = i < n && isTokenChar(text.charAt(i));
      if (part && start < 0) {
        start = i;
      } else if (!part && start >= 0) {
        token(text, start, i);
        start = -1;
      }
    }
    return this;
  }

  private static boolean isTokenChar(char c) {
    return (c < 128 && (Character.isLetterOrDigit(c) || "_./\\-~:$+".indexOf(c) >= 0))
        || (c >= 128 && Character.isLetterOrDigit(c));
  }

  private void token(String text, int start, int end) {
    if (end - start > MemoryDraft.MAX_FILE) {
      return; // longer than any path kept, and no identifier is that long
    }
    String token = trim(text.substring(start, end));
    if (token.isEmpty()) {
      return;
    }
    if (files.size() < MemoryDraft.MAX_FILES) {
      String file = null;
      if (end - start > 1
          && text.charAt(start) == '.'
          && Character.isLetter(text.charAt(start + 1))
          && text.startsWith(token, start + 1)) {
        file = asFile("." + token); // ".clang-tidy", ".eslintrc.json", ".github/workflows/ci.yml"
      }
      if (file == null) {
        file = asFile(token);
      }
      if (file != null) {
        files.add(file);
      }
    }
    if (identifiers.size() < MAX_IDENTIFIERS || errorClasses.size() < MAX_IDENTIFIERS) {
      words(token);
    }
  }

  /** Leading and trailing punctuation off; a trailing {@code :12:5} line reference off. */
  private static String trim(String token) {
    int s = 0;
    int e = token.length();
    while (s < e && ".:-+$".indexOf(token.charAt(s)) >= 0) {
      s++;
    }
    boolean changed = true;
    while (changed && e > s) {
      changed = false;
      while (e > s && ".,:-+~".indexOf(token.charAt(e - 1)) >= 0) {
        e--;
        changed = true;
      }
      int digits = e;
      while (digits > s && Character.isDigit(token.charAt(digits - 1))) {
        digits--;
      }
      if (digits < e && digits > s && token.charAt(digits - 1) == ':') {
        e = digits - 1;
        changed = true;
      }
    }
    return token.substring(s, e);
  }

  /** The token as a path with {@code /} separators, or null if it does not look like a file. */
  static String asFile(String token) {
    if (token.contains("://") || token.startsWith("-")) {
      return null;
    }
    String path = token.replace('\\', '/');
    if (path.startsWith("./") && path.length() > 2) {
      path = path.substring(2);
    }
    int slash = path.lastIndexOf('/');
    String name = path.substring(slash + 1);
    if (name.isEmpty()) {
      return null; // a directory
    }
    if (NAMED_FILES.contains(name) || name.startsWith(".env.") && name.length() > 5) {
      return path; // "Makefile", ".clang-tidy", ".env.local"
    }
    int dot = name.lastIndexOf('.');
    if (dot < 0 || dot == name.length() - 1) {
      return null;
    }
    String ext = name.substring(dot + 1);
    if (ext.length() > 10 || !lowerAlnumWithLetter(ext)) {
      return null;
    }
    if (slash < 0) {
      boolean known = LANGUAGES.containsKey(ext) || OTHER_EXTENSIONS.contains(ext);
      if (!known || NOT_FILES.contains(name.toLowerCase(Locale.ROOT)) || !hasLetter(name, dot)) {
        return null;
      }
    }
    return path;
  }

  private static boolean lowerAlnumWithLetter(String s) {
    boolean letter = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 'a' && c <= 'z') {
        letter = true;
      } else if (c < '0' || c > '9') {
        return false;
      }
    }
    return letter;
  }

  private static boolean hasLetter(String s, int end) {
    for (int i = 0; i < end; i++) {
      if (Character.isLetter(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  /** The dotted, slashed or dashed pieces of a token that look like class or error names. */
  private void words(String token) {
    int start = 0;
    for (int i = 0; i <= token.length(); i++) {
      if (i == token.length() || "./\\:$-+~".indexOf(token.charAt(i)) >= 0) {
        if (i - start >= 3 && i - start <= MAX_IDENTIFIER) {
          word(token.substring(start, i));
        }
        start = i + 1;
      }
    }
  }

  private void word(String w) {
    if (!Character.isUpperCase(w.charAt(0))) {
      return;
    }
    boolean lower = false;
    boolean camel = false;
    for (int i = 1; i < w.length(); i++) {
      char c = w.charAt(i);
      if (Character.isLowerCase(c)) {
        lower = true;
      } else if (Character.isUpperCase(c) && Character.isLowerCase(w.charAt(i - 1))) {
        camel = true;
      } else if (!Character.isLetterOrDigit(c) && c != '_') {
        return;
      }
    }
    if (!lower) {
      return;
    }
    boolean error =
        (w.endsWith("Exception") && w.length() > 9) || (w.endsWith("Error") && w.length() > 5);
    if (error && errorClasses.size() < MAX_IDENTIFIERS) {
      errorClasses.add(w);
    } else if (camel && !error && identifiers.size() < MAX_IDENTIFIERS) {
      identifiers.add(w);
    }
  }

  /** The language or format tag of {@code file}'s extension, or null. */
  static String language(String file) {
    String name = file.substring(file.lastIndexOf('/') + 1);
    if (name.equals("pom.xml")) {
      return "maven";
    }
    if (name.endsWith(".gradle") || name.endsWith(".gradle.kts")) {
      return "gradle";
    }
    if (name.equals("Dockerfile")) {
      return "docker";
    }
    int dot = name.lastIndexOf('.');
    return dot < 0 ? null : LANGUAGES.get(name.substring(dot + 1));
  }
}
