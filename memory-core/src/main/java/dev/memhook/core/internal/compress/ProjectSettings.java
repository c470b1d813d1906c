package dev.memhook.core.internal.compress;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObservationKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the agent read of the project's own configuration, stated in the words a later question
 * uses. An agent that opens {@code .nvmrc} sees {@code 20.11.1}; a week later the user asks "which
 * node version do we pin?", and neither the raw read nor its file name shares a word with that. So
 * a successful read of a file whose meaning is known is restated:
 *
 * <ul>
 *   <li><b>A version pin</b> ({@code .nvmrc}, {@code .python-version}, {@code .tool-versions} and
 *       the like): "This project pins its Node.js runtime to version 20.11.1 (.nvmrc)."
 *   <li><b>Code owners</b> ({@code CODEOWNERS}): who owns each path, and that owners review and
 *       approve changes there.
 *   <li><b>The repository</b> ({@code git remote -v}, {@code git remote get-url}, {@code git config
 *       --get remote.origin.url}): the remote's URL and the repository it names on its host.
 *   <li><b>The repository a push went to</b>, from {@code git push}'s "To …" line, stated as a
 *       remote listing is.
 *   <li><b>An installed tool's version</b>, from a command that asks for it, on its own or at
 *       either end of a chain ({@code terraform version}, {@code go version && head go.mod}): "The
 *       installed Terraform is version 1.7.5 (terraform version: Terraform v1.7.5; …)"; see {@link
 *       InstalledVersions}.
 *   <li><b>The versions an environment report names</b> ({@code php artisan about}, {@code dotnet
 *       --info}): "Installed versions (php artisan about): Laravel 11.9.2, PHP 8.3.7, …"; see
 *       {@link EnvironmentReports}.
 *   <li><b>A coverage threshold</b> a test run's coverage tool stated, met or not (Jest, nyc,
 *       pytest-cov, JaCoCo; {@link RunSignals}): "The project's tests must reach a coverage
 *       threshold (yarn test --coverage): Jest: "global" coverage threshold for lines (85%) not
 *       met: 82.4%." The threshold is a standing rule of the project even when, and mostly when,
 *       the run missed it; the run's outcome is its observation's and the bug's business.
 *   <li><b>Environment variables</b> looked up by a filter ({@code env | grep ^RELAY_}), as
 *       settings; an unfiltered environment is the machine's, not the project's.
 *   <li><b>What a listing showed</b> of the project's running setup (Docker containers and their
 *       ports, lasting Kubernetes objects, who committed to a path): see {@link Listings}.
 *   <li><b>The installed versions of its packages</b> a package manager listed ({@code pnpm
 *       outdated}, {@code pip list}, {@code npm ls}): see {@link PackageVersions}.
 *   <li><b>Settings</b> of a configuration file ({@code .env.example} and other environment
 *       templates, {@code .properties}, {@code .ini}, {@code .toml}, Gradle build files, Python
 *       settings modules ({@code settings.py}, {@code config.py}: Django's, pydantic's), and JSON,
 *       YAML and JavaScript files whose name or directory says they configure something, such as
 *       {@code package.json}, {@code vite.config.ts}, {@code cdk.json} or {@code
 *       conf/data/kelp.yaml}), and Elixir's {@code config/*.exs}: each scalar setting as its key in
 *       words, the key itself and its value ("base url (baseUrl): /handbook/"), with up to two
 *       enclosing keys, the TOML or INI section, or the module an Elixir {@code config} call
 *       configures. Lock files, data files, a live {@code .env} (its template is read), values the
 *       sanitizer replaced and values of keys that name a secret ({@code DB_PASSWORD}, {@code
 *       api.key}) are left out. Which files these are, and how each format is read, is {@link
 *       ConfigurationFiles}'s.
 *   <li><b>A manifest's dependencies</b> ({@code package.json}, {@code composer.json}), apart from
 *       its settings, as names and versions: see {@link #dependencies}.
 * </ul>
 *
 * A file is read from a file-reading tool's input path (a tool named like {@code Read}; asked for
 * some lines only, an {@code offset}, a {@code limit} or a {@code view_range}, it is titled apart
 * from a read of the whole file, "runtime.exs, the lines from 30", and kept whole) or from a shell
 * command that prints one file ({@code cat .nvmrc}, {@code head -n 40 app.toml}; a pipe, a
 * redirection or a second file makes it something else), or some of its lines from a {@code grep}
 * of one file that prints them as they are ({@code grep -w react-native package.json}), titled
 * apart from a read of the whole file so neither replaces the other. The text read is the stored
 * observation, which the sanitizer has already cleaned; at most {@value #MAX_LINES} lines and
 * {@value ConfigurationFiles#MAX_SETTINGS} settings of one file are read, so a large or hostile
 * output costs a bounded scan.
 *
 * <p>Stateless and thread-safe.
 */
final class ProjectSettings {

  /**
   * One read restated.
   *
   * @param title what it is about, the same for every read of one file (its name) or of the remote,
   *     so that a later read's memory can replace an earlier one's; for the memory's title, without
   *     a type prefix
   * @param content the restatement
   * @param subjects the concepts it names (a runtime, a file name)
   * @param file the name of the file read, or "" for a remote listing
   * @param settings the settings restated, each {key in words, value, key path}, when the content
   *     is a configuration file's settings ({@link SettingParts} cuts them into parts); else empty
   */
  record Found(
      String title, String content, List<String> subjects, String file, List<String[]> settings) {
    Found {
      subjects = List.copyOf(subjects);
      settings = List.copyOf(settings);
    }

    Found(String title, String content, List<String> subjects, String file) {
      this(title, content, subjects, file, List.of());
    }
  }

  /** The most lines of one file read. */
  static final int MAX_LINES = 400;

  /** The most characters of a read scanned, whatever its lines. */
  private static final int MAX_CHARS = 40_000;

  /** The most characters of a remote listing scanned for URLs. */
  private static final int MAX_REMOTE_CHARS = 4_000;

  /** Version pin files by name: what they pin, and its concept. */
  private static final Map<String, String[]> PINS =
      Map.ofEntries(
          Map.entry(".nvmrc", new String[] {"Node.js", "node"}),
          Map.entry(".node-version", new String[] {"Node.js", "node"}),
          Map.entry(".python-version", new String[] {"Python", "python"}),
          Map.entry(".ruby-version", new String[] {"Ruby", "ruby"}),
          Map.entry(".java-version", new String[] {"Java", "java"}),
          Map.entry(".go-version", new String[] {"Go", "go"}),
          Map.entry(".terraform-version", new String[] {"Terraform", "terraform"}),
          Map.entry(".bun-version", new String[] {"Bun", "bun"}),
          Map.entry("rust-toolchain", new String[] {"Rust", "rust"}));

  /** Programs that print a file they are given. */
  private static final Set<String> PRINTERS = Set.of("cat", "head", "tail", "bat", "less", "more");

  private static final Pattern LINE_NUMBER = Pattern.compile("^\\s*\\d{1,6}(?:\\t|→)");

  private static final Pattern GIT_URL =
      Pattern.compile(
          "(?:(?:https?|ssh|git)://(?:[^@\\s/]+@)?([\\w.\\-]+)(?::\\d+)?/|[\\w.\\-]+@([\\w.\\-]+):)"
              + "([\\w.\\-]+(?:/[\\w.\\-]+)+?)(?:\\.git)?/?(?=[\\s)]|$)");

  /** The line of {@code git push}'s output that names where it pushed. */
  private static final Pattern PUSHED_TO = Pattern.compile("^To (\\S{3,300})$");

  /** A word of a command line, a quoted one whole. */
  private static final Pattern QUOTED_WORD = Pattern.compile("'[^']*'|\"[^\"]*\"|\\S+");

  private ProjectSettings() {}

  /**
   * The restatement of what {@code view} read, if it is a successful tool run that read a file or a
   * remote whose meaning is known.
   */
  static Optional<Found> of(ObservationView view) {
    Optional<Found> threshold = coverageThreshold(view);
    if (threshold.isPresent()) {
      return threshold;
    }
    if (!succeededRun(view)) {
      return Optional.empty();
    }
    String content = view.memory().content();
    String output = printedOutput(view);
    String command = view.command();
    if (output.isBlank()
        && (command.isEmpty() || !(InstalledVersions.asks(command) || pushCommand(command)))) {
      // what a version ask or a push printed may be on standard error alone
      return Optional.empty();
    }
    if (!command.isEmpty()) {
      if (remoteCommand(command)) {
        return remote(output);
      }
      Optional<Found> version =
          InstalledVersions.of(
              command,
              output,
              () -> ToolPayload.of(ObservationText.part(content, "output")).field("stderr"));
      if (version.isPresent()) {
        return version;
      }
      Optional<Found> report = EnvironmentReports.of(command, output);
      if (report.isPresent()) {
        return report;
      }
      if (pushCommand(command)) {
        // git prints where it pushed on standard error
        return pushedTo(
            output
                + "\n"
                + ToolPayload.of(ObservationText.part(content, "output")).field("stderr"));
      }
      Optional<Found> listing = Listings.of(command, output);
      if (listing.isPresent()) {
        return listing;
      }
      Optional<Found> packages = PackageVersions.of(command, output);
      if (packages.isPresent()) {
        return packages;
      }
      String[] grep = greppedFile(command);
      if (grep != null) {
        return read(grep[1], output)
            .map(
                f ->
                    new Found(
                        f.title() + ", the lines matching " + grep[0],
                        f.content(),
                        f.subjects(),
                        f.file()));
      }
      String filter = environmentFilter(command);
      if (filter != null) {
        return environment(command, filter, output);
      }
    }
    FileRead file = fileRead(view);
    if (file == null) {
      return Optional.empty();
    }
    Optional<Found> found = read(file.path(), output);
    // some of a file's lines say nothing of the rest: titled apart from the whole file, so that
    // neither replaces the other, and whole, not in parts
    return file.whole()
        ? found
        : found.map(
            f -> new Found(f.title() + ", " + file.lines(), f.content(), f.subjects(), f.file()));
  }

  /**
   * The restatement of what {@code view} read of a whole file, as {@code edits} left the file: the
   * session's later edits of it, in order ({@link EditReplay}). Empty unless {@code view} read one
   * whole file (a reading tool, or a command printing one file) and every edit can be replayed on
   * what it read.
   */
  static List<Found> afterEdits(ObservationView view, List<ObservationView> edits, String cwd) {
    return placed(afterEdits(view, edits), wholeFile(view), cwd);
  }

  private static List<Found> afterEdits(ObservationView view, List<ObservationView> edits) {
    String file = wholeFile(view);
    if (file.isBlank()) {
      return List.of();
    }
    String now = EditReplay.replayed(file, String.join("\n", lines(printedOutput(view))), edits);
    if (now == null) {
      return List.of();
    }
    List<Found> out = new ArrayList<>();
    read(file, now).ifPresent(out::add);
    dependencies(file, now).ifPresent(out::add);
    return out;
  }

  /**
   * Everything {@code view} restates, in a session whose working directory is {@code cwd} ("" if
   * not known): {@link #everything}, a file in a directory of the project titled by its path there
   * ({@link #placed}).
   */
  static List<Found> all(ObservationView view, String cwd) {
    List<Found> found = everything(view);
    // most observations restate nothing: their input is not parsed again for a path
    return found.isEmpty() ? found : placed(found, pathRead(view), cwd);
  }

  /**
   * Everything {@code view} restates: what {@link #of} finds, then, for a manifest read whole, its
   * dependencies ({@link #dependencies}).
   */
  private static List<Found> everything(ObservationView view) {
    List<Found> out = new ArrayList<>();
    Optional<Found> found = of(view);
    found.ifPresent(out::add);
    if (succeededRun(view) && !view.command().isEmpty()) {
      // a chain of version asks answers each: of(view) read one of them
      for (Found f : InstalledVersions.eachOfChain(view.command(), printedOutput(view))) {
        if (out.stream().noneMatch(o -> o.title().equals(f.title()))) {
          out.add(f);
        }
      }
    }
    String file = succeededRun(view) ? wholeFile(view) : "";
    if (!file.isBlank() && (found.isEmpty() || found.get().file().equals(fileName(file)))) {
      dependencies(file, printedOutput(view)).ifPresent(out::add);
    }
    return out;
  }

  /** Whether {@code view} is a tool run that succeeded and changed nothing: a read may be one. */
  private static boolean succeededRun(ObservationView view) {
    return view.type() == LifecycleEventType.POST_TOOL_USE
        && !view.failed()
        && view.kind() != ObservationKind.FILE_EDIT
        && view.kind() != ObservationKind.ERROR;
  }

  /** What {@code view}'s tool printed, as {@link #printed} reads it. */
  private static String printedOutput(ObservationView view) {
    return printed(ObservationText.part(view.memory().content(), "output"));
  }

  /**
   * One file a read printed.
   *
   * @param path the path the reading tool was given, or the file the shell command printed
   * @param lines "" for the whole file; for a reading tool asked for some of its lines ({@code
   *     offset}, {@code limit}, {@code start_line}, {@code view_range}), which: "the lines from
   *     30", "its first 40 lines", "some of its lines". Such a read says nothing of the rest of the
   *     file: restated as the file, it would replace, and retire, what a read of the whole file
   *     said
   */
  private record FileRead(String path, String lines) {
    boolean whole() {
      return lines.isEmpty();
    }
  }

  /** The file {@code view} read (a reading tool, or a command printing one file), or null. */
  private static FileRead fileRead(ObservationView view) {
    String command = view.command();
    if (!command.isEmpty()) {
      String file = printedFile(command);
      return file == null ? null : new FileRead(file, "");
    }
    if (!readingTool(view.tool())) {
      return null;
    }
    String raw = ObservationText.part(view.memory().content(), "input");
    ToolPayload input = ToolPayload.of(raw);
    String path = input.field("file_path", "filePath", "path", "file");
    if (path.isBlank()) {
      return null;
    }
    String from = input.field("offset", "start_line", "startLine");
    String limit = input.field("limit", "end_line", "endLine");
    if (from.isEmpty() && limit.isEmpty() && !raw.contains("\"view_range\"")) {
      return new FileRead(path, "");
    }
    String which =
        from.matches("\\d{1,9}")
            ? "the lines from " + from
            : from.isEmpty() && limit.matches("\\d{1,9}")
                ? "its first " + limit + " lines"
                : "some of its lines";
    return new FileRead(path, which);
  }

  /**
   * The path of the one file {@code view} read, as the agent gave it: by a reading tool, a command
   * printing it, or a {@code grep} of its lines; "" for none.
   */
  static String pathRead(ObservationView view) {
    if (!view.command().isEmpty()) {
      String[] grep = greppedFile(view.command());
      if (grep != null) {
        return grep[1];
      }
    }
    FileRead file = fileRead(view);
    return file == null ? "" : file.path();
  }

  /**
   * Where {@code path} lies in the project whose directory is {@code cwd}, when that is inside one
   * of its directories ("services/api/application.properties"); "" for a file at the project's top
   * ("package.json", "./package.json", "/work/shop/package.json" in "/work/shop"), one outside it
   * ("../other/x.toml", "/etc/hosts"), and an absolute path when {@code cwd} is not known. Only the
   * relative form names one file the same way in every session of the project, whatever directory
   * the agent wrote the path from. A path longer than {@value #MAX_PLACE} characters keeps its last
   * directories ("…/resources/config/application.yml").
   */
  static String projectPath(String path, String cwd) {
    String p = unquoted(path.strip()).replace('\\', '/');
    String root = cwd == null ? "" : cwd.strip().replace('\\', '/');
    while (root.endsWith("/")) {
      root = root.substring(0, root.length() - 1);
    }
    if (absolute(p)) {
      if (root.isEmpty() || !p.startsWith(root + "/")) {
        return "";
      }
      p = p.substring(root.length() + 1);
    }
    while (p.startsWith("./")) {
      p = p.substring(2);
    }
    if (p.startsWith("~") || p.startsWith("$") || p.contains("../") || p.contains("/./")) {
      return "";
    }
    if (p.indexOf('/') <= 0 || p.endsWith("/") || p.contains("//") || p.contains(": ")) {
      return ""; // ": " ends a title's subject (SettingParts.subject)
    }
    // a title holds at most MemoryDraft.MAX_TITLE characters: a deep path keeps its last
    // directories, so that the parts of its file, titled by the path and their groups, stay apart
    if (p.length() <= MAX_PLACE) {
      return p;
    }
    int cut = p.indexOf('/', p.length() - (MAX_PLACE - 2) - 1);
    String last = cut < 0 ? "" : p.substring(cut + 1);
    return last.indexOf('/') > 0 ? "…/" + last : "";
  }

  /**
   * The longest path in the project a title names a file by; a longer one keeps its last
   * directories after "…/", and one whose file name alone is longer is named by its name.
   */
  static final int MAX_PLACE = 96;

  private static boolean absolute(String p) {
    return p.startsWith("/") || p.matches("(?s)[A-Za-z]:/.*");
  }

  /**
   * {@code found} with each restatement of file {@code path} titled by the file's path in the
   * project ({@link #projectPath}) instead of its name, when the file lies in one of the project's
   * directories: "Project setting: services/api/application.properties" and "…:
   * services/web/application.properties" are two files of one monorepo, and a title by name alone
   * made the second read of either replace what the first kept of the other.
   */
  static List<Found> placed(List<Found> found, String path, String cwd) {
    String where = path.isBlank() ? "" : projectPath(path, cwd);
    if (where.isEmpty()) {
      return found;
    }
    String name = fileName(path);
    List<Found> out = new ArrayList<>(found.size());
    for (Found f : found) {
      out.add(
          f.file().equals(name) && f.title().startsWith(name)
              ? new Found(
                  where + f.title().substring(name.length()),
                  f.content(),
                  f.subjects(),
                  f.file(),
                  f.settings())
              : f);
    }
    return out;
  }

  /** The file {@code view} read whole ({@link #fileRead}), or "". */
  private static String wholeFile(ObservationView view) {
    FileRead file = fileRead(view);
    return file == null || !file.whole() ? "" : file.path();
  }

  /**
   * The restatement of file {@code path} holding {@code text}, if its name says what it holds. The
   * text may carry a file reader's line numbers ({@code " 1\t"}).
   */
  static Optional<Found> read(String path, String text) {
    String name = fileName(path);
    if (name.isEmpty()) {
      return Optional.empty();
    }
    List<String> lines = lines(text);
    String lower = name.toLowerCase(Locale.ROOT);
    String[] pin = PINS.get(lower);
    if (pin != null) {
      return pin(name, pin, lines);
    }
    if (lower.equals(".tool-versions")) {
      return toolVersions(name, lines);
    }
    if (lower.equals("codeowners")) {
      return owners(name, lines);
    }
    if (lower.endsWith(".cmake") || lower.equals("cmakelists.txt")) {
      return fetchedDependencies(name, lines);
    }
    if (!ConfigurationFiles.configuration(
        path.replace('\\', '/').toLowerCase(Locale.ROOT), lower)) {
      return Optional.empty();
    }
    List<String[]> settings = ConfigurationFiles.settings(lower, lines);
    if (settings.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Found(
            name,
            "Settings in " + name + ": " + said(settings) + ".",
            List.of(name),
            name,
            settings));
  }

  private static Optional<Found> pin(String name, String[] pin, List<String> lines) {
    for (String line : lines) {
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      if (t.startsWith("[")) {
        return Optional.empty(); // a TOML rust-toolchain: its settings say more than one version
      }
      if (t.length() > 40 || t.chars().anyMatch(Character::isWhitespace) || redacted(t)) {
        return Optional.empty();
      }
      return Optional.of(
          new Found(
              name + ", the " + pin[0] + " version",
              "This project pins its " + pin[0] + " runtime to version " + t + " (" + name + ").",
              List.of(pin[1], name),
              name));
    }
    return Optional.empty();
  }

  private static Optional<Found> toolVersions(String name, List<String> lines) {
    List<String> pins = new ArrayList<>();
    List<String> tools = new ArrayList<>();
    for (String line : lines) {
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#") || redacted(t)) {
        continue;
      }
      String[] parts = t.split("\\s+");
      if (parts.length >= 2 && parts[0].length() <= 40 && parts[1].length() <= 40) {
        pins.add(parts[0] + " version " + parts[1]);
        tools.add(parts[0]);
      }
      if (pins.size() == ConfigurationFiles.MAX_SETTINGS) {
        break;
      }
    }
    return pinned(name, "the tool versions", "pins these runtime and tool versions", pins, tools);
  }

  /**
   * The dependencies a CMake file fetches at a pinned tag ({@code FetchContent_Declare(spdlog
   * GIT_REPOSITORY … GIT_TAG v1.11.0)}): "This project fetches these dependencies at pinned
   * versions in Dependencies.cmake: spdlog version v1.11.0; …", a later "which spdlog do we build
   * against?" answered in its words.
   */
  private static Optional<Found> fetchedDependencies(String name, List<String> lines) {
    Matcher m = FETCH_CONTENT.matcher(String.join("\n", lines));
    List<String> pins = new ArrayList<>();
    List<String> names = new ArrayList<>();
    while (m.find() && pins.size() < ConfigurationFiles.MAX_SETTINGS) {
      String dependency = m.group(1);
      String tag = m.group(2);
      if (dependency.length() <= 40 && tag.length() <= 40 && !redacted(tag)) {
        pins.add(dependency + " version " + tag);
        names.add(dependency);
      }
    }
    return pinned(
        name,
        "the fetched dependencies",
        "fetches these dependencies at pinned versions",
        pins,
        names);
  }

  /**
   * "This project {@code does} in {@code name}: a version 1; b version 2.", titled "{@code name},
   * {@code what}" so a later read of the file replaces it; empty when {@code pins} is.
   */
  private static Optional<Found> pinned(
      String name, String what, String does, List<String> pins, List<String> subjects) {
    if (pins.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Found(
            name + ", " + what,
            "This project " + does + " in " + name + ": " + String.join("; ", pins) + ".",
            subjects,
            name));
  }

  /** One {@code FetchContent_Declare} with a {@code GIT_TAG}: the dependency and its tag. */
  private static final Pattern FETCH_CONTENT =
      Pattern.compile(
          "(?i)FetchContent_Declare\\(\\s*([A-Za-z0-9_.+-]+)\\b[^)]*?\\bGIT_TAG\\s+\"?([\\w.+-]+)\"?");

  private static Optional<Found> owners(String name, List<String> lines) {
    List<String> owned = new ArrayList<>();
    for (String line : lines) {
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#") || redacted(t)) {
        continue;
      }
      String[] parts = t.split("\\s+");
      if (parts.length >= 2 && parts[0].length() <= 200) {
        List<String> who = new ArrayList<>(List.of(parts).subList(1, parts.length));
        owned.add(parts[0] + " is owned by " + String.join(", ", who));
      }
      if (owned.size() == ConfigurationFiles.MAX_SETTINGS) {
        break;
      }
    }
    if (owned.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Found(
            name + ", the code owners",
            "Code owners in "
                + name
                + " (an owner reviews and approves changes to what they own): "
                + String.join("; ", owned)
                + ".",
            List.of(name),
            name));
  }

  /** The repository the remotes in {@code output} name. */
  private static Optional<Found> remote(String output) {
    Map<String, String> repositories = new LinkedHashMap<>();
    // a remote listing is a few lines; the bound keeps the URL pattern's scan short on any output
    Matcher m = GIT_URL.matcher(TextCuts.head(output, MAX_REMOTE_CHARS));
    while (m.find() && repositories.size() < 4) {
      String url = m.group();
      if (redacted(url)) {
        continue;
      }
      String host = m.group(1) != null ? m.group(1) : m.group(2);
      String repository = m.group(3);
      if (repository.endsWith(".git")) {
        repository = repository.substring(0, repository.length() - 4);
      }
      repositories.putIfAbsent(url, repository + " on " + host);
    }
    if (repositories.isEmpty()) {
      return Optional.empty();
    }
    List<String> said = new ArrayList<>();
    repositories.forEach((url, repository) -> said.add(url + ", the repository " + repository));
    return Optional.of(
        new Found(
            "the Git remote",
            "The project's Git repository (remote): " + String.join("; ", said) + ".",
            List.of("git"),
            ""));
  }

  /**
   * The coverage threshold a run's output states ({@link RunSignals}'s "Coverage: …" lines), as a
   * setting titled by what it is, so the next run's statement replaces it; empty for any other
   * observation.
   */
  private static Optional<Found> coverageThreshold(ObservationView view) {
    if ((view.type() != LifecycleEventType.POST_TOOL_USE
            && view.type() != LifecycleEventType.TOOL_FAILURE)
        || view.command().isEmpty()) {
      return Optional.empty();
    }
    String content = view.memory().content();
    String output =
        ToolPayload.of(ObservationText.part(content, "output")).text()
            + "\n"
            + ObservationText.part(content, "error");
    if (!output.contains("threshold")
        && !output.contains("coverage")
        && !output.contains("covered ratio")) {
      return Optional.empty(); // every marker has one of these: most runs skip RunSignals' scan
    }
    List<String> stated = new ArrayList<>();
    for (String fact : RunSignals.of(output).facts()) {
      if (fact.startsWith(RunSignals.COVERAGE_PREFIX) && !redacted(fact)) {
        stated.add(fact.substring(RunSignals.COVERAGE_PREFIX.length()));
      }
    }
    if (stated.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Found(
            "the coverage threshold",
            "The project's tests must reach a coverage threshold ("
                + TextCuts.atWord(view.command(), 120)
                + "): "
                + String.join(" ", stated),
            List.of("coverage"),
            ""));
  }

  /** {@code settings} as a restatement says them: "key: value; key: value". */
  static String said(List<String[]> settings) {
    List<String> said = new ArrayList<>();
    for (String[] s : settings) {
      said.add(s[0] + ": " + s[1]);
    }
    return String.join("; ", said);
  }

  /** Whether {@code command} pushes to a Git remote, whose output names it ("To host:path"). */
  private static boolean pushCommand(String command) {
    String c = command.strip().replaceAll("\\s+", " ");
    return c.startsWith("git push")
        && ToolFamily.singleCommand(ToolFamily.withoutStderrRedirect(c));
  }

  /**
   * The repository a {@code git push} went to, from its "To …" line ({@code To
   * gitlab.com:northwind-tools/gullwing.git}, {@code To https://github.com/acme/shop.git}), stated
   * as a remote listing is.
   */
  private static Optional<Found> pushedTo(String output) {
    for (String line : TextCuts.head(output, MAX_REMOTE_CHARS).lines().toList()) {
      Matcher to = PUSHED_TO.matcher(line.strip());
      if (to.matches() && !redacted(line)) {
        String url = to.group(1);
        // git prints an SSH remote without its user ("gitlab.com:group/repo.git")
        return remote(url.contains("://") || url.contains("@") ? url : "git@" + url)
            .map(
                f ->
                    new Found(
                        f.title(), f.content().replace("git@" + url, url), f.subjects(), f.file()));
      }
    }
    return Optional.empty();
  }

  /**
   * The pattern and file of {@code grep pattern file} on one file with flags that keep its lines as
   * they are ({@code -i}, {@code -E}, {@code -w}, {@code -F}), or null: {@code grep
   * '"react-native"' package.json} prints the file's own lines.
   */
  private static String[] greppedFile(String command) {
    if (!ToolFamily.firstWord(command).equals("grep")
        || !ToolFamily.singleCommand(command)
        || command.indexOf('*') >= 0) {
      return null;
    }
    List<String> operands = new ArrayList<>();
    for (String w : QUOTED_WORD.matcher(command.strip()).results().map(r -> r.group()).toList()) {
      if (w.startsWith("-")) {
        if (!Set.of("-i", "-E", "-w", "-F", "-iE", "-Ei", "-e").contains(w)) {
          return null; // -n, -c, -r, -A …: the lines are numbered, counted, or several files'
        }
      } else {
        operands.add(unquoted(w));
      }
    }
    return operands.size() == 3 ? new String[] {operands.get(1), operands.get(2)} : null;
  }

  /**
   * The filter of {@code env | grep X} or {@code printenv | grep X} (a {@code sort} after it
   * allowed), or null: the environment variables of the project a user looks up by prefix. An
   * unfiltered environment is the machine's, not the project's.
   */
  private static String environmentFilter(String command) {
    String[] parts = command.strip().split("\\s*\\|\\s*");
    if ((parts.length != 2 && parts.length != 3)
        || !(parts[0].equals("env") || parts[0].equals("printenv"))
        || parts.length == 3 && !parts[2].equals("sort")) {
      return null;
    }
    String[] grep = parts[1].split("\\s+");
    if (grep.length < 2 || !grep[0].equals("grep")) {
      return null;
    }
    String pattern = unquoted(grep[grep.length - 1]);
    for (int i = 1; i < grep.length - 1; i++) {
      if (!Set.of("-i", "-E", "-w").contains(grep[i])) {
        return null;
      }
    }
    return ToolFamily.singleCommand(pattern.replace("^", "")) ? pattern : null;
  }

  /**
   * The environment variables {@code env | grep filter} printed, as settings: "relay max payload
   * bytes (RELAY_MAX_PAYLOAD_BYTES): 262144". Variables that name a secret are left out, as in any
   * settings file.
   */
  private static Optional<Found> environment(String command, String filter, String output) {
    List<String[]> settings = ConfigurationFiles.lineSettings(lines(output));
    if (settings.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Found(
            "the environment variables matching " + filter,
            "Environment variables (" + command.strip() + "): " + said(settings) + ".",
            List.of("environment"),
            ""));
  }

  private static boolean remoteCommand(String command) {
    String c = command.strip().replaceAll("\\s+", " ");
    return c.startsWith("git remote -v")
        || c.startsWith("git remote --verbose")
        || c.startsWith("git remote get-url")
        || c.startsWith("git remote show")
        || c.startsWith("git config --get remote.")
        || c.startsWith("git config remote.");
  }

  /** The one file a printing command prints, or null. */
  private static String printedFile(String command) {
    if (!PRINTERS.contains(ToolFamily.firstWord(command))) {
      return null;
    }
    if (!ToolFamily.singleCommand(command)
        || command.indexOf('*') >= 0
        || command.indexOf('?') >= 0) {
      return null; // a glob may print several files
    }
    String file = null;
    String[] words = command.strip().split("\\s+");
    for (int i = 1; i < words.length; i++) {
      String w = words[i];
      if (w.startsWith("-") || w.chars().allMatch(Character::isDigit)) {
        continue;
      }
      if (file != null) {
        return null; // two files: their text runs together
      }
      file = unquoted(w);
    }
    return file;
  }

  private static boolean readingTool(String tool) {
    String t = tool.strip().toLowerCase(Locale.ROOT);
    return t.equals("read")
        || t.equals("read_file")
        || t.equals("readfile")
        || t.equals("view")
        || t.equals("open_file");
  }

  /**
   * What a tool printed: a file reader's content or a shell's standard output when the tool
   * answered with JSON holding one, else the output as it is (a JSON file read is its own text).
   */
  static String printed(String raw) {
    ToolPayload output = ToolPayload.of(raw);
    for (String field : List.of("content", "stdout")) {
      if (output.fields().containsKey(field)) {
        return output.fields().get(field); // a blank one printed nothing: its stderr is no file
      }
    }
    return raw;
  }

  /**
   * The dependencies a manifest declares, with the versions it asks for, in the words a later
   * question uses ("which drizzle-orm do we pin?"): "Dependencies in package.json, with their
   * versions: next 14.2.4, drizzle-orm 0.33.0; devDependencies: vitest ^1.6.0." Each is a name and
   * a version, the compact form, so that the opening a recall shows names many of them; at most
   * {@value #MAX_DEPENDENCIES}. Empty for a file that is no manifest ({@link #MANIFESTS}) or
   * declares none.
   */
  static Optional<Found> dependencies(String path, String text) {
    String name = fileName(path);
    List<String> sections = ConfigurationFiles.MANIFESTS.get(name.toLowerCase(Locale.ROOT));
    if (sections == null) {
      return Optional.empty();
    }
    JsonNode root;
    try {
      root = ToolPayload.readTree(String.join("\n", lines(text)));
    } catch (Exception e) { // a cut or commented read: its dependencies are not known whole
      return Optional.empty();
    }
    if (root == null || !root.isObject()) {
      return Optional.empty();
    }
    List<String> said = new ArrayList<>();
    int count = 0;
    for (String section : sections) {
      JsonNode declared = root.get(section);
      if (declared == null || !declared.isObject()) {
        continue;
      }
      List<String> pairs = new ArrayList<>();
      for (Map.Entry<String, JsonNode> e : declared.properties()) {
        String version = e.getValue().isTextual() ? e.getValue().asText().strip() : "";
        if (count == MAX_DEPENDENCIES) {
          break;
        }
        if (!version.isEmpty()
            && version.length() <= ConfigurationFiles.MAX_VALUE
            && e.getKey().length() <= ConfigurationFiles.MAX_VALUE
            && !redacted(version)
            && !redacted(e.getKey())) {
          pairs.add(e.getKey() + " " + version);
          count++;
        }
      }
      if (!pairs.isEmpty()) {
        said.add((said.isEmpty() ? "" : section + ": ") + String.join(", ", pairs));
      }
    }
    if (said.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Found(
            name + ", its dependencies",
            "Dependencies in " + name + ", with their versions: " + String.join("; ", said) + ".",
            List.of(name, "dependencies"),
            name));
  }

  /** The most dependencies of one manifest restated. */
  static final int MAX_DEPENDENCIES = 60;

  static String unquoted(String s) {
    if (s.length() >= 2) {
      char first = s.charAt(0);
      char last = s.charAt(s.length() - 1);
      if ((first == '"' || first == '\'' || first == '`') && last == first) {
        return s.substring(1, s.length() - 1);
      }
    }
    return s;
  }

  /** Whether {@code s} holds what the sanitizer put in place of a secret or a private value. */
  static boolean redacted(String s) {
    return s.contains("[redacted:") || s.contains("[private]");
  }

  /** The lines of a read, without a file reader's line numbers, bounded. */
  static List<String> lines(String text) {
    List<String> out = new ArrayList<>();
    for (String line : TextCuts.head(text, MAX_CHARS).split("\r?\n", MAX_LINES + 1)) {
      if (out.size() == MAX_LINES) {
        break;
      }
      Matcher m = LINE_NUMBER.matcher(line);
      out.add(m.find() ? line.substring(m.end()) : line);
    }
    return out;
  }

  private static String fileName(String path) {
    String p = unquoted(path.strip()).replace('\\', '/');
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p.substring(p.lastIndexOf('/') + 1);
  }
}
