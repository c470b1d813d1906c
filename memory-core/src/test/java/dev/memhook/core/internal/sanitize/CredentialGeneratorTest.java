package dev.memhook.core.internal.sanitize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.memhook.core.internal.sanitize.CredentialSamples.Sample;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Generated credentials of every built-in kind, in every wrapper a coding agent's event puts them
 * in, between random words: the secret is gone, the one marker names its kind, and every word
 * around it is still there. The seed is printed and named in every failure; {@code
 * -Dmemhook.seed=N} replays a run.
 */
class CredentialGeneratorTest {

  private static final int CASES = 3_000;

  /** The shortest stretch of a secret that must not survive. */
  private static final int WINDOW = 8;

  private static final Pattern MARKER = Pattern.compile("\\[redacted:([a-z0-9-]+)]|\\[private]");

  private static final List<String> WORDS =
      List.of(
          "deploy",
          "gateway",
          "timeout",
          "retries",
          "build",
          "review",
          "cache",
          "node",
          "cluster",
          "merge",
          "branch",
          "commit",
          "release",
          "staging",
          "rollback",
          "schema",
          "query",
          "worker",
          "queue",
          "failed",
          "ran",
          "tests",
          "ok",
          "then",
          "after",
          "with",
          "from");

  enum Wrapper {
    PLAIN,
    QUOTED,
    JSON_VALUE,
    ENV_ASSIGNMENT,
    URL_QUERY,
    NESTED_JSON
  }

  @Test
  void generatedCredentials_areRedactedWithTheirKind_andTheWordsAroundThemStay() {
    long seed = Seeds.seed();
    System.out.println("CredentialGeneratorTest: " + Seeds.replay(seed));
    Random random = new Random(seed);
    Sanitizer sanitizer = Sanitizer.defaults();
    TreeMap<String, Integer> perKind = new TreeMap<>();
    for (int i = 0; i < CASES; i++) {
      Sample sample = CredentialSamples.next(random);
      Wrapper wrapper = Wrapper.values()[random.nextInt(Wrapper.values().length)];
      String before = words(random);
      String after = words(random);
      String input = before + " " + wrap(wrapper, sample) + " " + after;
      String output = sanitizer.sanitize(input);
      int caseNumber = i;
      String where =
          "case "
              + caseNumber
              + " ("
              + sample.kind()
              + " as "
              + wrapper
              + "), "
              + Seeds.replay(seed)
              + "\n  input:  "
              + input
              + "\n  output: "
              + output;
      String survivor = survivingStretch(sample.secret(), output);
      if (survivor != null) {
        fail("'" + survivor + "' of the secret survived in " + where);
      }
      assertEquals(List.of(sample.marker()), markers(output), () -> "markers in " + where);
      assertTrue(output.startsWith(before + " "), () -> "words before were changed in " + where);
      assertTrue(output.endsWith(" " + after), () -> "words after were changed in " + where);
      assertEquals(output, sanitizer.sanitize(output), () -> "not idempotent in " + where);
      perKind.merge(sample.kind(), 1, Integer::sum);
    }
    assertEquals(
        CredentialSamples.KIND_NAMES,
        List.copyOf(perKind.keySet()),
        () -> "kinds never generated, " + Seeds.replay(seed));
    System.out.println("CredentialGeneratorTest: cases per kind " + perKind);
  }

  @Test
  void theSecretCheck_catchesASurvivingStretch() {
    assertEquals("cdefghij", survivingStretch("abcdefghijk", "x cdefghij y"));
    assertEquals("abc", survivingStretch("abc", "x abc y"));
    assertNull(survivingStretch("abcdefghijk", "x abcdefg y"));
  }

  static String wrap(Wrapper wrapper, Sample sample) {
    String name = sample.name();
    String value = sample.value();
    return switch (wrapper) {
      case PLAIN -> sample.plain();
      case QUOTED -> "\"" + sample.plain() + "\"";
      case JSON_VALUE -> json(name, value);
      case ENV_ASSIGNMENT -> {
        String variable = name.replaceAll("[^A-Za-z0-9_]", "_").toUpperCase(Locale.ROOT);
        boolean plain = value.chars().noneMatch(Character::isWhitespace);
        yield "export " + variable + "=" + (plain ? value : "\"" + value + "\"");
      }
      case URL_QUERY ->
          sample.urlSafe()
              ? "https://api.example.com/v1/items?" + name + "=" + value + "&page=2"
              : sample.plain();
      case NESTED_JSON ->
          "{\"event\":\"tool_result\",\"output\":\"" + escape(json(name, value)) + "\"}";
    };
  }

  private static String json(String name, String value) {
    return "{\"" + escape(name) + "\":\"" + escape(value) + "\"}";
  }

  /** {@code s} as the inside of a JSON string. */
  static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  /** The first stretch of {@link #WINDOW} characters of {@code secret} in {@code text}, or null. */
  static String survivingStretch(String secret, String text) {
    if (secret.length() < WINDOW) {
      return text.contains(secret) ? secret : null;
    }
    for (int i = 0; i + WINDOW <= secret.length(); i++) {
      String stretch = secret.substring(i, i + WINDOW);
      if (text.contains(stretch)) {
        return stretch;
      }
    }
    return null;
  }

  private static List<String> markers(String text) {
    List<String> found = new ArrayList<>();
    Matcher m = MARKER.matcher(text);
    while (m.find()) {
      found.add(m.group());
    }
    return found;
  }

  private static String words(Random random) {
    StringBuilder sb = new StringBuilder();
    for (int n = 1 + random.nextInt(6); n > 0; n--) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(WORDS.get(random.nextInt(WORDS.size())));
    }
    return sb.toString();
  }
}
