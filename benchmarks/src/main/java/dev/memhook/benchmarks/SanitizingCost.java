package dev.memhook.benchmarks;

import dev.memhook.core.Redaction;
import dev.memhook.testkit.AdversarialText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What redacting a character costs, with the default rules and with the personal-data rules on, on
 * prose and on every hostile shape of {@link AdversarialText}: at 100,000 and 1,000,000 characters
 * for every shape, and at 10,000,000 for prose and the four costliest shapes at a million. Each
 * figure is the best of several rounds, every text of a size measured side by side in each round
 * after one warm-up round, so a loaded machine slows them alike.
 *
 * <p>It checks what the sanitizer's design promises and exits with status 1 if a bound is broken:
 * at a million characters and more, no shape costs more than {@value #MAX_COST_OVER_PROSE} times
 * prose per character (every rule reads a character a bounded number of times); from one to ten
 * million the cost per character grows at most {@value #MAX_GROWTH_PER_TENFOLD} times (a quadratic
 * rule would grow it tenfold); and the personal-data rules cost at most {@value
 * #MAX_PERSONAL_DATA_OVER_DEFAULTS} times the defaults on prose (they try their patterns only where
 * a match can start).
 *
 * <pre>{@code java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.SanitizingCost}
 * </pre>
 */
public final class SanitizingCost {

  static final double MAX_COST_OVER_PROSE = 30;
  static final double MAX_GROWTH_PER_TENFOLD = 3;
  static final double MAX_PERSONAL_DATA_OVER_DEFAULTS = 5;

  private SanitizingCost() {}

  public static void main(String[] args) {
    List<String> broken = new ArrayList<>();
    Map<String, Double> proseAt1m = new LinkedHashMap<>();
    for (Map.Entry<String, Redaction> rules :
        Map.of(
                "defaults",
                Redaction.defaults(),
                "with personal data",
                Redaction.defaults().withPersonalData())
            .entrySet()) {
      Redaction redaction = rules.getValue();
      Map<String, Double> at100k = costs(redaction, 100_000, AdversarialText.SHAPES.keySet(), 10);
      Map<String, Double> at1m = costs(redaction, 1_000_000, AdversarialText.SHAPES.keySet(), 3);
      List<String> costliest =
          at1m.keySet().stream()
              .filter(name -> !name.equals("prose"))
              .sorted(Comparator.comparing(at1m::get).reversed())
              .limit(4)
              .toList();
      Map<String, Double> at10m = costs(redaction, 10_000_000, costliest, 2);
      System.out.printf(
          "ns/char, %s:%n  100k %s%n  1M   %s%n  10M  %s%n", rules.getKey(), at100k, at1m, at10m);
      proseAt1m.put(rules.getKey(), at1m.get("prose"));
      for (Map<String, Double> costs : List.of(at1m, at10m)) {
        double prose = costs.get("prose");
        costs.forEach(
            (name, cost) -> {
              if (cost > MAX_COST_OVER_PROSE * prose) {
                broken.add(rules.getKey() + ": " + name + " costs " + cost / prose + "x prose");
              }
            });
      }
      for (String name : at10m.keySet()) {
        double growth = at10m.get(name) / at1m.get(name);
        if (growth > MAX_GROWTH_PER_TENFOLD) {
          broken.add(rules.getKey() + ": " + name + " grows " + growth + "x from 1M to 10M");
        }
      }
    }
    double personalOverDefaults = proseAt1m.get("with personal data") / proseAt1m.get("defaults");
    System.out.printf("personal-data rules on prose: %.2fx the defaults%n", personalOverDefaults);
    if (personalOverDefaults > MAX_PERSONAL_DATA_OVER_DEFAULTS) {
      broken.add(
          "the personal-data rules cost " + personalOverDefaults + "x the defaults on prose");
    }
    if (!broken.isEmpty()) {
      broken.forEach(b -> System.out.println("BOUND BROKEN: " + b));
      System.exit(1);
    }
    System.out.println("every bound holds");
  }

  /**
   * Nanoseconds per character of redacting prose and each named shape at {@code length}: the best
   * of {@code rounds}, after one warm-up round.
   */
  private static Map<String, Double> costs(
      Redaction redaction, int length, Iterable<String> shapes, int rounds) {
    Map<String, String> texts = new LinkedHashMap<>();
    texts.put("prose", AdversarialText.prose(length, length));
    for (String name : shapes) {
      texts.put(name, AdversarialText.SHAPES.get(name).apply(length));
    }
    Map<String, Double> best = new LinkedHashMap<>();
    for (int round = 0; round <= rounds; round++) {
      for (Map.Entry<String, String> e : texts.entrySet()) {
        long start = System.nanoTime();
        redaction.redact(e.getValue());
        double perChar = (System.nanoTime() - start) / (double) e.getValue().length();
        if (round > 0) {
          best.merge(e.getKey(), perChar, Math::min);
        }
      }
    }
    best.replaceAll((name, cost) -> Math.round(cost * 100) / 100.0);
    return best;
  }
}
