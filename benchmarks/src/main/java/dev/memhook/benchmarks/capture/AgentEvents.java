package dev.memhook.benchmarks.capture;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.EventData;
import dev.memhook.api.HookType;
import dev.memhook.api.LifecycleEvent;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Lifecycle events as a coding agent's hook script posts them, generated from a seed: 50 % {@code
 * PostToolUse Bash} (a command as {@code {"command": …}} and 300 to 2,000 characters of compiler,
 * test, listing, grep or git output), 20 % {@code PostToolUse Edit} or {@code Read} (a file path,
 * and old and new strings or the file's lines), 15 % {@code PromptSubmit} (1 to 3 sentences), 10 %
 * {@code AgentResponse} (2 to 6 sentences), 5 % {@code ToolFailure}. A session (a random UUID, its
 * own project and cwd) lasts 30 to 70 events; timestamps increase by 1 to 20 seconds, with a gap
 * between sessions; no event carries an event id.
 *
 * <p>Every event is distinct: event {@code i} names a package {@link #uniqueWord(int)} that no
 * other event of the stream names (it appears in a path or a sentence of the event's main text), so
 * no event is a duplicate of another and recall can find each by that word. The same seed gives the
 * same events.
 *
 * <p>Not thread-safe; a generator makes one stream.
 */
final class AgentEvents {

  /** When the first session starts. */
  static final Instant START = Instant.parse("2026-03-02T09:00:00Z");

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String[] PROJECTS = {
    "billing-service", "orbit-web", "ledger-core", "atlas-gateway", "pulse-metrics", "nimbus-cli"
  };
  private static final String[] MODULES = {"core", "api", "web", "storage", "client", "batch"};
  private static final String[] NOUNS = {
    "Order",
    "Invoice",
    "Payment",
    "Session",
    "Token",
    "Cache",
    "Retry",
    "Schedule",
    "Report",
    "Account",
    "Ledger",
    "Refund",
    "Webhook",
    "Tenant",
    "Quota",
    "Export"
  };
  private static final String[] ROLES = {
    "Service",
    "Repository",
    "Controller",
    "Mapper",
    "Validator",
    "Handler",
    "Client",
    "Factory",
    "Parser",
    "Store",
    "Scheduler",
    "Config"
  };
  private static final String[] METHODS = {
    "findById", "applyDiscount", "refreshToken", "parseHeader", "computeTotal", "retryLater",
    "validateInput", "toResponse", "loadSettings", "evictExpired", "mergeLines", "closeQuietly"
  };
  private static final String[] ERRORS = {
    "cannot find symbol",
    "incompatible types: String cannot be converted to long",
    "method does not override or implement a method from a supertype",
    "unreported exception IOException; must be caught or declared to be thrown",
    "variable total might not have been initialized"
  };
  private static final char[] CONSONANTS = "bdfgklmnprstvz".toCharArray();
  private static final char[] VOWELS = "aeiou".toCharArray();

  private final Random random;
  private int index;
  private int sessionLeft;
  private String sessionId;
  private String project;
  private String cwd;
  private Instant time = START;

  AgentEvents(long seed) {
    this.random = new Random(seed);
  }

  /** The next {@code n} events of the stream. */
  List<LifecycleEvent> next(int n) {
    List<LifecycleEvent> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      out.add(next());
    }
    return out;
  }

  /** The next event of the stream. */
  LifecycleEvent next() {
    if (sessionLeft == 0) {
      sessionLeft = 30 + random.nextInt(41);
      sessionId = new UUID(random.nextLong(), random.nextLong()).toString();
      project = PROJECTS[random.nextInt(PROJECTS.length)];
      cwd = "/home/dev/src/" + project;
      time = time.plusSeconds(1_800 + random.nextInt(3_600));
    }
    sessionLeft--;
    time = time.plusSeconds(1 + random.nextInt(20));
    String unique = uniqueWord(index++);
    int kind = random.nextInt(100);
    EventData data;
    HookType type;
    if (kind < 50) {
      type = HookType.POST_TOOL_USE;
      data = bash(unique);
    } else if (kind < 70) {
      type = HookType.POST_TOOL_USE;
      data = random.nextBoolean() ? edit(unique) : read(unique);
    } else if (kind < 85) {
      type = HookType.PROMPT_SUBMIT;
      data = EventData.prompt(prompt(unique));
    } else if (kind < 95) {
      type = HookType.AGENT_RESPONSE;
      data = EventData.message(answer(unique));
    } else {
      type = HookType.TOOL_FAILURE;
      data = failure(unique);
    }
    return LifecycleEvent.builder(type, sessionId)
        .project(project)
        .cwd(cwd)
        .timestamp(time)
        .data(data)
        .build();
  }

  /**
   * The word only event {@code i} of a stream names: letters only (four consonant-vowel syllables
   * and a final {@code x}, so no stemmer shortens it), distinct for every {@code i} below 70⁴.
   */
  static String uniqueWord(int i) {
    StringBuilder sb = new StringBuilder(9);
    int n = i;
    for (int s = 0; s < 4; s++) {
      int syllable = n % (CONSONANTS.length * VOWELS.length);
      n /= CONSONANTS.length * VOWELS.length;
      sb.append(CONSONANTS[syllable / VOWELS.length]).append(VOWELS[syllable % VOWELS.length]);
    }
    return sb.append('x').toString();
  }

  /** An event as the JSON a hook script posts, with the tool input as a JSON value. */
  static String toJson(LifecycleEvent e) {
    ObjectNode root = JSON.createObjectNode();
    root.put("hookType", e.hookType().wireName());
    root.put("sessionId", e.sessionId());
    root.put("project", e.project());
    root.put("cwd", e.cwd());
    root.put("timestamp", e.timestamp().toString());
    ObjectNode data = root.putObject("data");
    EventData d = e.data();
    putIfPresent(data, "toolName", d.toolName());
    if (d.input() != null) {
      try {
        data.set("input", JSON.readTree(d.input()));
      } catch (JsonProcessingException notJson) {
        data.put("input", d.input());
      }
    }
    putIfPresent(data, "output", d.output());
    putIfPresent(data, "prompt", d.prompt());
    putIfPresent(data, "error", d.error());
    putIfPresent(data, "message", d.message());
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e1) {
      throw new UncheckedIOException(e1);
    }
  }

  private static void putIfPresent(ObjectNode node, String field, String value) {
    if (value != null) {
      node.put(field, value);
    }
  }

  private EventData bash(String unique) {
    String cls = className();
    String module = pick(MODULES);
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
          String m = pick(METHODS);
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
                    .append(className())
                    .append("Test\n");
            default ->
                out.append("\tat dev.acme.")
                    .append(unique)
                    .append('.')
                    .append(className())
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
              .append(className())
              .append(".java:")
              .append(10 + random.nextInt(500))
              .append(": error: ")
              .append(pick(ERRORS))
              .append("\n        ")
              .append(pick(METHODS))
              .append("(request.")
              .append(pick(METHODS))
              .append("());\n  symbol:   method ")
              .append(pick(METHODS))
              .append("(String)\n  location: class ")
              .append(className())
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
              .append(className())
              .append(".java\n");
        }
      }
      case 3 -> {
        String m = pick(METHODS);
        command = "grep -rn \"" + m + "\" src/";
        while (out.length() < target) {
          out.append(dir)
              .append('/')
              .append(className())
              .append(".java:")
              .append(5 + random.nextInt(600))
              .append(":        ")
              .append(random.nextBoolean() ? "return " : "var result = ")
              .append(lowerFirst(className()))
              .append('.')
              .append(m)
              .append('(')
              .append(lowerFirst(pick(NOUNS)))
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
              .append(className())
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
    return EventData.tool("Bash", json(Map.of("command", command)), out.toString());
  }

  private EventData edit(String unique) {
    String cls = className();
    String path = cwd + "/src/main/java/dev/acme/" + unique + "/" + cls + ".java";
    String m = pick(METHODS);
    String oldCode =
        "    return " + lowerFirst(pick(NOUNS)) + "." + m + "(" + lowerFirst(pick(NOUNS)) + "Id);";
    String newCode =
        "    if ("
            + lowerFirst(pick(NOUNS))
            + "Id == null) {\n      throw new IllegalArgumentException(\""
            + lowerFirst(pick(NOUNS))
            + "Id is required\");\n    }\n"
            + oldCode.replace(m, pick(METHODS));
    Map<String, String> input = new LinkedHashMap<>();
    input.put("file_path", path);
    input.put("old_string", oldCode);
    input.put("new_string", newCode);
    return EventData.tool(
        "Edit",
        json(input),
        "The file " + path + " has been updated. Here's the result of running `cat -n`.");
  }

  private EventData read(String unique) {
    String cls = className();
    String path = cwd + "/src/main/java/dev/acme/" + unique + "/" + cls + ".java";
    StringBuilder out = new StringBuilder();
    out.append("     1\tpackage dev.acme.").append(unique).append(";\n     2\t\n");
    int target = 300 + random.nextInt(900);
    int line = 3;
    out.append("     ").append(line++).append("\tpublic final class ").append(cls).append(" {\n");
    while (out.length() < target) {
      out.append(String.format(Locale.ROOT, "%6d", line++))
          .append("\t  ")
          .append(random.nextBoolean() ? "private final " : "public ")
          .append(className())
          .append(' ')
          .append(random.nextBoolean() ? lowerFirst(pick(NOUNS)) : pick(METHODS) + "()")
          .append(random.nextBoolean() ? ";\n" : " {\n");
    }
    return EventData.tool("Read", json(Map.of("file_path", path)), out.toString());
  }

  private String prompt(String unique) {
    String cls = className();
    String[] sentences = {
      "Why does "
          + cls
          + "Test fail after the change to "
          + pick(METHODS)
          + " in the "
          + unique
          + " package?",
      "Please make "
          + cls
          + "."
          + pick(METHODS)
          + " handle a missing "
          + lowerFirst(pick(NOUNS))
          + " id.",
      "Run the " + pick(MODULES) + " tests again and tell me what still fails.",
      "Keep the public API of " + className() + " as it is.",
      "I prefer constructor injection over field injection in this codebase.",
      "The " + lowerFirst(pick(NOUNS)) + " totals look wrong on the staging report since Monday."
    };
    StringBuilder sb = new StringBuilder(sentences[0]);
    int more = random.nextInt(3);
    for (int s = 0; s < more; s++) {
      sb.append(' ').append(sentences[1 + random.nextInt(sentences.length - 1)]);
    }
    return sb.toString();
  }

  private String answer(String unique) {
    String cls = className();
    String m = pick(METHODS);
    String[] sentences = {
      "I updated "
          + cls
          + "."
          + m
          + " in src/main/java/dev/acme/"
          + unique
          + "/"
          + cls
          + ".java so it checks its input first.",
      "The failing assertion in " + cls + "Test expected the old rounding of the total.",
      "All " + (5 + random.nextInt(200)) + " tests in the " + pick(MODULES) + " module pass now.",
      "I left " + className() + " unchanged because its callers rely on the null result.",
      "The root cause was a stale cache entry in " + className() + " after a refund.",
      "Next, we could move the validation into " + className() + " so both paths share it."
    };
    StringBuilder sb = new StringBuilder(sentences[0]);
    int more = 1 + random.nextInt(5);
    for (int s = 0; s < more; s++) {
      sb.append(' ').append(sentences[1 + random.nextInt(sentences.length - 1)]);
    }
    return sb.toString();
  }

  private EventData failure(String unique) {
    String cls = className();
    String command = "mvn -q -pl " + pick(MODULES) + " verify";
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
          .append(pick(ERRORS))
          .append('\n');
    }
    return EventData.toolFailure("Bash", json(Map.of("command", command)), error.toString());
  }

  private String className() {
    return pick(NOUNS) + pick(ROLES);
  }

  private String pick(String[] values) {
    return values[random.nextInt(values.length)];
  }

  private static String lowerFirst(String s) {
    return Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  private static String json(Map<String, String> fields) {
    try {
      return JSON.writeValueAsString(fields);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
