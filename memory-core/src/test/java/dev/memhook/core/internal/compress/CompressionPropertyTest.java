package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.core.HostileText;
import dev.memhook.testkit.Seeds;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Random and hostile text never makes compression or admission throw or break a limit. */
class CompressionPropertyTest {

  private static final List<String> TOOLS =
      List.of("Bash", "Edit", "Write", "MultiEdit", "Read", "Grep", "apply_patch", "mcp__x__y", "");

  private static final List<String> FRAGMENTS =
      List.of(
          "src/main/java/App.java",
          "C:\\x\\Y.kt",
          "Tests run: 3, Failures: 1",
          "BUILD FAILURE",
          "I prefer ",
          "we decided ",
          "?",
          "{\"command\":\"",
          "\"}",
          "Exit code 2",
          "::::",
          "a.b.c.d.e",
          "NullPointerException",
          "[ERROR] Failures:\n[ERROR]   ",
          "\uD800",
          "\n");

  static java.util.stream.LongStream seeds() {
    return Seeds.seeds(20);
  }

  private static String text(SplittableRandom random) {
    int length = random.nextInt(10) == 0 ? random.nextInt(200_000) : random.nextInt(4_000);
    if (random.nextBoolean()) {
      return HostileText.of(random, length);
    }
    StringBuilder sb = new StringBuilder();
    while (sb.length() < length) {
      sb.append(FRAGMENTS.get(random.nextInt(FRAGMENTS.size())));
      sb.append(random.nextBoolean() ? " " : HostileText.of(random, random.nextInt(20)));
    }
    return sb.toString();
  }

  private static String maybe(SplittableRandom random) {
    return random.nextInt(4) == 0 ? null : text(random);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void randomObservations_compressWithinTheLimits(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    SyntheticCompressor compressor = new SyntheticCompressor();
    for (int i = 0; i < 40; i++) {
      LifecycleEventType hook =
          LifecycleEventType.values()[random.nextInt(LifecycleEventType.values().length)];
      String tool = TOOLS.get(random.nextInt(TOOLS.size()));
      EventData data =
          new EventData(
              tool.isEmpty() ? null : tool,
              maybe(random),
              maybe(random),
              maybe(random),
              maybe(random),
              maybe(random),
              maybe(random),
              null);
      String id = "o" + i;
      String context = Seeds.replay(seed) + ", event " + i + " " + hook;
      CompressedObservation c =
          assertDoesNotThrow(
              () -> compressor.compress(CaptureFixtures.observation(id, hook, data)), context);
      Limits.assertWithin(c, context);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void randomSentences_areJudgedWithoutThrowing(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 200; i++) {
      String sentence = text(random);
      boolean admitted =
          assertDoesNotThrow(() -> FactAdmission.admits(sentence), Seeds.replay(seed));
      if (admitted) {
        assertFalse(
            sentence.strip().endsWith("?") && sentence.length() < Wording.WINDOW,
            Seeds.replay(seed));
      }
      double similarity = NearDuplicates.similarity(sentence, text(random));
      assertTrue(similarity >= 0 && similarity <= 1, Seeds.replay(seed));
    }
  }
}
