package dev.memhook.core.internal.compress;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a listing command showed of the project's running setup, stated in the words a later
 * question uses. {@code docker compose ps} prints a table whose last column says the database
 * listens on {@code 0.0.0.0:55432->5432/tcp}; a week later the user asks "what port is the local
 * postgres on?". So the listings that describe the project rather than a moment are restated:
 *
 * <ul>
 *   <li><b>Containers</b> ({@code docker compose ps}, {@code docker-compose ps}, {@code docker
 *       ps}): each service or container, its image and its published ports, host port first: "db
 *       (container billing-db, image postgres:16): host port 55432 to container port 5432/tcp".
 *   <li><b>Kubernetes objects that last</b> ({@code kubectl get} of namespaces, deployments,
 *       services, stateful sets, cron jobs or ingresses, with {@code -n}/{@code -A} at most): their
 *       names, with the namespace when the table has one. Pods and other short-lived objects are
 *       not restated: their names change with every rollout.
 *   <li><b>Helm releases</b> ({@code helm list}, with {@code -n}/{@code -A} at most): each
 *       release's chart version and app version, "cert-manager chart v1.14.4 app v1.14.4".
 *   <li><b>Who committed to a path</b> ({@code git shortlog -sn}, with {@code -- path}): the
 *       authors and their commit counts, most first, "who knows this code" in the history's words.
 *   <li><b>Scheduled jobs</b> ({@code crontab -l}, also through {@code sudo} or {@code ssh host}):
 *       when each runs, in words, and what it runs; see {@link Crontab}.
 *   <li><b>What a deployment exposes</b> ({@code terraform output}): each output's name in words
 *       and its value, with the kind of value (a hostname, an IP address); see {@link
 *       TerraformOutputs}.
 * </ul>
 *
 * A table is read by its header's column positions, as both tools align them; a row whose cell the
 * sanitizer replaced is left out. At most {@value #MAX_ROWS} rows are restated and {@value
 * #MAX_CHARS} characters of output scanned, so a large or hostile output costs a bounded scan.
 *
 * <p>Stateless and thread-safe.
 */
final class Listings {

  /** The most rows of one listing restated. */
  static final int MAX_ROWS = 12;

  /** The most characters of a listing's output scanned. */
  private static final int MAX_CHARS = 16_000;

  /** The longest cell restated. */
  private static final int MAX_CELL = 80;

  /**
   * A {@code --format} that asks Docker for a table with a header ({@code --format 'table
   * {{.Names}}\t{{.Ports}}'}): its output is read by its header as the default table is.
   */
  private static final Pattern TABLE_FORMAT =
      Pattern.compile("\\s--format[= ](['\"])table\\b[^'\"]{0,200}\\1(?=\\s|$)");

  /** {@code kubectl get} resources that describe the deployment, by every name kubectl takes. */
  private static final Map<String, String> KUBERNETES =
      Map.ofEntries(
          Map.entry("ns", "namespaces"),
          Map.entry("namespace", "namespaces"),
          Map.entry("namespaces", "namespaces"),
          Map.entry("deploy", "deployments"),
          Map.entry("deployment", "deployments"),
          Map.entry("deployments", "deployments"),
          Map.entry("svc", "services"),
          Map.entry("service", "services"),
          Map.entry("services", "services"),
          Map.entry("sts", "stateful sets"),
          Map.entry("statefulset", "stateful sets"),
          Map.entry("statefulsets", "stateful sets"),
          Map.entry("cj", "cron jobs"),
          Map.entry("cronjob", "cron jobs"),
          Map.entry("cronjobs", "cron jobs"),
          Map.entry("ing", "ingresses"),
          Map.entry("ingress", "ingresses"),
          Map.entry("ingresses", "ingresses"));

  private Listings() {}

  /** The restatement of what {@code command} printed as {@code output}, if it is a listing. */
  static Optional<ProjectSettings.Found> of(String command, String output) {
    if (command.length() > 300 || output.isBlank()) {
      return Optional.empty();
    }
    if (!ToolFamily.singleCommand(command)) {
      return Optional.empty(); // a filtered or chained listing is something else
    }
    // "docker ps --format 'table {{.Names}}\t{{.Ports}}'" prints the same table with a header
    List<String> words =
        List.of(TABLE_FORMAT.matcher(command.strip()).replaceFirst("").strip().split("\\s+"));
    String program = ToolFamily.firstWord(command);
    List<String> lines = TextCuts.head(output, MAX_CHARS).lines().toList();
    if (program.equals("docker-compose")
        && (words.equals(List.of(words.get(0), "ps"))
            || words.equals(List.of(words.get(0), "ps", "-a")))) {
      return containers(true, lines); // Compose's first command-line tool
    }
    if (program.equals("docker")
        && (words.equals(List.of(words.get(0), "compose", "ps"))
            || words.equals(List.of(words.get(0), "ps"))
            || words.equals(List.of(words.get(0), "compose", "ps", "-a"))
            || words.equals(List.of(words.get(0), "ps", "-a")))) {
      return containers(words.contains("compose"), lines);
    }
    if ((program.equals("kubectl") || program.equals("oc"))
        && words.size() >= 3
        && words.get(1).equals("get")) {
      String kind = KUBERNETES.get(words.get(2).toLowerCase(Locale.ROOT));
      return kind == null || !namespaceFlagsOnly(words.subList(3, words.size()))
          ? Optional.empty()
          : kubernetes(kind, lines);
    }
    if (program.equals("helm")
        && words.size() >= 2
        && (words.get(1).equals("list") || words.get(1).equals("ls"))
        && namespaceFlagsOnly(words.subList(2, words.size()))) {
      return helmReleases(lines);
    }
    if (program.equals("git") && words.size() >= 2 && words.get(1).equals("shortlog")) {
      return committers(words, lines);
    }
    if (program.equals("crontab") || program.equals("ssh") || program.equals("sudo")) {
      return Crontab.of(words, lines);
    }
    if (program.equals("terraform") || program.equals("tofu")) {
      return TerraformOutputs.of(words, TextCuts.head(output, MAX_CHARS));
    }
    return Optional.empty();
  }

  /** Whether {@code flags} only choose namespaces ({@code -n x}, {@code -A}). */
  private static boolean namespaceFlagsOnly(List<String> flags) {
    for (int i = 0; i < flags.size(); i++) {
      String f = flags.get(i);
      if ((f.equals("-n") || f.equals("--namespace")) && i + 1 < flags.size()) {
        i++;
      } else if (!f.equals("-A")
          && !f.equals("--all-namespaces")
          && !f.startsWith("--namespace=")) {
        return false;
      }
    }
    return true;
  }

  private static Optional<ProjectSettings.Found> containers(boolean compose, List<String> lines) {
    Table table = Table.of(lines);
    if (table == null || !table.has("PORTS") || !(table.has("NAME") || table.has("NAMES"))) {
      return Optional.empty();
    }
    List<String> said = new ArrayList<>();
    for (List<String> row : table.rows()) {
      String container = table.cell(row, table.has("NAMES") ? "NAMES" : "NAME");
      String service = table.cell(row, "SERVICE");
      String image = table.cell(row, "IMAGE");
      String ports = ports(table.cell(row, "PORTS"));
      if (container.isEmpty()) {
        continue;
      }
      StringBuilder s = new StringBuilder(service.isEmpty() ? container : service);
      List<String> about = new ArrayList<>();
      if (!service.isEmpty()) {
        about.add("container " + container);
      }
      if (!image.isEmpty()) {
        about.add("image " + image);
      }
      if (!about.isEmpty()) {
        s.append(" (").append(String.join(", ", about)).append(')');
      }
      s.append(ports.isEmpty() ? ": no published port" : ": " + ports);
      said.add(s.toString());
    }
    if (said.isEmpty()) {
      return Optional.empty();
    }
    String what =
        compose ? "The project's Docker Compose services" : "The running Docker containers";
    return Optional.of(
        new ProjectSettings.Found(
            compose ? "the Docker Compose services" : "the Docker containers",
            what
                + " and their ports ("
                + (compose ? "docker compose ps" : "docker ps")
                + "): "
                + String.join("; ", said)
                + ".",
            List.of("docker"),
            ""));
  }

  /**
   * Docker's published ports in words: {@code 0.0.0.0:55432->5432/tcp, :::55432->5432/tcp} is "host
   * port 55432 to container port 5432/tcp", said once; an unpublished {@code 8080/tcp} is
   * "container port 8080/tcp, not published".
   */
  static String ports(String cell) {
    List<String> said = new ArrayList<>();
    for (String part : cell.split(",")) {
      String p = part.strip();
      int arrow = p.indexOf("->");
      String phrase;
      if (arrow >= 0) {
        String host = p.substring(0, arrow);
        host = host.substring(host.lastIndexOf(':') + 1);
        phrase = "host port " + host + " to container port " + p.substring(arrow + 2);
      } else if (!p.isEmpty()) {
        phrase = "container port " + p + ", not published";
      } else {
        continue;
      }
      if (!said.contains(phrase)) {
        said.add(phrase);
      }
    }
    return String.join(", ", said);
  }

  private static Optional<ProjectSettings.Found> kubernetes(String kind, List<String> lines) {
    Table table = Table.of(lines);
    if (table == null || !table.has("NAME")) {
      return Optional.empty();
    }
    List<String> names = new ArrayList<>();
    for (List<String> row : table.rows()) {
      String name = table.cell(row, "NAME");
      String namespace = table.cell(row, "NAMESPACE");
      if (!name.isEmpty()) {
        names.add(namespace.isEmpty() ? name : name + " (namespace " + namespace + ")");
      }
    }
    return names.isEmpty()
        ? Optional.empty()
        : Optional.of(
            new ProjectSettings.Found(
                "the Kubernetes " + kind,
                "The Kubernetes " + kind + " (kubectl get): " + String.join(", ", names) + ".",
                List.of("kubernetes"),
                ""));
  }

  /**
   * {@code helm list}: each release with its chart's version (the chart's name said once when it is
   * the release's, "cert-manager chart v1.14.4"), its app version, its namespace when that is not
   * the release's name, and its status unless deployed; short, so that the opening a recall shows
   * names most releases.
   */
  private static Optional<ProjectSettings.Found> helmReleases(List<String> lines) {
    Table table = Table.of(lines);
    if (table == null || !table.has("NAME") || !table.has("CHART")) {
      return Optional.empty();
    }
    List<String> said = new ArrayList<>();
    for (List<String> row : table.rows()) {
      String name = table.cell(row, "NAME");
      String chart = table.cell(row, "CHART");
      if (name.isEmpty() || chart.isEmpty()) {
        continue;
      }
      StringBuilder s = new StringBuilder(name).append(" chart ");
      s.append(chart.startsWith(name + "-") ? chart.substring(name.length() + 1) : chart);
      String app = table.cell(row, "APP VERSION");
      if (!app.isEmpty()) {
        s.append(" app ").append(app);
      }
      String namespace = table.cell(row, "NAMESPACE");
      String status = table.cell(row, "STATUS");
      List<String> about = new ArrayList<>();
      if (!namespace.isEmpty() && !namespace.equals(name)) {
        about.add("namespace " + namespace);
      }
      if (!status.isEmpty() && !status.equals("deployed")) {
        about.add(status);
      }
      if (!about.isEmpty()) {
        s.append(" (").append(String.join(", ", about)).append(')');
      }
      said.add(s.toString());
    }
    return said.isEmpty()
        ? Optional.empty()
        : Optional.of(
            new ProjectSettings.Found(
                "the Helm releases",
                "Helm releases installed (helm list): " + String.join("; ", said) + ".",
                List.of("helm", "kubernetes"),
                ""));
  }

  /** {@code git shortlog -sn [-- path]}: lines of a count, a tab and an author. */
  private static Optional<ProjectSettings.Found> committers(
      List<String> words, List<String> lines) {
    int dashes = words.indexOf("--");
    if (!words.contains("-sn") && !words.contains("-ns") && !words.contains("-s")) {
      return Optional.empty();
    }
    String path = dashes >= 0 && dashes + 1 < words.size() ? words.get(dashes + 1) : "";
    List<String> said = new ArrayList<>();
    for (String line : lines) {
      String t = line.strip();
      int tab = t.indexOf('\t');
      if (tab <= 0 || said.size() == MAX_ROWS) {
        continue;
      }
      String count = t.substring(0, tab).strip();
      String author = TextCuts.atWord(t.substring(tab + 1).strip(), MAX_CELL);
      if (!count.chars().allMatch(Character::isDigit)
          || author.isEmpty()
          || ProjectSettings.redacted(author)) {
        continue;
      }
      said.add(author + " (" + count + (count.equals("1") ? " commit)" : " commits)"));
    }
    if (said.isEmpty()) {
      return Optional.empty();
    }
    String where = path.isEmpty() ? "the repository" : path;
    return Optional.of(
        new ProjectSettings.Found(
            "the committers of " + where,
            "Who committed most to "
                + where
                + " (git shortlog), and so knows it best: "
                + String.join(", ", said)
                + ".",
            List.of("git"),
            ""));
  }

  /**
   * A table whose header's column names start where their cells do, as {@code docker} and {@code
   * kubectl} print it: each cell runs from its column's start to the next column's.
   */
  private record Table(List<String> columns, List<Integer> starts, List<List<String>> rows) {

    /** The table of {@code lines} whose first non-blank line is its header, or null. */
    static Table of(List<String> lines) {
      int first = 0;
      while (first < lines.size() && lines.get(first).isBlank()) {
        first++;
      }
      if (first == lines.size()) {
        return null;
      }
      String header = lines.get(first);
      List<String> columns = new ArrayList<>();
      List<Integer> starts = new ArrayList<>();
      int i = 0;
      while (i < header.length()) {
        while (i < header.length() && header.charAt(i) == ' ') {
          i++;
        }
        int start = i;
        // a column name is upper-case words separated by single spaces ("CONTAINER ID")
        while (i < header.length()
            && (header.charAt(i) != ' '
                || (i + 1 < header.length() && header.charAt(i + 1) != ' '))) {
          i++;
        }
        if (i > start) {
          String name = header.substring(start, i);
          if (!name.equals(name.toUpperCase(Locale.ROOT))) {
            return null; // not a header: this output is no table
          }
          columns.add(name);
          starts.add(start);
        }
      }
      if (columns.size() < 2) {
        return null;
      }
      List<List<String>> rows = new ArrayList<>();
      for (int r = first + 1; r < lines.size() && rows.size() < MAX_ROWS; r++) {
        String line = lines.get(r);
        if (line.isBlank() || ProjectSettings.redacted(line)) {
          continue; // a cell the sanitizer replaced may be wider than its column
        }
        List<String> cells = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
          int from = Math.min(starts.get(c), line.length());
          int to =
              c + 1 < columns.size() ? Math.min(starts.get(c + 1), line.length()) : line.length();
          cells.add(TextCuts.atWord(line.substring(from, Math.max(from, to)).strip(), MAX_CELL));
        }
        rows.add(cells);
      }
      return new Table(List.copyOf(columns), List.copyOf(starts), List.copyOf(rows));
    }

    boolean has(String column) {
      return columns.contains(column);
    }

    /** The cell of {@code row} in {@code column}, or "" if the table has no such column. */
    String cell(List<String> row, String column) {
      int c = columns.indexOf(column);
      return c < 0 ? "" : row.get(c);
    }
  }
}
