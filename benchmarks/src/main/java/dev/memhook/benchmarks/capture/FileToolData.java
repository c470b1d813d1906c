package dev.memhook.benchmarks.capture;

import static dev.memhook.benchmarks.capture.CodeVocabulary.lowerFirst;

import dev.memhook.api.capture.EventData;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The data of {@link AgentEvents}' Edit and Read events: a Java file under the session's working
 * directory in a package named by the event's unique word, with old and new strings (Edit) or the
 * file's numbered lines (Read).
 *
 * <p>Draws from the stream's shared {@link Random}, so the order of its calls is part of what a
 * seed means. Not thread-safe.
 */
final class FileToolData {

  private final Random random;
  private final CodeVocabulary words;

  FileToolData(Random random, CodeVocabulary words) {
    this.random = random;
    this.words = words;
  }

  /** A {@code PostToolUse} Edit of a file under {@code cwd}. */
  EventData edit(String unique, String cwd) {
    String cls = words.className();
    String path = cwd + "/src/main/java/dev/acme/" + unique + "/" + cls + ".java";
    String m = words.method();
    String oldCode =
        "    return "
            + lowerFirst(words.noun())
            + "."
            + m
            + "("
            + lowerFirst(words.noun())
            + "Id);";
    String newCode =
        "    if ("
            + lowerFirst(words.noun())
            + "Id == null) {\n      throw new IllegalArgumentException(\""
            + lowerFirst(words.noun())
            + "Id is required\");\n    }\n"
            + oldCode.replace(m, words.method());
    Map<String, String> input = new LinkedHashMap<>();
    input.put("file_path", path);
    input.put("old_string", oldCode);
    input.put("new_string", newCode);
    return EventData.tool(
        "Edit",
        AgentEvents.toolInput(input),
        "The file " + path + " has been updated. Here's the result of running `cat -n`.");
  }

  /** A {@code PostToolUse} Read of a file under {@code cwd}. */
  EventData read(String unique, String cwd) {
    String cls = words.className();
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
          .append(words.className())
          .append(' ')
          .append(random.nextBoolean() ? lowerFirst(words.noun()) : words.method() + "()")
          .append(random.nextBoolean() ? ";\n" : " {\n");
    }
    return EventData.tool("Read", AgentEvents.toolInput(Map.of("file_path", path)), out.toString());
  }
}
