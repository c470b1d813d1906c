package dev.memhook.core.internal.compress;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The versions an environment report names, stated as installed versions: {@code php artisan about}
 * prints "Laravel Version ........ 11.9.2" among forty other lines, and a later session asks "what
 * exact framework version are we on?". A report is a single command whose last word asks for one
 * ({@code php artisan about}, {@code bin/rails about}, {@code dotnet --info}, {@code docker info})
 * or a program's own report ({@code flutter doctor -v}, {@code rustup show}). A line that names a
 * thing and its version, after any bullet or check mark, is kept as it says it ("• Dart version
 * 3.4.3" is Dart 3.4.3, "[✓] Xcode - develop for iOS and macOS (Xcode 15.4)" is Xcode 15.4; the
 * active toolchain's "rustc 1.79.0 (…)" is rustc 1.79.0); of the other lines, those of a key and a
 * value (after a dotted leader, a colon or a run of spaces) whose key says "version" and whose
 * value names one are kept, named by the rest of the key ("Laravel Version" is Laravel) or, for a
 * bare "Version", by the section the line stands in ("Horizon ......" then "Version ..... 5.24.5"
 * is Horizon; ".NET SDK:" then " Version: 8.0.303"): "Installed versions (php artisan about):
 * Laravel 11.9.2, PHP 8.3.7, Horizon 5.24.5."
 *
 * <p>At most {@value #MAX_VERSIONS} versions are stated and {@value #MAX_CHARS} characters of
 * output scanned; a line the sanitizer touched is left out. Stateless and thread-safe.
 */
final class EnvironmentReports {

  /** The most versions stated. */
  static final int MAX_VERSIONS = 12;

  private static final int MAX_CHARS = 12_000;

  /** The last words of a command that asks for an environment report. */
  private static final Set<String> REPORTS = Set.of("about", "--info", "info");

  /**
   * Reports named by their program and command, with any flags after them: {@code flutter doctor
   * -v} ("• Dart version 3.4.3"), {@code rustup show} (the active toolchain's "rustc 1.79.0 (…)").
   */
  private static final Set<String> PROGRAM_REPORTS = Set.of("flutter doctor", "rustup show");

  /** What marks a report's item: a bullet, a check mark in brackets. */
  private static final Pattern ITEM_MARK = Pattern.compile("^(?:[•*-]|\\[[^\\]]{1,2}\\])\\s+");

  /** "Dart version 3.4.3", "Flutter version 3.22.2 on channel stable": a name, then "version". */
  private static final Pattern NAME_VERSION =
      Pattern.compile("^([A-Za-z][\\w.+-]{0,30}(?: [A-Za-z][\\w.+-]{0,30}){0,2}) version\\s+(.+)$");

  /**
   * An item that gives its version in brackets at its end: "Xcode - develop for iOS and macOS
   * (Xcode 15.4)", "Android Studio (version 2023.3)"; named by the bracket's words, else by the
   * item.
   */
  private static final Pattern BRACKETED_VERSION =
      Pattern.compile(
          "^([A-Za-z][^()]{0,60}?)\\s*(?:-[^()]*)?\\((?:([A-Za-z][\\w .+-]{0,40}?)\\s+)??"
              + "(?:version\\s+)?v?(\\d{1,6}(?:\\.\\d{1,6}){1,3})\\)$");

  /** "rustc 1.79.0 (129f3b996 2024-06-10)": a program in lower case and its version. */
  private static final Pattern PROGRAM_VERSION =
      Pattern.compile("^([a-z][\\w-]{1,30}) (v?\\d{1,6}\\.\\d{1,6}\\.\\d{1,6}\\b.*)$");

  /** A key, a dotted leader, a colon or two spaces, and a value (maybe none). */
  private static final Pattern KEY_VALUE =
      Pattern.compile(
          "^([A-Za-z.][\\w .+#/()-]{0,60}?)\\s*(?:\\s\\.{2,}|:|\\s{2,})\\s*(.{0,200})$");

  /** A version number: two parts at least, an optional pre-release. */
  private static final Pattern VERSION =
      Pattern.compile(
          "(?<![\\w.])v?(\\d{1,6}(?:\\.\\d{1,6}){1,3}(?:-[0-9A-Za-z.]{1,20})?)(?![\\w])");

  private static final Pattern VERSION_WORD = Pattern.compile("(?i)\\bversion\\b");

  private EnvironmentReports() {}

  /**
   * "Name version" of an item that names a thing and its version ({@link #BRACKETED_VERSION},
   * {@link #NAME_VERSION}, {@link #PROGRAM_VERSION}), or null.
   */
  private static String itemVersion(String item) {
    Matcher bracketed = BRACKETED_VERSION.matcher(item);
    if (bracketed.matches()) {
      String name = bracketed.group(2) != null ? bracketed.group(2) : bracketed.group(1);
      return name.strip() + " " + bracketed.group(3);
    }
    for (Pattern p : List.of(NAME_VERSION, PROGRAM_VERSION)) {
      Matcher named = p.matcher(item);
      if (named.matches()) {
        Matcher version = VERSION.matcher(TextCuts.head(named.group(2), 60));
        if (version.lookingAt()) {
          return named.group(1) + " " + version.group(1);
        }
      }
    }
    return null;
  }

  /** The versions {@code command}'s report named in {@code output}, if it is a report. */
  static Optional<ProjectSettings.Found> of(String command, String output) {
    String[] words = command.strip().split("\\s+");
    int named = words.length;
    while (named > 2 && words[named - 1].startsWith("-")) {
      named--; // flutter doctor -v
    }
    String program = words[0].substring(words[0].lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
    if (command.length() > 120
        || words.length < 2
        || words.length > 4
        || !(REPORTS.contains(words[words.length - 1])
            || PROGRAM_REPORTS.contains(program + " " + words[named - 1]))
        || !ToolFamily.singleCommand(command)
        || ToolFamily.of("Bash", command) == ToolFamily.READ) { // "cat about" prints a file
      return Optional.empty();
    }
    List<String> said = new ArrayList<>();
    String section = "";
    for (String line : TextCuts.head(output, MAX_CHARS).lines().toList()) {
      String t = ITEM_MARK.matcher(line.strip()).replaceFirst("");
      if (t.isEmpty() || ProjectSettings.redacted(t)) {
        continue;
      }
      String stated = itemVersion(t);
      if (stated == null) {
        Matcher m = KEY_VALUE.matcher(t);
        if (!m.matches()) {
          continue;
        }
        String key = m.group(1).strip();
        String value = m.group(2).strip();
        if (value.isEmpty() || value.chars().allMatch(c -> c == '.')) {
          section = key; // "Horizon ......", ".NET SDK:": the lines below are its
          continue;
        }
        Matcher version = VERSION.matcher(TextCuts.head(value, 60));
        if (!VERSION_WORD.matcher(key).find() || !version.find()) {
          continue;
        }
        String rest = VERSION_WORD.matcher(key).replaceAll("").replaceAll("\\s+", " ").strip();
        String subject = rest.isEmpty() ? section : rest;
        stated = subject.isEmpty() ? null : subject + " " + version.group(1);
      }
      if (stated != null && !said.contains(stated)) {
        said.add(stated);
      }
      if (said.size() == MAX_VERSIONS) {
        break;
      }
    }
    if (said.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new ProjectSettings.Found(
            "the installed versions, " + command.strip(),
            "Installed versions (" + command.strip() + "): " + String.join(", ", said) + ".",
            List.of(program),
            ""));
  }
}
