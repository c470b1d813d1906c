package dev.memhook.core.internal.compress;

import java.util.regex.Pattern;

/**
 * The lines of a message that a person pasted from a program rather than wrote: a fenced code
 * block, an indented block (not a list item), a command after a shell prompt ({@code $ curl …}),
 * a line of nothing but brackets and commas (a JSON document's {@code {} and {@code ],}), a row of
 * a program's table ({@code stack | UPDATE_FAILED | …}), and the lines of a stack trace or a log
 * wherever they stand. "traceback from the logs:" followed by {@code File "app/api/routes/invoices.py", line 48,
 * in get_invoice} and {@code sqlalchemy.exc.MissingGreenlet: greenlet_spawn has not been called}
 * states no standing fact, though each line reads as a sentence naming a file. What the user wrote
 * around the paste is left as it is.
 *
 * <p>Stateless and thread-safe.
 */
final class PastedOutput {

  private PastedOutput() {}

  /**
   * {@code said} with each pasted line blanked (its line break kept, so the sentences around it
   * stay apart), or {@code said} itself if nothing in it was pasted.
   */
  static String without(String said) {
    if (said.indexOf('\n') < 0 && !traceLine(said.strip())) {
      return said; // one line that is no trace line: the common case, nothing to do
    }
    String[] lines = said.split("\n", -1);
    StringBuilder out = new StringBuilder(said.length());
    boolean fenced = false;
    boolean changed = false;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      String t = line.strip();
      boolean fence = TextCuts.codeFence(t);
      boolean pasted = fence || fenced || pasted(line, t);
      if (fence) {
        fenced = !fenced;
      }
      changed |= pasted && !t.isEmpty();
      out.append(pasted ? "" : line);
      if (i < lines.length - 1) {
        out.append('\n');
      }
    }
    return changed ? out.toString() : said;
  }

  /** Whether {@code line} ({@code t} stripped) is a pasted one outside a fence. */
  private static boolean pasted(String line, String t) {
    if (t.isEmpty()) {
      return false;
    }
    boolean indented = line.startsWith("  ") || line.startsWith("\t");
    // a list item is written, and people indent one: "  - always run the linter"
    return indented && !TextCuts.LIST_MARK.matcher(t).lookingAt()
        || SHELL_PROMPT.matcher(t).lookingAt()
        || BRACKETS_ONLY.matcher(t).matches()
        || TABLE_ROW.matcher(t).matches()
        || traceLine(t);
  }

  /** A command pasted with its shell prompt: "$ curl -s localhost:8082/v1/rates | jq". */
  private static final Pattern SHELL_PROMPT = Pattern.compile("\\$ \\S");

  /**
   * A row of a program's table, cells between " | " ("Hl-Staging-Shared | UPDATE_FAILED |
   * AWS::CloudFormation::Stack"); a table a person writes opens with its bar.
   */
  private static final Pattern TABLE_ROW = Pattern.compile("[^|]{1,120}(?: \\| [^|]{0,200}){2,}");

  /** A line of brackets and commas alone, as a pasted JSON document or code block has them. */
  private static final Pattern BRACKETS_ONLY = Pattern.compile("[\\[\\]{}(),;]+");

  /**
   * Whether {@code t} opens as a trace or log line, judged on its first {@value #TRACE_HEAD}
   * characters: what shows it is one comes first, and a bounded look keeps a hostile line of
   * megabytes ("at a.a.a.a…") from costing time or the matcher's stack.
   */
  private static boolean traceLine(String t) {
    return TRACE_LINE
        .matcher(t)
        .region(0, Math.min(t.length(), TRACE_HEAD))
        .useAnchoringBounds(false)
        .lookingAt();
  }

  /** How much of a line {@link #traceLine} reads. */
  static final int TRACE_HEAD = 400;

  /**
   * A line of a stack trace or a log: a Python frame ({@code File "x.py", line 3, in f}) or its
   * header, a Java, JavaScript or .NET frame ({@code at com.x.Y.z(Y.java:12)}, {@code at
   * App.Worker.TickAsync(CancellationToken ct) in /src/Worker.cs:line 44}), an exception with its
   * qualified class ({@code java.lang.IllegalStateException: …}, {@code
   * sqlalchemy.exc.MissingGreenlet: …}) or a class named as one ({@code TypeError: …}), a pytest
   * failure line ({@code E assert …}), a line that opens with a timestamp or a log level, and a
   * sanitizer's or native frame ({@code #3 0x55d4c8b40a27 in …}).
   */
  private static final Pattern TRACE_LINE =
      Pattern.compile(
          "File \"[^\"]+\", line \\d+"
              + "|Traceback \\(most recent call last\\)"
              + "|at [\\w$.<>/\\[\\]]+ ?\\([^)]*(?::\\d+|<anonymous>|native|Unknown Source)"
              + "|at (?:[\\w$<>`]+\\.)+[\\w$<>`\\[\\]]+ ?\\([^)]*\\)(?: in \\S+:line \\d+)?$"
              + "|(?:[a-z_][\\w]*\\.)+[A-Z]\\w*(?:Error|Exception|Warning)?:(?:\\s|$)"
              + "|[A-Z]\\w*(?:Error|Exception):(?:\\s|$)"
              + "|E {2,}\\S"
              + "|\\[?\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:\\d\\d"
              + "|\\[?(?:ERROR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL)\\]?[: ]"
              + "|#\\d+ 0x[0-9a-f]+ ");
}
