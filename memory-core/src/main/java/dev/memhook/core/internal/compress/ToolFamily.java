package dev.memhook.core.internal.compress;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What kind of tool an agent used, from its name: Claude Code's {@code Edit}, {@code Write}, {@code
 * MultiEdit}, {@code Read}, {@code Bash}, and the names other agents give the same tools ({@code
 * apply_patch}, {@code str_replace}, {@code read_file}, {@code shell}, {@code run_command}). A
 * shell command that only reads ({@code cat}, {@code grep}, {@code ls}, …) counts as a read.
 */
enum ToolFamily {
  EDIT,
  READ,
  SHELL,
  OTHER;

  private static final Set<String> READING_COMMANDS =
      Set.of(
          "cat", "head", "tail", "less", "more", "grep", "rg", "ag", "find", "ls", "tree", "wc",
          "bat", "fd", "stat", "file");

  /** Frameworks and tools by the first word of a command. */
  static final Map<String, String> COMMAND_CONCEPTS =
      Map.ofEntries(
          Map.entry("mvn", "maven"),
          Map.entry("mvnw", "maven"),
          Map.entry("gradle", "gradle"),
          Map.entry("gradlew", "gradle"),
          Map.entry("npm", "npm"),
          Map.entry("npx", "npm"),
          Map.entry("yarn", "yarn"),
          Map.entry("pnpm", "pnpm"),
          Map.entry("node", "node"),
          Map.entry("pytest", "pytest"),
          Map.entry("python", "python"),
          Map.entry("python3", "python"),
          Map.entry("pip", "python"),
          Map.entry("cargo", "cargo"),
          Map.entry("go", "go"),
          Map.entry("git", "git"),
          Map.entry("docker", "docker"),
          Map.entry("kubectl", "kubernetes"),
          Map.entry("make", "make"),
          Map.entry("java", "java"),
          Map.entry("javac", "java"),
          Map.entry("jest", "jest"),
          Map.entry("dotnet", "dotnet"),
          Map.entry("mix", "mix"),
          Map.entry("flutter", "flutter"),
          Map.entry("dart", "dart"),
          Map.entry("bun", "bun"),
          Map.entry("deno", "deno"));

  /**
   * The family of the tool named {@code tool} (null is {@link #OTHER}) run with {@code command}.
   */
  static ToolFamily of(String tool, String command) {
    if (tool == null) {
      return OTHER;
    }
    String name = tool.toLowerCase(Locale.ROOT);
    if (name.contains("todo") || name.equals("task") || name.equals("agent")) {
      return OTHER;
    }
    if (name.contains("edit")
        || name.contains("write")
        || name.contains("patch")
        || name.contains("replace")
        || name.contains("create")
        || name.contains("insert")) {
      return EDIT;
    }
    if (name.contains("bash")
        || name.contains("shell")
        || name.contains("command")
        || name.contains("terminal")
        || name.contains("exec")
        || name.equals("run")
        || name.equals("sh")
        || name.equals("powershell")
        || name.equals("cmd")) {
      return READING_COMMANDS.contains(firstWord(command)) ? READ : SHELL;
    }
    if (name.contains("read")
        || name.contains("view")
        || name.contains("cat")
        || name.contains("grep")
        || name.contains("glob")
        || name.contains("search")
        || name.contains("fetch")
        || name.contains("list")
        || name.equals("ls")) {
      return READ;
    }
    return OTHER;
  }

  /**
   * What makes a shell line more than one command: a pipe, a chain, a redirection, a substitution.
   */
  private static final String SHELL_OPERATORS = "|;&><$`";

  /**
   * Whether {@code command} runs one program on its own: no pipe, chain, redirection or
   * substitution. A command restated or judged by what it printed must be one such, since a
   * filtered or chained output ({@code crontab -l | grep etl}) is something else.
   */
  static boolean singleCommand(String command) {
    for (int i = 0; i < SHELL_OPERATORS.length(); i++) {
      if (command.indexOf(SHELL_OPERATORS.charAt(i)) >= 0) {
        return false;
      }
    }
    return true;
  }

  /** A redirection of standard error at the end of a command: it changes where, not what. */
  private static final Pattern STDERR_REDIRECT = Pattern.compile("\\s+2>(?:&1|/dev/null)$");

  /**
   * {@code command} stripped, without a redirection of standard error at its end ({@code java
   * -version 2>&1}, {@code npm ls 2>/dev/null}): the command a rule reads by what it printed.
   */
  static String withoutStderrRedirect(String command) {
    return STDERR_REDIRECT.matcher(command.strip()).replaceAll("");
  }

  /** The program a command line runs, without its directory: {@code ./mvnw -q} gives mvnw. */
  static String firstWord(String command) {
    if (command == null) {
      return "";
    }
    String s = command.strip();
    int end = 0;
    while (end < s.length() && !Character.isWhitespace(s.charAt(end))) {
      end++;
    }
    String word = s.substring(0, end);
    return word.substring(word.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
  }
}
