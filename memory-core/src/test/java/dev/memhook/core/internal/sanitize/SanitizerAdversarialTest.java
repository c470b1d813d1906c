package dev.memhook.core.internal.sanitize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sanitizer against generated hostile text, with the default rules and with the personal-data
 * rules on: every case sanitizes without error and idempotently, and the cost per character on the
 * worst shapes stays within a fixed factor of plain prose and does not grow with the length (which
 * is what catches quadratic behaviour). The personal-data rules also stay within a fixed factor of
 * the defaults on prose.
 */
class SanitizerAdversarialTest {

  private static final Sanitizer DEFAULTS = Sanitizer.defaults();
  private static final Sanitizer WITH_PERSONAL_DATA = Sanitizer.create(List.of(), true);

  /**
   * How much more a character of the worst shape may cost than a character of prose. The built-in
   * rules read a character a bounded number of times on any shape (a trigger attempt, a token walk,
   * one scan of a quoted value), so the factor is a constant; what it guards against is
   * super-linear cost, which at a million characters is orders of magnitude above any constant, so
   * the bound leaves room for a loaded machine.
   */
  private static final double MAX_COST_OVER_PROSE = 30;

  /**
   * How much the cost per character may grow from 1 M to 10 M characters. Linear rules keep it
   * flat; a quadratic one would grow it tenfold. The margin absorbs cache and GC effects of the
   * larger strings.
   */
  private static final double MAX_GROWTH_PER_TENFOLD = 3;

  /**
   * How much more a character of prose may cost with the personal-data rules on than with the
   * defaults. The personal-data rules scan for the few characters their matches can start with and
   * try their patterns only there, which adds a fraction of the defaults' cost; a rule searched for
   * at every position with {@code find}, as they once were, costs tens of times more.
   */
  private static final double MAX_PERSONAL_DATA_OVER_DEFAULTS = 5;

