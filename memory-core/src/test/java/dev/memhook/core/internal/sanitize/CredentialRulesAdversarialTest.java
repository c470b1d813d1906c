package dev.memhook.core.internal.sanitize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.memhook.testkit.AdversarialText;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Near-misses of every credential rule at a million characters: each rule finishes within its step
 * budget (the bound; wall-clock time is not asserted, the machine is noisy), and sanitizing the
 * whole text does not fail closed.
 */
class CredentialRulesAdversarialTest {

  private static final int LENGTH = 1_000_000;

  private static final String BASE64URL =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  /** Each text repeats its unit to a million characters, or is a prefix and a million more. */
  static Stream<Arguments> nearMisses() {
    Map<String, String> units =
        Map.ofEntries(
            Map.entry("glpat- run", "glpat-"),
            Map.entry("gldt- and glrt- runs", "gldt-glrt-"),
            Map.entry("glptt- run", "glptt-"),
            Map.entry("short glpat tokens", "glpat-abcdefghij "),
            Map.entry("routable suffix near-misses", "glpat-abcdefghijklmnopqrst.1."),
            Map.entry("npm_ run", "npm_"),
            Map.entry("npm_config run", "npm_config_"),
            Map.entry("npm tokens one short", "npm_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hI "),
            Map.entry("pypi- run", "pypi-"),
            Map.entry("pypi prefix run", "pypi-AgEIcHlwaS5vcmc"),
            Map.entry("pypi prefixes, short", "pypi-AgEIcHlwaS5vcmcAbc "),
            Map.entry("xapp- run", "xapp-"),
            Map.entry("xoxe.xoxp run", "xoxe.xoxp"),
            Map.entry("xoxe. run", "xoxe."),
            Map.entry("hooks.slack.com run", "hooks.slack.com/"),
            Map.entry("webhook paths, short", "hooks.slack.com/services/T0/ "),
            Map.entry("sk-ant- run", "sk-ant-"),
            Map.entry("sk-proj- run", "sk-proj-"),
            Map.entry("classic sk- one short", "sk-" + "a".repeat(47) + " "),
            Map.entry("dash run", "-"),
            Map.entry("underscore run", "_"),
            Map.entry("dash underscore run", "-_"),
            Map.entry("dot run", "."),
            Map.entry("backslash run", "\\"),
            Map.entry("escaped quotes", "\\\""),
            Map.entry("escaped empty keys", "{\\\"apiKey\\\":\\\""),
            Map.entry("SecretAccessKey run", "SecretAccessKey"),
            Map.entry("unclosed SecretAccessKey values", "\"SecretAccessKey\": \""),
            Map.entry("aws_secret_access_key= run", "aws_secret_access_key="));
    Stream<Arguments> repeated =
        units.entrySet().stream()
            .map(e -> Arguments.of(e.getKey(), AdversarialText.repeatTo(e.getValue(), LENGTH)));
    Stream<Arguments> longTails =
        Stream.of(
            Arguments.of("pypi- and a million base64", "pypi-" + base64(LENGTH)),
            Arguments.of(
                "pypi prefix and a million base64", "pypi-AgEIcHlwaS5vcmc" + base64(LENGTH)),
            Arguments.of("glpat- and a million base64", "glpat-" + base64(LENGTH)),
            Arguments.of("npm_ and a million letters", "npm_" + "a".repeat(LENGTH)),
            Arguments.of("sk- and a million letters", "sk-" + "a".repeat(LENGTH)),
            Arguments.of("xapp- and a million dashes", "xapp-" + "-".repeat(LENGTH)),
            Arguments.of(
                "webhook and a million slashes", "hooks.slack.com/services/" + "/".repeat(LENGTH)),
            Arguments.of("apiKey and a million backslashes", "\"apiKey\": " + "\\".repeat(LENGTH)));
    return Stream.concat(repeated, longTails);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nearMisses")
  void everyRule_finishesWithinItsStepBudget_onAMillionCharacterNearMiss(String name, String text) {
    for (Rule rule : CredentialRules.all()) {
      try {
        rule.find(new Subject(text), new Edits());
      } catch (StepBudget.Exceeded e) {
        fail("rule '" + rule.kind() + "' spent its step budget on " + name);
      }
    }
    String once = Sanitizer.defaults().sanitize(text); // fails closed if a budget is spent
    assertEquals(once, Sanitizer.defaults().sanitize(once), () -> name + " is not idempotent");
  }

  private static String base64(int length) {
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      // a fixed, irregular walk through the alphabet: no seed needed, no accidental structure
      sb.append(BASE64URL.charAt((int) ((i * 2_654_435_761L >>> 7) % BASE64URL.length())));
    }
    return sb.toString();
  }
}
