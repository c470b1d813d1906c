package dev.memhook.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Memhook's MCP server in Codex's {@code config.toml}: one table, {@code [mcp_servers.memhook]},
 * with the server's {@code url} and {@code bearer_token_env_var}, Codex's documented form for a
 * Streamable HTTP server whose bearer token comes from the environment.
 *
 * <h2>Design note</h2>
 *
 * The file is the user's, with their comments, their order and their other tables, and Memhook owns
 * one table in it; so this edits lines, not a parsed document, and leaves every line outside that
 * table as it was. It finds the table's header ({@code [mcp_servers.memhook]}, the name bare or
 * quoted), takes the table to run up to the next header, with its own sub-tables ({@code
 * [mcp_servers.memhook.env]}, …), but without the comments and blank lines right before the next
 * header, which belong to that one; and replaces those lines with the new table, or appends the
 * table, after a blank line, when there is none. A second run with the same URL changes nothing.
 * Lines inside multi-line strings ({@code """} or {@code '''}) are never read as headers.
 *
 * <p>Not handled, and refused rather than broken ({@link ExitCode#BAD_INPUT}, nothing written): a
 * {@code memhook} server defined in another form, with dotted keys or an inline table ({@code
 * mcp_servers.memhook.url = …} at the top, {@code memhook = {…}} under {@code [mcp_servers]}),
 * where a second definition would make the file invalid; and all the servers written as one inline
 * table at the top ({@code mcp_servers = {…}}), which TOML closes to any table added under it.
 * Stateless.
 */
final class CodexConfig {
  /** The table's name under {@code mcp_servers}. */
  static final String SERVER = "memhook";

  private static final Pattern HEADER = Pattern.compile("^\\s*\\[\\[?\\s*([^\\]]*?)\\s*\\]\\]?.*$");
  private static final Pattern OURS =
      Pattern.compile("mcp_servers\\s*\\.\\s*(\"memhook\"|memhook)");
  private static final Pattern KEY_OF_OURS =
      Pattern.compile("^\\s*(\"memhook\"|memhook)\\s*[.=].*$", Pattern.DOTALL);
  private static final Pattern TOP_KEY_OF_OURS =
      Pattern.compile(
          "^\\s*mcp_servers\\s*(\\.\\s*(\"memhook\"|memhook)\\s*[.=]|=.*\\bmemhook\\b).*$",
          Pattern.DOTALL);

  /**
   * A top-level {@code mcp_servers = {…}}: an inline table is complete where it closes, so a table
   * header under it would define it twice and make the file invalid.
   */
  private static final Pattern INLINE_SERVERS =
      Pattern.compile("^\\s*(\"mcp_servers\"|'mcp_servers'|mcp_servers)\\s*=.*$", Pattern.DOTALL);

  private CodexConfig() {}

  /** The table for a server at {@code url} whose token is in {@code tokenVariable}. */
  static List<String> table(String url, String tokenVariable) {
    return List.of(
        "[mcp_servers." + SERVER + "]",
        "url = " + quote(url),
        "bearer_token_env_var = " + quote(tokenVariable));
  }

  /**
   * {@code text} with {@code table} in place of Memhook's table (see the design note).
   *
   * @throws CliException ({@link ExitCode#BAD_INPUT}) if the file defines the server in a form this
   *     does not edit
   */
  static String merge(String text, List<String> table, Path file) {
    List<String> lines = new ArrayList<>(List.of(text.split("\r?\n", -1)));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1); // the text's last newline, added back below
    }
    boolean[] header = headers(lines);
    int start = -1;
    String table0 = "";
    for (int i = 0; i < lines.size(); i++) {
      if (header[i]) {
        table0 = tableName(lines.get(i));
        if (start < 0 && isOurs(table0)) {
          start = i;
        }
        continue;
      }
      boolean topLevel = table0.isEmpty();
      if (topLevel && INLINE_SERVERS.matcher(lines.get(i)).matches()) {
        throw new CliException(
            ExitCode.BAD_INPUT,
            file
                + " defines mcp_servers at line "
                + (i + 1)
                + " as one inline table, to which TOML lets no [mcp_servers."
                + SERVER
                + "] table be added: write each of its servers as a [mcp_servers.NAME] table, and"
                + " run install again; nothing was changed");
      }
      if ((topLevel && TOP_KEY_OF_OURS.matcher(lines.get(i)).matches())
          || (table0.equals("mcp_servers") && KEY_OF_OURS.matcher(lines.get(i)).matches())) {
        throw new CliException(
            ExitCode.BAD_INPUT,
            file
                + " defines mcp_servers."
                + SERVER
                + " at line "
                + (i + 1)
                + " in a form memhook install does not edit (dotted keys or an inline table):"
                + " remove it, or write it as a [mcp_servers."
                + SERVER
                + "] table, and run install again; nothing was changed");
      }
    }
    List<String> out = new ArrayList<>();
    if (start < 0) {
      out.addAll(lines);
      while (!out.isEmpty() && out.get(out.size() - 1).isBlank()) {
        out.remove(out.size() - 1);
      }
      if (!out.isEmpty()) {
        out.add("");
      }
      out.addAll(table);
    } else {
      int end = start + 1; // exclusive: the first line after the table and its sub-tables
      while (end < lines.size() && !(header[end] && !isOurs(tableName(lines.get(end))))) {
        end++;
      }
      while (end > start + 1 && end < lines.size() && isCommentOrBlank(lines.get(end - 1))) {
        end--; // the next table's leading comments stay with it
      }
      int blankBefore = end;
      while (blankBefore > start + 1 && lines.get(blankBefore - 1).isBlank()) {
        blankBefore--;
      }
      out.addAll(lines.subList(0, start));
      out.addAll(table);
      out.addAll(lines.subList(blankBefore, lines.size()));
    }
    return String.join("\n", out) + "\n";
  }

  /**
   * Writes Memhook's table for {@code url} into {@code file} (created if missing), unless it is
   * there as it would be written.
   *
   * @throws CliException ({@link ExitCode#BAD_INPUT}) as {@link #merge}
   */
  static SettingsFile.Outcome update(Path file, String url, String tokenVariable, Instant now)
      throws IOException {
    Optional<String> before = read(file);
    String after = merge(before.orElse(""), table(url, tokenVariable), file);
    if (before.isPresent() && after.equals(before.get())) {
      return new SettingsFile.Outcome(file, false, Optional.empty());
    }
    return SettingsFile.replace(file, after, now);
  }

  /**
   * Fails as {@link #update} would with the same arguments, writing nothing: a file that defines
   * the server in another form, or one that is read-only and would change.
   */
  static void check(Path file, String url, String tokenVariable) throws IOException {
    Optional<String> text = read(file);
    if (text.isPresent()
        && !merge(text.get(), table(url, tokenVariable), file).equals(text.get())) {
      SettingsFile.refuseReadOnly(file);
    }
  }

  private static Optional<String> read(Path file) throws IOException {
    return Files.exists(file)
        ? Optional.of(Files.readString(file, StandardCharsets.UTF_8))
        : Optional.empty();
  }

  /** Which lines are table headers: not those inside a multi-line string. */
  private static boolean[] headers(List<String> lines) {
    boolean[] header = new boolean[lines.size()];
    String open = null; // the delimiter of the multi-line string a line is in, if any
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (open == null && HEADER.matcher(line).matches() && line.strip().startsWith("[")) {
        header[i] = true;
        continue;
      }
      for (String delimiter : List.of("\"\"\"", "'''")) {
        if (open != null && !open.equals(delimiter)) {
          continue;
        }
        if (count(line, delimiter) % 2 == 1) {
          open = open == null ? delimiter : null;
        }
      }
    }
    return header;
  }

  private static String tableName(String headerLine) {
    Matcher m = HEADER.matcher(headerLine);
    return m.matches() ? m.group(1).replaceAll("\\s+", "") : "";
  }

  /** Whether table {@code name} is Memhook's server or one of its sub-tables. */
  private static boolean isOurs(String name) {
    Matcher m = OURS.matcher(name);
    return m.lookingAt() && (m.end() == name.length() || name.charAt(m.end()) == '.');
  }

  private static boolean isCommentOrBlank(String line) {
    String s = line.strip();
    return s.isEmpty() || s.startsWith("#");
  }

  private static int count(String line, String delimiter) {
    int n = 0;
    for (int i = line.indexOf(delimiter); i >= 0; i = line.indexOf(delimiter, i + 3)) {
      n++;
    }
    return n;
  }

  /** {@code s} as a TOML basic string. */
  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
