package dev.memhook.core.internal.compress;

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
 * Which versions of its packages a project has installed, as its package manager listed them,
 * stated in the words a later question uses. The agent runs {@code pnpm outdated} and sees a boxed
 * table whose row says {@code svelte (dev) │ 4.2.12 │ 5.1.3}; a week later the user asks "which
 * svelte are we actually on?". So a package manager's listing is restated, one package after
 * another with its installed version:
 *
 * <ul>
 *   <li><b>Outdated tables</b> ({@code npm}, {@code pnpm}, {@code yarn} or {@code bun outdated},
 *       {@code pip list --outdated}): "svelte 4.2.12 (latest 5.1.3)". Boxed tables and tables of
 *       aligned columns are both read by their header's {@code Package} and {@code Current} (or
 *       {@code Version}) columns.
 *   <li><b>Installed lists</b> ({@code pip list}, {@code pip freeze}, {@code npm ls}, {@code pnpm
 *       ls}): "requests 2.31.0". Only the top level of {@code npm ls}'s tree is read: the packages
 *       the project asked for, not theirs.
 *   <li><b>One package asked about</b> ({@code pnpm why sharp}, {@code npm ls sharp}, {@code pip
 *       show requests}, {@code cargo tree -i serde}, {@code go list -m golang.org/x/net}, {@code
 *       gradlew dependencyInsight --dependency jackson-databind}, or a full dependency listing
 *       filtered for one name, {@code gradlew dependencies | grep retrofit}): "The project's
 *       installed version of sharp (pnpm why sharp): sharp 0.32.6." The output is read word by word
 *       for the name with a version beside it ("sharp 0.32.6", "sharp@0.32.6",
 *       "com.squareup.retrofit2:retrofit:2.9.0", Gradle's resolution "3.14.9 -> 4.12.0" taken at
 *       its right). A package asked about by name must be named so; a filter keeps every package
 *       whose name contains it.
 * </ul>
 *
 * {@code pip} is also recognised as {@code pip3}, {@code python -m pip} and {@code uv pip}. The
 * command must be the listing on its own (a redirection of standard error aside) or a full listing
 * with one {@code grep} of a plain name after it: a filter of another kind ({@code grep -v}, {@code
 * head}) leaves out or cuts rows. A row the sanitizer touched, or whose version is not one ({@code
 * MISSING}), is left out; at most {@value #MAX_PACKAGES} packages of a listing, {@value #MAX_ASKED}
 * versions of a package asked about and {@value #MAX_CHARS} characters of output are read, and only
 * lines of at most {@value #MAX_LINE} characters are searched for a package, so a large or hostile
 * output costs a bounded scan.
 *
 * <p>Stateless and thread-safe.
 */
final class PackageVersions {

  /** The most packages of one listing restated. */
  static final int MAX_PACKAGES = 24;

  /** The most characters of a listing's output scanned. */
  static final int MAX_CHARS = 16_000;

  /** The most versions restated of one package asked about. */
  static final int MAX_ASKED = 6;

  /** The longest output line read for a package's version. */
  static final int MAX_LINE = 400;

  /** A version with a dot at least: "0.32.6", "v1.0.197", "2.9.0-rc1". */
  private static final Pattern DOTTED_VERSION =
      Pattern.compile("v?\\d{1,9}(?:\\.[\\w+\\-]{1,20}){1,6}");

  /** What is around a word and not part of a package's name: tree drawing, quotes, commas. */
  private static final Pattern WORD_EDGES = Pattern.compile("^[^\\w@]+|[\"',;)]+$");

  /** The most package names a listing gives as its subjects. */
  private static final int MAX_SUBJECTS = 8;

  /** The JavaScript package managers whose {@code outdated} prints a table. */
  private static final Set<String> NODE_MANAGERS = Set.of("npm", "pnpm", "yarn", "bun");

  /** A package name as package managers print it, scoped npm names included. */
  private static final Pattern NAME =
      Pattern.compile("@?[A-Za-z0-9][\\w.\\-]{0,80}(?:[/:][\\w.\\-]{1,80}){0,3}");

  /** An installed version: a digit first, then what versions are made of. */
  private static final Pattern VERSION = Pattern.compile("v?\\d[\\w.+!\\-]{0,40}");

  /** A {@code pip freeze} line: a name, optional extras, and its pinned version. */
  private static final Pattern FROZEN =
      Pattern.compile(
          "^\\s*([A-Za-z0-9][\\w.\\-]{0,80})(?:\\[[^\\]]{0,80}])?==(\\d[\\w.+!\\-]{0,40})\\s*$");

  /** A top-level line of {@code npm ls}'s tree: "├── react@18.2.0", "└─┬ vite@5.2.0". */
  private static final Pattern TREE_TOP =
      Pattern.compile("^(?:[├└]─[─┬]|[+`]--)\\s(@?[^@\\s]{1,80})@(\\S{1,40})");

  /** A line of {@code pnpm ls} under a dependencies heading: "svelte 4.2.12". */
  private static final Pattern NAME_VERSION =
      Pattern.compile("^(@?[^@\\s]{1,80}) (v?\\d\\S{0,40})$");

  /** Labels a boxed table puts after a package's name: "svelte (dev)". */
  private static final Pattern KIND_LABEL = Pattern.compile("\\s*\\((?:dev|optional|peer)\\)$");

  private PackageVersions() {}

  /** One package as listed: its name, installed version and latest version ("" if not shown). */
  private record Listed(String name, String version, String latest) {}

  /** The restatement of what {@code command} printed as {@code output}, if it lists packages. */
  static Optional<ProjectSettings.Found> of(String command, String output) {
    if (command.length() > 300 || output.isBlank()) {
      return Optional.empty();
    }
    String line = ToolFamily.withoutStderrRedirect(command);
    int pipe = line.indexOf(" | ");
    if (pipe > 0) {
      String filter = grepped(line.substring(pipe + 3));
      List<String> words = words(line.substring(0, pipe));
      return filter == null || !lister(words) || !ToolFamily.singleCommand(line.substring(0, pipe))
          ? Optional.empty()
          : about(filter, false, line, words.get(0), output);
    }
    if (!ToolFamily.singleCommand(line)) {
      return Optional.empty();
    }
    List<String> words = words(line);
    if (words.size() < 2) {
      return Optional.empty();
    }
    String program = words.get(0);
    String verb = words.get(1);
    String asked = asked(words);
    if (asked != null) {
      return about(asked, true, line, program, output);
    }
    List<String> lines = TextCuts.head(output, MAX_CHARS).lines().toList();
    List<Listed> listed;
    if (NODE_MANAGERS.contains(program) && verb.equals("outdated")) {
      listed = table(lines);
    } else if (program.equals("pip") && verb.equals("list")) {
      listed = table(lines);
    } else if (program.equals("pip") && verb.equals("freeze")) {
      listed = rows(lines, FROZEN);
    } else if ((program.equals("npm") || program.equals("pnpm"))
        && (verb.equals("ls") || verb.equals("list"))) {
      listed = program.equals("npm") ? rows(lines, TREE_TOP) : headed(lines);
    } else {
      return Optional.empty();
    }
    return found(
        "the installed package versions (" + line + ")",
        "Installed versions of the project's packages (" + line + "): ",
        program,
        listed);
  }

  /**
   * The words of a command line, its program first under one name: {@code python -m pip}, {@code uv
   * pip} and {@code pip3} are {@code pip}; {@code ./gradlew} is {@code gradlew}.
   */
  private static List<String> words(String line) {
    List<String> words = new ArrayList<>(List.of(line.strip().split("\\s+")));
    String program = ToolFamily.firstWord(line);
    if ((program.equals("python") || program.equals("python3"))
        && words.size() > 2
        && words.get(1).equals("-m")
        && words.get(2).equals("pip")) {
      words.subList(0, 2).clear();
      program = "pip";
    } else if (program.equals("uv") && words.size() > 1 && words.get(1).equals("pip")) {
      words.remove(0);
      program = "pip";
    } else if (program.equals("pip3")) {
      program = "pip";
    }
    words.set(0, program);
    return words;
  }

  /**
   * The one package a command asks about, or null: {@code pnpm why sharp}, {@code npm ls sharp},
   * {@code yarn why sharp}, {@code pip show requests}, {@code cargo tree -i serde}, {@code go list
   * -m golang.org/x/net}, {@code gradlew dependencyInsight --dependency jackson-databind}.
   */
  private static String asked(List<String> words) {
    String program = words.get(0);
    String verb = words.get(1);
    List<String> rest = words.subList(2, words.size());
    List<String> names = rest.stream().filter(w -> !w.startsWith("-")).toList();
    boolean one = names.size() == 1 && NAME.matcher(names.get(0)).matches();
    if (NODE_MANAGERS.contains(program)
        && Set.of("why", "ls", "list", "explain").contains(verb)
        && one) {
      return names.get(0);
    }
    if (program.equals("pip") && verb.equals("show") && one) {
      return names.get(0);
    }
    if (program.equals("cargo")
        && verb.equals("tree")
        && (rest.contains("-i") || rest.contains("--invert"))
        && one) {
      return names.get(0);
    }
    if (program.equals("go") && verb.equals("list") && rest.contains("-m") && one) {
      return names.get(0).equals("all") ? null : names.get(0);
    }
    int dependency = words.indexOf("--dependency");
    if ((program.equals("gradle") || program.equals("gradlew"))
        && words.stream().anyMatch(w -> w.endsWith("dependencyInsight"))
        && dependency > 0
        && dependency + 1 < words.size()
        && NAME.matcher(words.get(dependency + 1)).matches()) {
      return words.get(dependency + 1);
    }
    return null;
  }

  /**
   * Whether {@code words} list a project's dependencies in full, so that filtering them for one
   * name ({@code gradlew dependencies | grep retrofit}) shows that package's versions.
   */
  private static boolean lister(List<String> words) {
    String program = words.get(0);
    if (words.size() < 2) {
      return false;
    }
    if (program.equals("gradle") || program.equals("gradlew")) {
      return words.stream().anyMatch(w -> w.endsWith("dependencies"));
    }
    if (program.equals("mvn") || program.equals("mvnw")) {
      return words.contains("dependency:tree") || words.contains("dependency:list");
    }
    String verb = words.get(1);
    return NODE_MANAGERS.contains(program) && Set.of("ls", "list", "outdated").contains(verb)
        || program.equals("pip") && Set.of("list", "freeze").contains(verb)
        || program.equals("cargo") && verb.equals("tree")
        || program.equals("go") && verb.equals("list") && words.contains("-m")
        || program.equals("poetry") && verb.equals("show")
        || program.equals("bundle") && verb.equals("list");
  }

  /**
   * The name {@code grep} filters for, or null unless {@code filter} is one {@code grep} of a plain
   * name with flags that keep its lines as they are ({@code -i}, {@code -E}, {@code -w}).
   */
  private static String grepped(String filter) {
    List<String> words = List.of(filter.strip().split("\\s+"));
    if (words.isEmpty() || !words.get(0).equals("grep")) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (String w : words.subList(1, words.size())) {
      if (w.startsWith("-")) {
        if (!Set.of("-i", "-E", "-w", "-F", "-e", "-iw", "-wi").contains(w)) {
          return null; // -v, -c, -o, -A: lines left out, counted or cut
        }
      } else {
        names.add(w.replaceAll("^['\"]|['\"]$", ""));
      }
    }
    return names.size() == 1 && NAME.matcher(names.get(0)).matches() ? names.get(0) : null;
  }

  /**
   * The versions of package {@code name} that {@code output} names: "sharp 0.32.6", "sharp@0.32.6",
   * "com.squareup.retrofit2:retrofit:2.9.0", a resolved "2.9.0 -> 2.11.0" taken at its right; and
   * pip's "Name:" and "Version:" lines. A package asked about by name ({@code exact}) must be named
   * so, not merely contain the name ({@code serde_json} is not {@code serde}); a filter's lines are
   * all the listing has about its name, so any package containing it counts.
   */
  private static Optional<ProjectSettings.Found> about(
      String name, boolean exact, String line, String program, String output) {
    String wanted = name.toLowerCase(Locale.ROOT);
    Map<String, Listed> out = new LinkedHashMap<>();
    String pipName = "";
    for (String l : TextCuts.head(output, MAX_CHARS).lines().toList()) {
      String t = l.strip();
      if (t.length() > MAX_LINE || ProjectSettings.redacted(t)) {
        continue; // a line naming a package's version is short; a longer one is something else
      }
      if (program.equals("pip") && t.startsWith("Name: ")) {
        pipName = t.substring(6).strip();
      } else if (program.equals("pip") && t.startsWith("Version: ") && !pipName.isEmpty()) {
        add(out, pipName, t.substring(9).strip(), "");
      }
      if (t.toLowerCase(Locale.ROOT).contains(wanted)) {
        String[] said = versionOf(List.of(t.split("\\s+")), wanted, exact);
        if (said != null) {
          add(out, said[0], said[1], "");
        }
      }
      if (out.size() == MAX_ASKED) {
        break;
      }
    }
    return found(
        "the installed version of " + name,
        "The project's installed version of " + name + " (" + line + "): ",
        program,
        List.copyOf(out.values()));
  }

  /**
   * The package named like {@code wanted} that the words of one output line give a version, as
   * {name, version}, or null: "sharp@0.32.6", "com.squareup.retrofit2:retrofit:2.9.0" (with a
   * resolution "-> 2.11.0" after it taken instead), "requests==2.31.0", or the name and a version
   * as the next word ("sharp 0.32.6", "serde v1.0.197"). Tree drawing and quotes around a word are
   * not part of it.
   */
  private static String[] versionOf(List<String> words, String wanted, boolean exact) {
    for (int i = 0; i < words.size(); i++) {
      String word = WORD_EDGES.matcher(words.get(i)).replaceAll("");
      if (!word.toLowerCase(Locale.ROOT).contains(wanted)) {
        continue;
      }
      String name = null;
      String version = null;
      int cut =
          Math.max(word.lastIndexOf('@'), Math.max(word.lastIndexOf(':'), word.lastIndexOf('=')));
      if (cut > 0 && DOTTED_VERSION.matcher(word.substring(cut + 1)).matches()) {
        name = word.substring(0, word.endsWith("==" + word.substring(cut + 1)) ? cut - 1 : cut);
        version = word.substring(cut + 1);
      } else if (i + 1 < words.size() && DOTTED_VERSION.matcher(words.get(i + 1)).matches()) {
        name = word;
        version = words.get(i + 1);
        i++;
      }
      if (name == null) {
        continue;
      }
      if (i + 2 < words.size()
          && words.get(i + 1).equals("->")
          && DOTTED_VERSION.matcher(words.get(i + 2)).matches()) {
        version = words.get(i + 2); // Gradle's conflict resolution: the version on the right wins
      }
      String artifact = name.substring(name.lastIndexOf(':') + 1);
      if (!exact || artifact.equalsIgnoreCase(wanted)) {
        return new String[] {name, version.startsWith("v") ? version.substring(1) : version};
      }
    }
    return null;
  }

  /** The restatement of {@code listed}, or empty if nothing was listed. */
  private static Optional<ProjectSettings.Found> found(
      String title, String lead, String program, List<Listed> listed) {
    if (listed.isEmpty()) {
      return Optional.empty();
    }
    List<String> said = new ArrayList<>();
    List<String> subjects = new ArrayList<>(List.of(program));
    for (Listed p : listed) {
      said.add(
          p.name()
              + " "
              + p.version()
              + (p.latest().isEmpty() ? "" : " (latest " + p.latest() + ")"));
      if (subjects.size() <= MAX_SUBJECTS) {
        subjects.add(p.name().toLowerCase(Locale.ROOT));
      }
    }
    return Optional.of(
        new ProjectSettings.Found(title, lead + String.join(", ", said) + ".", subjects, ""));
  }

  /**
   * The packages of a table with a header row: boxed ({@code │} between cells, as pnpm prints) or
   * aligned columns whose names are single words before any of several words ({@code Package
   * Current Wanted Latest Location Depended by}).
   */
  private static List<Listed> table(List<String> lines) {
    List<String> header = null;
    Map<String, Listed> out = new LinkedHashMap<>();
    for (String raw : lines) {
      String line = raw.strip();
      if (line.isEmpty() || line.chars().allMatch(c -> c == '-' || c == ' ')) {
        continue; // pip's rule under the header
      }
      boolean boxed = line.indexOf('│') >= 0;
      List<String> cells = boxed ? boxedCells(line) : List.of(line.split("\\s+"));
      if (cells.isEmpty()) {
        continue;
      }
      if (header == null) {
        if (cells.get(0).equalsIgnoreCase("package")) {
          header = cells.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
        }
        continue;
      }
      int version = header.indexOf("current");
      if (version < 0) {
        version = header.indexOf("version");
      }
      if (version < 0) {
        return List.of();
      }
      int latest = header.indexOf("latest");
      if (cells.size() <= Math.max(version, latest) || ProjectSettings.redacted(line)) {
        continue;
      }
      String name = KIND_LABEL.matcher(cells.get(0)).replaceAll("");
      add(out, name, cells.get(version), latest < 0 ? "" : cells.get(latest));
      if (out.size() == MAX_PACKAGES) {
        break;
      }
    }
    return List.copyOf(out.values());
  }

  /** The cells of a boxed table's row, or none for a rule line. */
  private static List<String> boxedCells(String line) {
    List<String> cells = new ArrayList<>();
    for (String cell : line.split("│")) {
      String c = cell.strip();
      if (!c.isEmpty()) {
        cells.add(c);
      }
    }
    return cells;
  }

  /**
   * The packages of the lines {@code row} finds a name (group 1) and version (group 2) in: {@code
   * pip freeze}'s "name==version" ({@link #FROZEN}), the top of {@code npm ls}'s tree ({@link
   * #TREE_TOP}, read from the line as printed, since a child's indent is what tells it apart).
   */
  private static List<Listed> rows(List<String> lines, Pattern row) {
    Map<String, Listed> out = new LinkedHashMap<>();
    for (String line : lines) {
      Matcher m = row.matcher(line);
      if (m.find() && !ProjectSettings.redacted(line)) {
        add(out, m.group(1), m.group(2), "");
        if (out.size() == MAX_PACKAGES) {
          break;
        }
      }
    }
    return List.copyOf(out.values());
  }

  /** The packages of {@code pnpm ls}: "name version" lines under a dependencies heading. */
  private static List<Listed> headed(List<String> lines) {
    Map<String, Listed> out = new LinkedHashMap<>();
    boolean under = false;
    for (String raw : lines) {
      String line = raw.strip();
      if (line.endsWith(":")) {
        under = line.toLowerCase(Locale.ROOT).endsWith("dependencies:");
        continue;
      }
      Matcher m = NAME_VERSION.matcher(line);
      if (under && m.matches() && !ProjectSettings.redacted(line)) {
        add(out, m.group(1), m.group(2), "");
        if (out.size() == MAX_PACKAGES) {
          break;
        }
      }
    }
    return List.copyOf(out.values());
  }

  /** Adds a package if its name and versions are what they claim to be; the first row wins. */
  private static void add(Map<String, Listed> out, String name, String version, String latest) {
    if (!NAME.matcher(name).matches()
        || !VERSION.matcher(version).matches()
        || !(latest.isEmpty() || VERSION.matcher(latest).matches())) {
      return;
    }
    out.putIfAbsent(name, new Listed(name, version, latest));
  }
}