  static LongStream seeds() {
    return Seeds.seeds(3);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void generatedCases_sanitizeWithoutError_andIdempotently(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<IntFunction<String>> shapes = new ArrayList<>(AdversarialText.SHAPES.values());
    for (int i = 0; i < 2_000; i++) {
      String text =
          switch (random.nextInt(4)) {
            case 0 -> shapes.get(random.nextInt(shapes.size())).apply(random.nextInt(4_000));
            case 1 ->
                AdversarialText.mixture(random, 8)
                    + shapes.get(random.nextInt(shapes.size())).apply(random.nextInt(200))
                    + AdversarialText.mixture(random, 8);
            default -> AdversarialText.mixture(random, 60);
          };
      for (Sanitizer sanitizer : List.of(DEFAULTS, WITH_PERSONAL_DATA)) {
        String once = sanitizer.sanitize(text);
        assertEquals(
            once,
            sanitizer.sanitize(once),
            () ->
                "not idempotent on "
                    + quote(text)
                    + " with "
                    + sanitizer
                    + ", "
                    + Seeds.replay(seed));
      }
    }
  }

  @Test
  void tenMillionCharacterTexts_sanitizeWithoutError_andIdempotently() {
    long seed = Seeds.seed();
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder mixed = new StringBuilder(10_000_000 + 200);
    while (mixed.length() < 10_000_000) {
      mixed.append(AdversarialText.mixture(random, 60));
    }
    for (String text :
        List.of(
            mixed.toString(),
            AdversarialText.SHAPES.get("unclosed quoted secrets").apply(10_000_000),
            AdversarialText.SHAPES.get("card-like digits").apply(10_000_000),
            AdversarialText.SHAPES.get("lone surrogates").apply(10_000_000))) {
      for (Sanitizer sanitizer : List.of(DEFAULTS, WITH_PERSONAL_DATA)) {
        String once = sanitizer.sanitize(text);
        assertEquals(
            once,
            sanitizer.sanitize(once),
            () -> "not idempotent with " + sanitizer + ", " + Seeds.replay(seed));
      }
    }
  }

  @Test
  void personalDataRules_onProse_costWithinAFactorOfTheDefaults() {
    String prose = AdversarialText.prose(2_000_000, 2_000_000);
    double defaults = Double.MAX_VALUE;
    double withPersonalData = Double.MAX_VALUE;
    for (int round = 0; round <= 10; round++) {
      double d = nanosPerChar(DEFAULTS, prose);
      double p = nanosPerChar(WITH_PERSONAL_DATA, prose);
      if (round > 0) { // the first round warms up
        defaults = Math.min(defaults, d);
        withPersonalData = Math.min(withPersonalData, p);
      }
    }
    System.out.printf(
        "ns/char on prose: defaults %.2f, with personal data %.2f%n", defaults, withPersonalData);
    assertTrue(
        withPersonalData <= MAX_PERSONAL_DATA_OVER_DEFAULTS * defaults,
        "with personal data "
            + withPersonalData
            + " ns/char, defaults "
            + defaults
            + " ns/char on the same prose");
  }

  private static double nanosPerChar(Sanitizer sanitizer, String text) {
    long start = System.nanoTime();
    sanitizer.sanitize(text);
    return (System.nanoTime() - start) / (double) text.length();
  }

  static Stream<Arguments> sanitizers() {
    return Stream.of(
        Arguments.of("defaults", DEFAULTS), Arguments.of("with personal data", WITH_PERSONAL_DATA));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sanitizers")
  void costPerCharacter_onEveryShape_isWithinAFactorOfProse_andFlatFromOneToTenMillion(
      String rules, Sanitizer sanitizer) {
    // 100k and 1M characters for every shape; 10M for prose and the costliest shapes at 1M.
    Map<String, Double> at100k = costs(sanitizer, 100_000, AdversarialText.SHAPES.keySet(), 10);
    Map<String, Double> at1m = costs(sanitizer, 1_000_000, AdversarialText.SHAPES.keySet(), 3);
    List<String> costliest =
        at1m.keySet().stream()
            .filter(name -> !name.equals("prose"))
            .sorted(Comparator.comparing(at1m::get).reversed())
            .limit(4)
            .toList();
    Map<String, Double> at10m = costs(sanitizer, 10_000_000, costliest, 2);
    StringBuilder report = new StringBuilder("ns/char, " + rules + ":\n");
    for (Map<String, Double> costs : List.of(at100k, at1m, at10m)) {
      report.append(costs).append('\n');
    }
    System.out.print(report);
    // a round at 100k characters is too short to compare on a shared machine; it is reported, and
    // the bound is checked where a round takes long enough to measure
    for (Map<String, Double> costs : List.of(at1m, at10m)) {
      double prose = costs.get("prose");
      costs.forEach(
          (name, cost) ->
              assertTrue(
                  cost <= MAX_COST_OVER_PROSE * prose,
                  name + " costs " + cost / prose + "x prose per character; ns/char:\n" + report));
    }
    for (String name : at10m.keySet()) {
      assertTrue(
          at10m.get(name) <= MAX_GROWTH_PER_TENFOLD * at1m.get(name),
          name
              + " costs "
              + at10m.get(name) / at1m.get(name)
              + "x more per character at 10M"
              + " than at 1M; ns/char:\n"
              + report);
    }
  }

  /**
   * Nanoseconds per character of sanitizing prose and each named shape at {@code length}: the best
   * of {@code rounds}, measured side by side (prose and every shape in each round) after one
   * warm-up round, so a loaded machine slows them alike.
   */
  private static Map<String, Double> costs(
      Sanitizer sanitizer, int length, Iterable<String> shapes, int rounds) {
    Map<String, String> texts = new LinkedHashMap<>();
    texts.put("prose", AdversarialText.prose(length, length));
    for (String name : shapes) {
      texts.put(name, AdversarialText.SHAPES.get(name).apply(length));
    }
    Map<String, Double> best = new LinkedHashMap<>();
    for (int round = 0; round <= rounds; round++) {
      for (Map.Entry<String, String> e : texts.entrySet()) {
        double perChar = nanosPerChar(sanitizer, e.getValue());
        if (round > 0) {
          best.merge(e.getKey(), perChar, Math::min);
        }
      }
    }
    best.replaceAll((name, cost) -> Math.round(cost * 100) / 100.0);
    return best;
  }

  private static String quote(String text) {
    String shown = text.length() > 300 ? text.substring(0, 300) + "…" : text;
    StringBuilder sb = new StringBuilder("\"");
    shown
        .chars()
        .forEach(
            c -> {
              if (c < 0x20 || Character.isSurrogate((char) c)) {
                sb.append(String.format("\\u%04x", c));
              } else {
                sb.append((char) c);
              }
            });
    return sb.append('"').toString();
  }
}
