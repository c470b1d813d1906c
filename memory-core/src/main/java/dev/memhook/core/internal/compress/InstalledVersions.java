package dev.memhook.core.internal.compress;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a command that asks a program for its version printed, stated as the installed version: "The
 * installed Terraform is version 1.7.5 (terraform version: Terraform v1.7.5; + provider
 * registry.terraform.io/hashicorp/aws v5.46.0)." A later session asks "which terraform do I have?"
 * in words the raw run does not share. Three shapes of command are read:
 *
 * <ul>
 *   <li><b>The ask on its own</b> ({@code terraform version}, {@code node -v}, {@code python3
 *       --version}, {@code java -version 2>&1}, also after {@code cd dir &&}): up to {@value
 *       #MAX_VERSION_LINES} lines of its output that name a version are quoted, the first naming
 *       the version stated. A version printed on standard error ({@code java -version}) is read
 *       there.
 *   <li><b>A chain that starts with the ask</b> ({@code go version && head -12 go.mod}): only the
 *       ask's own answer is read, its first line and the lines after it that speak of a version or
 *       build, since what follows is the next command's.
 *   <li><b>A chain that ends with the ask</b> ({@code rustup override unset && rustc --version}):
 *       only the output's last line, when it names the program or is a bare version.
 * </ul>
 *
 * {@code -v} is "verbose" to many programs ({@code ls -v}), so it counts as a version ask only when
 * the answer is one short line naming a version. A line the sanitizer touched is not quoted; at
 * most {@value #MAX_OUTPUT} characters of output are scanned.
 *
 * <p>Stateless and thread-safe.
 */
final class InstalledVersions {

  /** The most characters of a version command's output scanned. */
  private static final int MAX_OUTPUT = 4_000;

  /** The most lines of a version command's output quoted: the tool's own, then its plugins'. */
  static final int MAX_VERSION_LINES = 4;

  /** The flags or subcommands that make a command ask a program for its version and no more. */
  private static final Set<String> VERSION_ASKS =
      Set.of("--version", "-version", "-v", "-V", "version", "--Version");

  /** The operators that run one command after another; a pipe or {@code ||} is not one. */
  private static final Pattern CHAIN = Pattern.compile("\\s*(?:&&|;)\\s*");

  /** The longest chained command whose leading version ask is read. */
  private static final int MAX_CHAINED_COMMAND = 400;

  /** A line that goes on with a version answer: it speaks of a version or build. */
  private static final Pattern ANSWER_GOES_ON = Pattern.compile("(?i)\\b(?:version|build)\\b");

  /** A version number: digits and dots (two parts at least), an optional pre-release or build. */
  private static final Pattern VERSION =
      Pattern.compile(
          "(?<![\\d.])v?(\\d{1,6}(?:\\.\\d{1,6}){1,3}(?:[-+][0-9A-Za-z.]{1,20})?)(?![\\d])");

  private InstalledVersions() {}

  /** Whether {@code command} asks a program for its version and nothing else. */
  static boolean asks(String command) {
    return versionAsked(command) != null;
  }

  /**
   * The installed version {@code command} asked for, from what it printed on standard output
   * ({@code output}) or on standard error ({@code stderr}, read only when needed: a lone ask's
   * blank output, a leading ask's output that names no version); empty if the command is no version
   * ask or its answer names no version.
   */
  static Optional<ProjectSettings.Found> of(
      String command, String output, Supplier<String> stderr) {
    String program = versionAsked(command);
    if (program != null) {
      // java -version and a few others print it on standard error
      return version(program, command, output.isBlank() ? stderr.get() : output, false);
    }
    String ask = leadingVersionAsk(command);
    if (ask != null) {
      // "cd envs/prod && terraform version": what the chain printed is the ask's alone
      boolean more = !command.strip().endsWith(ask);
      Optional<ProjectSettings.Found> found = version(versionAsked(ask), ask, output, more);
      return found.isPresent() ? found : version(versionAsked(ask), ask, stderr.get(), more);
    }
    String last = trailingVersionAsk(command);
    return last == null ? Optional.empty() : lastAnswer(versionAsked(last), last, output);
  }

  /**
   * The installed versions a chain that ends with several version asks answered ({@code node -v &&
   * npm -v}, {@code grep URL .env; node -v; pnpm -v}), one for each, in order: each ask answers
   * with one line, so the output's last lines, one per ask, are their answers, each taken only when
   * it names its program or is a bare version. Empty for a chain that ends with fewer than two asks
   * ({@link #of} reads a single one), or when a line does not answer its ask: the asks then printed
   * more than a line each, and which line is whose is not known.
   */
  static List<ProjectSettings.Found> eachOfChain(String command, String output) {
    if (command.length() > MAX_CHAINED_COMMAND) {
      return List.of();
    }
    String[] segments = CHAIN.split(command.strip());
    int first = segments.length;
    while (first > 0 && versionAsked(segments[first - 1]) != null) {
      first--;
    }
    int asks = segments.length - first;
    if (asks < 2) {
      return List.of();
    }
    List<String> lines =
        TextCuts.tail(output, MAX_OUTPUT)
            .lines()
            .map(String::strip)
            .filter(l -> !l.isEmpty())
            .toList();
    if (lines.size() < asks) {
      return List.of();
    }
    List<ProjectSettings.Found> out = new ArrayList<>();
    for (int i = 0; i < asks; i++) {
      String ask = segments[first + i];
      String program = versionAsked(ask);
      String answer = lines.get(lines.size() - asks + i);
      if (!answers(program, answer)) {
        return List.of();
      }
      version(program, ask, answer, false).ifPresent(out::add);
    }
    return out;
  }

  /** Whether {@code line} answers a version ask of {@code program}: it names it, or is bare. */
  private static boolean answers(String program, String line) {
    String first = line.split("\\s+")[0].replaceAll("[^A-Za-z]", "").toLowerCase(Locale.ROOT);
    String named = program.replaceAll("[^A-Za-z]", "").toLowerCase(Locale.ROOT);
    return first.equals(named) || bareVersion(line);
  }

  /**
   * The program {@code command} asks for its version and nothing else ({@code terraform version},
   * {@code node -v}), or null: two words, a program name and a version flag, with at most a
   * redirection of standard error after them ({@code java -version 2>&1}).
   */
  private static String versionAsked(String command) {
    if (command.length() > 200) {
      return null;
    }
    String[] words = ToolFamily.withoutStderrRedirect(command).split("\\s+");
    if (words.length != 2 || !VERSION_ASKS.contains(words[1])) {
      return null;
    }
    String program = words[0].substring(words[0].lastIndexOf('/') + 1);
    return program.matches("[A-Za-z][\\w.+\\-]{0,40}") ? program : null;
  }

  /**
   * The version ask a chain of commands starts with ({@code go version && head -12 go.mod}, {@code
   * java -version 2>&1; ./gradlew dependencies}), or null. {@code cd} before it prints nothing and
   * is passed over, so an ask after {@code cd} alone printed all the output; a pipe or an {@code
   * ||} in the ask makes it something else.
   */
  private static String leadingVersionAsk(String command) {
    if (command.length() > MAX_CHAINED_COMMAND) {
      return null;
    }
    String[] segments = CHAIN.split(command.strip());
    if (segments.length < 2) {
      return null; // a single command is versionAsked's
    }
    for (String segment : segments) {
      if (!segment.startsWith("cd ")) {
        return versionAsked(segment) == null ? null : segment;
      }
    }
    return null;
  }

  /**
   * The version ask a chain of commands ends with ({@code rustup override unset && rustc
   * --version}), or null; {@link #leadingVersionAsk} reads a chain that starts with one.
   */
  private static String trailingVersionAsk(String command) {
    if (command.length() > MAX_CHAINED_COMMAND) {
      return null;
    }
    String[] segments = CHAIN.split(command.strip());
    String last = segments[segments.length - 1];
    return segments.length < 2 || versionAsked(last) == null ? null : last;
  }

  /**
   * What the version ask ending a chain answered: the output's last line, when it names the program
   * ("rustc 1.78.0 (9b00956e5 2024-04-29)") or is a bare version ("v20.11.1"), since the lines
   * before it are the other commands'. A last line of another kind ("+ provider … v5.46.0" after
   * {@code terraform version}) may be the tail of a longer answer, and gives nothing.
   */
  private static Optional<ProjectSettings.Found> lastAnswer(
      String program, String ask, String output) {
    List<String> all = TextCuts.tail(output, MAX_OUTPUT).lines().toList();
    String last = "";
    for (int i = all.size() - 1; i >= 0 && last.isEmpty(); i--) {
      last = all.get(i).strip();
    }
    if (last.isEmpty() || !answers(program, last)) {
      return Optional.empty();
    }
    return version(program, ask, last, false);
  }

  /**
   * What a version command of {@code program} printed: the version of its first line naming one.
   * When the command was the first of a chain ({@code chained}), the output goes on with what the
   * next commands printed, so only the version ask's own answer is read: the first line, which must
   * name a version, and the lines right after it that still speak of a version or build ("Build
   * version 15F31d", "OpenJDK Runtime Environment (build 21.0.3+9)").
   */
  private static Optional<ProjectSettings.Found> version(
      String program, String command, String output, boolean chained) {
    List<String> all = TextCuts.head(output, MAX_OUTPUT).lines().toList();
    if (chained) {
      all = firstAnswer(all);
    }
    String asked = ToolFamily.withoutStderrRedirect(command);
    if (asked.endsWith(" -v") || asked.endsWith(" -V")) {
      // -v is "verbose" to many programs (ls -v, cp -v): only a bare answer of one short line,
      // such as node's "v20.11.1", is read as a version
      List<String> said = all.stream().filter(l -> !l.isBlank()).toList();
      if (said.size() != 1 || !bareVersion(said.get(0).strip())) {
        return Optional.empty();
      }
    }
    List<String> quoted = new ArrayList<>();
    String version = null;
    String name = program;
    for (String line : all) {
      String t = line.strip();
      Matcher m = VERSION.matcher(t);
      boolean names = m.find();
      if (t.isEmpty() || t.length() > 200 || ProjectSettings.redacted(t) || !(names || chained)) {
        continue;
      }
      if (version == null && names) {
        version = m.group(1);
        String first = t.split("\\s+")[0];
        // "Terraform v1.7.5", "Python 3.12.1": the tool's own spelling of its name
        if (first.equalsIgnoreCase(program) || first.equalsIgnoreCase(program + ":")) {
          name = first.endsWith(":") ? first.substring(0, first.length() - 1) : first;
        }
      }
      quoted.add(t);
      if (quoted.size() == MAX_VERSION_LINES) {
        break;
      }
    }
    if (version == null) {
      return Optional.empty();
    }
    return Optional.of(
        new ProjectSettings.Found(
            "the installed " + program + " version",
            "The installed "
                + name
                + " is version "
                + version
                + " ("
                + command.strip()
                + ": "
                + String.join("; ", quoted)
                + ").",
            List.of(program.toLowerCase(Locale.ROOT)),
            ""));
  }

  /**
   * The lines of a chain's output that answer its leading version ask: the first non-blank line if
   * it names a version, and the non-blank lines after it that mention a version or build; empty if
   * the first line names none.
   */
  private static List<String> firstAnswer(List<String> lines) {
    int first = 0;
    while (first < lines.size() && lines.get(first).isBlank()) {
      first++;
    }
    if (first == lines.size() || !VERSION.matcher(lines.get(first)).find()) {
      return List.of();
    }
    List<String> answer = new ArrayList<>(List.of(lines.get(first)));
    for (int i = first + 1;
        i < lines.size()
            && answer.size() < MAX_VERSION_LINES
            && ANSWER_GOES_ON.matcher(lines.get(i)).find();
        i++) {
      answer.add(lines.get(i));
    }
    return answer;
  }

  /**
   * Whether {@code line} is a few words, one of them a whole version ("v20.11.1", "Ruby 3.3.0").
   */
  private static boolean bareVersion(String line) {
    String[] words = line.split("\\s+");
    if (words.length > 3) {
      return false;
    }
    for (String w : words) {
      Matcher m = VERSION.matcher(w.endsWith(",") ? w.substring(0, w.length() - 1) : w);
      if (m.matches()) {
        return true;
      }
    }
    return false;
  }
}
