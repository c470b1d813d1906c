package dev.memhook.benchmarks.capture;

import static dev.memhook.benchmarks.capture.CodeVocabulary.lowerFirst;

import dev.memhook.api.capture.EventData;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The data of {@link AgentEvents}' Bash events: a command as {@code {"command": …}} with 300 to
 * 2,000 characters of Maven test, Gradle compile, {@code ls}, {@code grep} or {@code git diff}
 * output, or a failed Maven build's error lines. Each names its event's unique word in a package
 * path.
 *
 * <p>Draws from the stream's shared {@link Random}, so the order of its calls is part of what a
 * seed means. Not thread-safe.
 */
final class BashToolData {

  private final Random random;
  private final CodeVocabulary words;

  BashToolData(Random random, CodeVocabulary words) {
    this.random = random;
    this.words = words;
  }

  /** A {@code PostToolUse} Bash command and its output. */
  EventData completed(String unique) {
    String cls = words.className();
    String module = words.module();
    String dir = "src/main/java/dev/acme/" + unique;
    StringBuilder out = new StringBuilder();
    int target = 300 + random.nextInt(1_701);
    String command;
    switch (random.nextInt(5)) {
      case 0 -> {
        command = "mvn -q -pl " + module + " test -Dtest=" + cls + "Test";
        out.append("[INFO] Running dev.acme.")
            .append(unique)
            .append('.')
            .append(cls)
            .append("Test\n");
        while (out.length() < target) {
          String m = words.method();
          switch (random.nextInt(3)) {
            case 0 ->
                out.append("[ERROR] ")
                    .append(cls)
                    .append("Test.")
                    .append(m)
                    .append(':')
                    .append(20 + random.nextInt(400))
                    .append(" expected: <")
                    .append(random.nextInt(1000))
                    .append("> but was: <")
                    .append(random.nextInt(1000))
                    .append(">\n");
            case 1 ->
                out.append("[INFO] Tests run: ")
                    .append(1 + random.nextInt(40))
                    .append(", Failures: ")
                    .append(random.nextInt(3))
                    .append(", Errors: 0, Skipped: ")
                    .append(random.nextInt(2))
                    .append(", Time elapsed: ")
                    .append(random.nextInt(5))
                    .append('.')
                    .append(random.nextInt(1000))
                    .append(" s - in dev.acme.")
                    .append(unique)
                    .append('.')
                    .append(words.className())
                    .append("Test\n");
            default ->
                out.append("\tat dev.acme.")
                    .append(unique)
                    .append('.')
                    .append(words.className())
                    .append('.')
                    .append(m)
                    .append('(')
                    .append(cls)
                    .append(".java:")
                    .append(10 + random.nextInt(500))
                    .append(")\n");
          }
        }
      }
      case 1 -> {
        command = "./gradlew :" + module + ":compileJava";
        out.append("> Task :").append(module).append(":compileJava FAILED\n");
        while (out.length() < target) {
          out.append(dir)
              .append('/')
              .append(words.className())
              .append(".java:")
              .append(10 + random.nextInt(500))
              .append(": error: ")
              .append(words.error())
              .append("\n        ")
              .append(words.method())
              .append("(request.")
              .append(words.method())
              .append("());\n  symbol:   method ")
              .append(words.method())
              .append("(String)\n  location: class ")
              .append(words.className())
              .append('\n');
        }
      }
      case 2 -> {
        command = "ls -la " + dir;
        out.append("total ").append(8 + random.nextInt(200)).append('\n');
        while (out.length() < target) {
          out.append("-rw-r--r--  1 dev dev ")
              .append(String.format(Locale.ROOT, "%6d", 200 + random.nextInt(20_000)))
              .append(" Mar  ")
              .append(1 + random.nextInt(9))
              .append(' ')
              .append(
                  String.format(Locale.ROOT, "%02d:%02d", random.nextInt(24), random.nextInt(60)))
              .append(' ')
              .append(words.className())
              .append(".java\n");
        }
      }
      case 3 -> {
        String m = words.method();
        command = "grep -rn \"" + m + "\" src/";
        while (out.length() < target) {
          out.append(dir)
              .append('/')
              .append(words.className())
              .append(".java:")
              .append(5 + random.nextInt(600))
              .append(":        ")
              .append(random.nextBoolean() ? "return " : "var result = ")
              .append(lowerFirst(words.className()))
              .append('.')
              .append(m)
              .append('(')
              .append(lowerFirst(words.noun()))
              .append("Id);\n");
        }
      }
      default -> {
        command = "git diff --stat";
        while (out.length() < target) {
          int changed = 1 + random.nextInt(80);
          out.append(' ')
              .append(dir)
              .append('/')
              .append(words.className())
              .append(".java | ")
              .append(changed)
              .append(' ')
              .append("+".repeat(Math.min(changed, 12) / 2 + 1))
              .append("-".repeat(Math.min(changed, 12) / 3))
              .append('\n');
        }
        out.append(' ')
            .append(1 + random.nextInt(20))
            .append(" files changed, ")
            .append(random.nextInt(300))
            .append(" insertions(+), ")
            .append(random.nextInt(200))
            .append(" deletions(-)\n");
      }
    }
    return EventData.tool(
        "Bash", AgentEvents.toolInput(Map.of("command", command)), out.toString());
  }

  /** A {@code ToolFailure}: a Maven build that failed with compiler errors. */
  EventData failed(String unique) {
    String cls = words.className();
    String command = "mvn -q -pl " + words.module() + " verify";
    StringBuilder error = new StringBuilder("Command failed with exit code 1\n");
    int lines = 2 + random.nextInt(5);
    for (int l = 0; l < lines; l++) {
      error
          .append("[ERROR] src/main/java/dev/acme/")
          .append(unique)
          .append('/')
          .append(cls)
          .append(".java:[")
          .append(10 + random.nextInt(400))
          .append(',')
          .append(1 + random.nextInt(60))
          .append("] ")
          .append(words.error())
          .append('\n');
    }
    return EventData.toolFailure(
        "Bash", AgentEvents.toolInput(Map.of("command", command)), error.toString());
  }
}
