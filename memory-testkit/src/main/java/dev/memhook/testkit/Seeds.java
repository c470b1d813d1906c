package dev.memhook.testkit;

import java.util.SplittableRandom;
import java.util.stream.LongStream;

/**
 * The one seed convention of Memhook's randomised tests, for tests of hosts and stores too.
 *
 * <p>A randomised test takes its seeds from here and shows the seed in its failure: a
 * {@code @ParameterizedTest(name = "seed {0}")} over {@link #seeds(int)} names it in the test's
 * display name, and a test with one seed puts {@link #replay(long)} in its assertion messages.
 * Every run draws new seeds, so the suite explores more cases over time; {@code -Dmemhook.seed=N}
 * makes every randomised test run exactly seed {@code N}, which replays a failure.
 *
 * <p>Stateless and thread-safe.
 */
public final class Seeds {

  /** The system property that fixes the seed: {@code -Dmemhook.seed=N}. */
  public static final String PROPERTY = "memhook.seed";

  private Seeds() {}

  /**
   * {@code count} new seeds, or only the seed {@code -Dmemhook.seed} names when it is set.
   *
   * @throws IllegalArgumentException if {@code count < 1} or the property is not a number
   */
  public static LongStream seeds(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1, got " + count);
    }
    Long fixed = fixedSeed();
    if (fixed != null) {
      return LongStream.of(fixed);
    }
    SplittableRandom random = new SplittableRandom();
    return LongStream.generate(random::nextLong).limit(count);
  }

  /**
   * One seed: the one {@code -Dmemhook.seed} names, or a new one.
   *
   * @throws IllegalArgumentException if the property is not a number
   */
  public static long seed() {
    Long fixed = fixedSeed();
    return fixed != null ? fixed : new SplittableRandom().nextLong();
  }

  /** What a failure message says about {@code seed}: the seed and how to replay it. */
  public static String replay(long seed) {
    return "seed " + seed + " (replay with -D" + PROPERTY + "=" + seed + ")";
  }

  private static Long fixedSeed() {
    String value = System.getProperty(PROPERTY);
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "-D" + PROPERTY + " must be a whole number, got '" + value + "'", e);
    }
  }
}
