package dev.memhook.core.internal.sanitize;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.testkit.AdversarialText;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sanitizer against generated hostile text, with the default rules and with the personal-data
 * rules on: every case sanitizes without error and idempotently, also every hostile shape at a
 * million characters and the worst at ten million, within a bound only super-linear cost reaches.
 * What a character costs on each shape, against prose and from one to ten million characters, is
 * measured by the benchmarks' {@code SanitizingCost}, where timing belongs.
 */
class SanitizerAdversarialTest {

  private static final Sanitizer DEFAULTS = Sanitizer.defaults();
  private static final Sanitizer WITH_PERSONAL_DATA = Sanitizer.create(List.of(), true);

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

  /**
   * A linear sanitizer takes seconds for these texts on a loaded machine; a quadratic rule would
   * take hours on ten million characters, so the timeout catches it without measuring anything.
   */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
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

  /**
   * Every shape at a million characters: a quadratic rule on any of them takes hours there, which
   * the timeout catches; a linear sanitizer takes seconds for all of them.
   */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void everyShapeAtAMillionCharacters_sanitizesWithoutError_andIdempotently() {
    for (Map.Entry<String, IntFunction<String>> shape : AdversarialText.SHAPES.entrySet()) {
      String text = shape.getValue().apply(1_000_000);
      for (Sanitizer sanitizer : List.of(DEFAULTS, WITH_PERSONAL_DATA)) {
        String once = sanitizer.sanitize(text);
        assertEquals(
            once,
            sanitizer.sanitize(once),
            () -> shape.getKey() + " is not sanitized idempotently with " + sanitizer);
      }
    }
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
