package dev.memhook.core.internal.compress;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a command's output says about how it went: test counts (JUnit and Maven Surefire, Gradle,
 * pytest, Jest, Mocha, Node's runner, Cargo, Go, RSpec, ExUnit, Minitest), the build result, the
 * exit code, a checker's success line ({@code SUCCESS_LINES}), a coverage threshold ({@code
 * COVERAGE_MARKERS}) and the first error line.
 *
 * <p>Read with {@code indexOf} and hand-written digit scans, never a regular expression, over a
 * bounded window: test summaries and build results come last, so {@link #of} reads the head and the
 * tail of a long output, never the middle.
 *
 * <p>Immutable and thread-safe.
 *
 * @param tests whether the output holds test results
 * @param outcome what the tests (or, without tests, the build or the exit code) say
 * @param label a short result for a title, such as {@code "3 failures"} or {@code "12 passed"}, or
 *     ""
 * @param facts one-sentence statements: the test summary line, failed tests, the build result
 * @param exitCode the exit code the output reports, or -1
 * @param errorLine the first line that reads as an error, or ""
 */
record RunSignals(
    boolean tests,
    Outcome outcome,
    String label,
    List<String> facts,
    int exitCode,
    String errorLine) {

  /** How a run went. */
  enum Outcome {
    PASSED,
    FAILED,
    UNKNOWN
  }

  /** How much of the head and of the tail of an output is read. */
  static final int WINDOW = 16_384;

  private static final int MAX_FAILED_TESTS = 3;

  private static final String[] ERROR_MARKERS = {
    "error:",
    "Error:",
    "ERROR:",
    "[ERROR]",
    "Exception:",
    "Exception in thread",
    "Traceback (most",
    "fatal:",
    "FATAL",
    "panic:",
    "command not found",
    "No such file or directory",
    "Permission denied",
    "BUILD FAILURE",
    "BUILD FAILED",
    "npm ERR!",
    "error[E"
  };

  /**
   * Lines a checking tool prints, at the start of a line, when it found nothing wrong and prints no
   * count: Terraform's and Packer's {@code validate} ("Success! The configuration is valid."), mypy
   * ("Success: no issues found in 12 source files"), Ruff ("All checks passed!"). Each says so in
   * its own documentation; a line that only mentions success somewhere does not count.
   */
  private static final String[] SUCCESS_LINES = {
    "Success! ", "Success: ", "All checks passed!", "The configuration is valid."
  };

  /**
   * Where a coverage tool states the coverage a run must reach: Jest ("coverage threshold for lines
   * (85%) not met: 82.4%"), nyc and Istanbul ("does not meet global threshold (85%)"), pytest-cov
   * ("Required test coverage of 85% reached"), JaCoCo ("lines covered ratio is 0.82, but expected
   * minimum is 0.85"). The line is quoted: the threshold is a standing rule of the project, and
   * "what coverage do we need?" is asked in its words.
   */
  private static final String[] COVERAGE_MARKERS = {
    "coverage threshold for ",
    "does not meet global threshold",
    "does not meet threshold",
    "Required test coverage of ",
    "covered ratio is "
  };

  /** How those lines say the threshold was missed. */
  private static final String[] COVERAGE_MISSES = {
    "not met", "does not meet", "not reached", "Rule violated", "but expected minimum"
  };

  private static final int MAX_COVERAGE_LINES = 2;

  /** How a fact quoting a coverage threshold line starts. */
  static final String COVERAGE_PREFIX = "Coverage: ";

  RunSignals {
    facts = List.copyOf(facts);
  }

  /** The signals of {@code output} (null is nothing). */
  static RunSignals of(String output) {
    if (output == null || output.isEmpty()) {
      return new RunSignals(false, Outcome.UNKNOWN, "", List.of(), -1, "");
    }
    String head = TextCuts.head(output, WINDOW);
    String tail = output.length() > 2 * WINDOW ? TextCuts.tail(output, WINDOW) : output;
    String text = output.length() > 2 * WINDOW ? head + "\n" + tail : output;
    List<String> facts = new ArrayList<>();
    int[] counts = testCounts(text, facts);
    boolean tests = counts != null || text.contains("--- FAIL:");
    Outcome outcome = Outcome.UNKNOWN;
    String label = "";
    if (counts != null) {
      int failed = counts[1];
      outcome = failed > 0 ? Outcome.FAILED : Outcome.PASSED;
      label =
          failed > 0 ? failed + (failed == 1 ? " failure" : " failures") : counts[0] + " passed";
    } else if (tests) {
      outcome = Outcome.FAILED;
      label = "tests failed";
      facts.add("Go tests failed.");
    }
    failedTests(text, facts);
    if (coverage(text, facts) && outcome != Outcome.FAILED) {
      // the tools exit non-zero when the threshold is not met: the run failed, whatever its tests
      outcome = Outcome.FAILED;
      label = "coverage below its threshold";
    }
    boolean buildFailed = text.contains("BUILD FAILURE") || text.contains("BUILD FAILED");
    boolean buildPassed = text.contains("BUILD SUCCESS");
    if (buildFailed) {
      facts.add("The build failed.");
    } else if (buildPassed) {
      facts.add("The build succeeded.");
    }
    int exit = exitCode(head);
    if (exit > 0) {
      facts.add("It exited with code " + exit + ".");
    }
    String error = errorLine(head);
    String success = buildFailed || exit > 0 || !error.isEmpty() ? "" : successLine(text);
    if (!success.isEmpty()) {
      facts.add(TextCuts.asSentence(TextCuts.atWord(success, 200)));
    }
    if (outcome == Outcome.UNKNOWN) {
      if (buildFailed || exit > 0) {
        outcome = Outcome.FAILED;
      } else if (buildPassed || exit == 0 || !success.isEmpty()) {
        outcome = Outcome.PASSED;
      }
    }
    return new RunSignals(tests, outcome, label, facts, exit, error);
  }

  /** [run, failed] from the last test summary, adding its line to facts; null if none. */
  private static int[] testCounts(String text, List<String> facts) {
    int at = text.lastIndexOf("Tests run: ");
    if (at >= 0) { // JUnit console and Maven Surefire: the last line is the total
      String line = lineAt(text, at);
      int run = numberAfter(line, "Tests run: ");
      int failures = Math.max(0, numberAfter(line, "Failures: "));
      int errors = Math.max(0, numberAfter(line, "Errors: "));
      int skipped = numberAfter(line, "Skipped: ");
      facts.add(
          "Tests run: "
              + run
              + ", Failures: "
              + failures
              + ", Errors: "
              + errors
              + (skipped >= 0 ? ", Skipped: " + skipped : "")
              + ".");
      return new int[] {Math.max(0, run), failures + errors};
    }
    int[] node = nodeCounts(text, facts);
    if (node != null) {
      return node;
    }
    at = text.lastIndexOf("test result: "); // Cargo
    if (at < 0) {
      at = text.lastIndexOf("Tests: "); // Jest
    }
    if (at < 0) {
      // pytest, Gradle, Mocha; RSpec, ExUnit and Minitest count failures ("5 examples, 1 failure")
      at = lastLineWith(text, " passed", " failed", " failing", " failure");
    }
    if (at < 0) {
      return goPackages(text, facts);
    }
    String line = lineAt(text, at);
    int passed = numberBefore(line, " passed");
    int failed =
        Math.max(
            Math.max(numberBefore(line, " failed"), numberBefore(line, " failing")),
            numberBefore(line, " failure"));
    if (passed < 0 && failed < 0) {
      int completed = numberBefore(line, " tests completed");
      if (completed < 0) {
        return null;
      }
      passed = completed;
    }
    // an error in a test (pytest's and Minitest's "1 error") fails the run as a failure does
    failed = Math.max(0, failed) + Math.max(0, numberBefore(line, " error"));
    if (passed < 0) { // only failures counted: the rest of the run passed
      int run = total(line);
      passed = Math.max(0, run - failed);
    }
    facts.add(TextCuts.asSentence(TextCuts.atWord(stripRule(line), 200)));
    return new int[] {passed + failed, failed};
  }

  /**
   * [run, failed] from Node's test runner's summary ({@code ℹ pass 14} and {@code ℹ fail 0} on
   * lines of their own; {@code # pass}, {@code # fail} in its TAP output), adding it to facts; null
   * if there is none.
   */
  private static int[] nodeCounts(String text, List<String> facts) {
    for (String mark : new String[] {"\u2139 ", "# "}) {
      int pass = text.lastIndexOf("\n" + mark + "pass ");
      int fail = text.lastIndexOf("\n" + mark + "fail ");
      if (pass >= 0 && fail >= 0) {
        int passed = numberAfter(lineAt(text, pass + 1), mark + "pass ");
        int failed = numberAfter(lineAt(text, fail + 1), mark + "fail ");
        if (passed >= 0 && failed >= 0) {
          facts.add("Tests: " + passed + " passed, " + failed + " failed.");
          return new int[] {passed + failed, failed};
        }
      }
    }
    return null;
  }

  /**
   * [packages, 0] from {@code go test}'s per-package lines ({@code ok \tgithub.com/a/b\t1.09s},
   * {@code ok \tpkg\t(cached)}) when no package or test failed ({@code FAIL\tpkg}, {@code ---
   * FAIL:}), adding a fact; null if there is none. Go prints no count of tests, so a package stands
   * for its tests.
   */
  private static int[] goPackages(String text, List<String> facts) {
    if (text.contains("--- FAIL:")) {
      return null;
    }
    int ok = 0;
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("FAIL\t") || line.equals("FAIL")) {
        return null;
      }
      if (GO_OK.matcher(line).lookingAt()) {
        ok++;
      }
    }
    if (ok == 0) {
      return null;
    }
    facts.add("Go tests passed in " + ok + (ok == 1 ? " package." : " packages."));
    return new int[] {ok, 0};
  }

  /** A line of {@code go test} for a package whose tests passed. */
  private static final Pattern GO_OK =
      Pattern.compile("ok {1,4}\\t\\S+\\t(?:[\\d.]+s|\\(cached\\))");

  /** The run's size where a summary counts failures only ("5 examples", "3 tests"), or 0. */
  private static int total(String line) {
    for (String word : new String[] {" examples", " tests", " runs", " example", " test"}) {
      int n = numberBefore(line, word);
      if (n >= 0) {
        return n;
      }
    }
    return 0;
  }

  /**
   * Adds the lines stating a coverage threshold ({@link #COVERAGE_MARKERS}) as "Coverage: …" facts,
   * and says whether one of them says the threshold was not met.
   */
  private static boolean coverage(String text, List<String> facts) {
    List<String> lines = new ArrayList<>();
    for (String marker : COVERAGE_MARKERS) {
      int at = text.indexOf(marker);
      if (at >= 0 && lines.size() < MAX_COVERAGE_LINES) {
        String line = TextCuts.atWord(lineAt(text, at), 200);
        if (!lines.contains(line)) {
          lines.add(line);
        }
      }
    }
    boolean unmet = false;
    for (String line : lines) {
      facts.add(COVERAGE_PREFIX + TextCuts.asSentence(line));
      for (String miss : COVERAGE_MISSES) {
        unmet |= line.contains(miss);
      }
    }
    return unmet;
  }

  /** Surefire's list of failed tests, after {@code Failures:} or {@code Errors:} in the summary. */
  private static void failedTests(String text, List<String> facts) {
    int at = text.lastIndexOf("[ERROR] Failures:");
    if (at < 0) {
      at = text.lastIndexOf("[ERROR] Errors:");
    }
    if (at < 0) {
      return;
    }
    int added = 0;
    int pos = text.indexOf('\n', at);
    while (pos >= 0 && added < MAX_FAILED_TESTS) {
      String line = lineAt(text, pos + 1);
      if (!line.startsWith("[ERROR]   ")) {
        break;
      }
      facts.add("Failed: " + TextCuts.asSentence(TextCuts.atWord(line.substring(7).strip(), 200)));
      added++;
      pos = text.indexOf('\n', pos + 1);
    }
  }

  /** Where the last line with a number before one of {@code words} has it, or -1. */
  private static int lastLineWith(String text, String... words) {
    int best = -1;
    for (String word : words) {
      int at = text.lastIndexOf(word);
      if (at > best && numberBefore(lineAt(text, at), word) >= 0) {
        best = at;
      }
    }
    return best;
  }

  private static String stripRule(String line) {
    int s = 0;
    int e = line.length();
    while (s < e && (line.charAt(s) == '=' || line.charAt(s) == ' ')) {
      s++;
    }
    while (e > s && (line.charAt(e - 1) == '=' || line.charAt(e - 1) == ' ')) {
      e--;
    }
    return line.substring(s, e);
  }

  /** The line {@code at} lies in, stripped. */
  static String lineAt(String text, int at) {
    int start = text.lastIndexOf('\n', at - 1) + 1;
    int end = text.indexOf('\n', at);
    return text.substring(start, end < 0 ? text.length() : end).strip();
  }

  /** The number right after {@code label} in {@code line}, or -1. */
  static int numberAfter(String line, String label) {
    int at = line.indexOf(label);
    if (at < 0) {
      return -1;
    }
    int i = at + label.length();
    long value = 0;
    int digits = 0;
    while (i < line.length() && Character.isDigit(line.charAt(i)) && digits < 9) {
      value = value * 10 + (line.charAt(i) - '0');
      i++;
      digits++;
    }
    return digits == 0 ? -1 : (int) value;
  }

  /** The number right before the first {@code word} in {@code line}, or -1. */
  static int numberBefore(String line, String word) {
    int at = line.indexOf(word);
    if (at <= 0) {
      return -1;
    }
    int i = at;
    int digits = 0;
    while (i > 0 && Character.isDigit(line.charAt(i - 1)) && digits < 9) {
      i--;
      digits++;
    }
    return digits == 0 ? -1 : Integer.parseInt(line.substring(i, at));
  }

  private static int exitCode(String text) {
    for (String label :
        new String[] {"Exit code ", "exit code ", "exited with code ", "exit status "}) {
      int code = numberAfter(text, label);
      if (code >= 0) {
        return code;
      }
    }
    return -1;
  }

  /** The first line of {@code text} that starts with one of {@link #SUCCESS_LINES}, or "". */
  private static String successLine(String text) {
    for (String marker : SUCCESS_LINES) {
      for (int at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
        int i = at;
        while (i > 0 && text.charAt(i - 1) != '\n' && Character.isWhitespace(text.charAt(i - 1))) {
          i--;
        }
        if (i == 0 || text.charAt(i - 1) == '\n') { // only blanks before it on its line
          return lineAt(text, at);
        }
      }
    }
    return "";
  }

  /** The first line of {@code text} holding an error marker, cut to 200 characters, or "". */
  static String errorLine(String text) {
    int best = -1;
    for (String marker : ERROR_MARKERS) {
      int at = text.indexOf(marker);
      if (at >= 0 && (best < 0 || at < best)) {
        best = at;
      }
    }
    return best < 0 ? "" : TextCuts.atWord(lineAt(text, best), 200);
  }
}
