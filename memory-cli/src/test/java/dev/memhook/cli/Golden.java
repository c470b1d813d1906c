package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares a command's {@code --json} output with a reviewed file under {@code
 * src/test/resources/golden}, after replacing what changes from run to run: memory ids and instants
 * become numbered placeholders in order of first appearance (so order and identity are still
 * checked), and the store directory becomes {@code <dir>}. Run with {@code
 * -Dmemhook.updateGolden=true} to rewrite the files, then review the diff.
 */
final class Golden {
  private static final Path DIR = Path.of("src/test/resources/golden");
  private static final Pattern ID = Pattern.compile("mem_[0-9a-z]{26}");
  private static final Pattern TIME =
      Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d(\\.\\d+)?)?Z");

  private Golden() {}

  static void assertMatches(String name, String json, Path storeDir) throws IOException {
    String normalised = normalise(json.strip().replace(storeDir.toString(), "<dir>"));
    Path file = DIR.resolve(name + ".json");
    if (Boolean.getBoolean("memhook.updateGolden")) {
      Files.createDirectories(DIR);
      Files.writeString(file, normalised + "\n", StandardCharsets.UTF_8);
      return;
    }
    if (!Files.exists(file)) {
      fail("no golden file " + file + "; run with -Dmemhook.updateGolden=true and review it");
    }
    assertEquals(Files.readString(file, StandardCharsets.UTF_8).strip(), normalised);
  }

  static String normalise(String text) {
    return numbered(numbered(text, ID, "id"), TIME, "time");
  }

  private static String numbered(String text, Pattern p, String label) {
    Map<String, String> seen = new LinkedHashMap<>();
    Matcher m = p.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String placeholder =
          seen.computeIfAbsent(m.group(), k -> "<" + label + "-" + (seen.size() + 1) + ">");
      m.appendReplacement(out, Matcher.quoteReplacement(placeholder));
    }
    m.appendTail(out);
    return out.toString();
  }
}
