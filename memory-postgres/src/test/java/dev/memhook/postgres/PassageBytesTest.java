package dev.memhook.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The passages column's encoding, without a server. */
class PassageBytesTest {
  private static final int DIMENSION = 384;

  /** The most a stored cosine may differ from the exact one at {@value #DIMENSION} dimensions. */
  private static final double TOLERANCE = 0.005;

  @Test
  void bestCosine_ofRandomPassages_isTheExactBestWithinTheTolerance() {
    long seed = System.nanoTime();
    System.out.println("PassageBytesTest seed " + seed);
    Random random = new Random(seed);
    double worst = 0;
    for (int round = 0; round < 200; round++) {
      List<Embedding> passages = new ArrayList<>();
      for (int p = 0; p < 1 + random.nextInt(MemoryStore.MAX_PASSAGES); p++) {
        passages.add(gaussian(random));
      }
      Embedding query = random.nextBoolean() ? passages.get(0) : gaussian(random);
      worst = Math.max(worst, checkBest(passages, query, "seed " + seed + ", round " + round));
    }
    System.out.println("PassageBytesTest random: worst error " + worst);
  }

  /**
   * Vectors shaped like a sentence model's: a few components several times larger than the rest, so
   * the largest component is far above the typical one, and passages close to the query, with
   * cosines of about 0.5 to 0.9 where a ranking decides.
   */
  @Test
  void bestCosine_ofEmbeddingLikePassages_isTheExactBestWithinTheTolerance() {
    long seed = System.nanoTime();
    System.out.println("PassageBytesTest embedding-like seed " + seed);
    Random random = new Random(seed);
    double worst = 0;
    double[] nearest = new double[300];
    for (int round = 0; round < nearest.length; round++) {
      String where = "seed " + seed + ", round " + round;
      Embedding topic = spiky(random);
      List<Embedding> passages = new ArrayList<>();
      for (int p = 0; p < 1 + random.nextInt(MemoryStore.MAX_PASSAGES); p++) {
        passages.add(mix(topic, spiky(random), 0.7 + 0.25 * random.nextDouble()));
      }
      Embedding query = mix(topic, spiky(random), 0.7 + 0.25 * random.nextDouble());
      nearest[round] = passages.stream().mapToDouble(p -> p.cosine(query)).max().orElseThrow();

      worst = Math.max(worst, checkBest(passages, query, where));
      worst = Math.max(worst, checkBest(passages, passages.get(0), where + ", itself"));
    }
    Arrays.sort(nearest);
    double median = nearest[nearest.length / 2];
    System.out.println(
        "PassageBytesTest embedding-like: best exact cosines "
            + nearest[0]
            + " to "
            + nearest[nearest.length - 1]
            + ", median "
            + median);
    assertTrue(median > 0.5 && median < 0.9, "seed " + seed + ": median cosine " + median);
    System.out.println("PassageBytesTest embedding-like: worst error " + worst);
  }

  @Test
  void encode_scalesEachPassageSoItsLargestComponentIsAFullByte() {
    float[] small = new float[DIMENSION];
    Arrays.fill(small, 0.001f);
    small[7] = -0.004f;
    float[] large = gaussian(new Random(4)).toArray();

    byte[] bytes =
        PassageBytes.encode(List.of(Embedding.of(small), Embedding.of(large)), DIMENSION);

    assertEquals(-127, bytes[6 + 7]);
    assertEquals(32, bytes[6]); // round(127 * 0.001 / 0.004)
    int largest = 0;
    for (int i = 1; i < DIMENSION; i++) {
      largest = Math.abs(large[i]) > Math.abs(large[largest]) ? i : largest;
    }
    assertEquals(large[largest] > 0 ? 127 : -127, bytes[6 + DIMENSION + largest]);
  }

  @Test
  void aZeroPassage_orAZeroQuery_givesZero() {
    Embedding zero = Embedding.of(new float[DIMENSION]);
    Embedding some = gaussian(new Random(1));

    assertEquals(0.0, bestCosine(List.of(zero), some));
    assertEquals(0.0, bestCosine(List.of(some), zero));
  }

  @Test
  void encode_ofNoPassages_isNull_andOfTheMostIsHeaderAndAByteEach() {
    List<Embedding> most = new ArrayList<>();
    Random random = new Random(2);
    for (int i = 0; i < MemoryStore.MAX_PASSAGES; i++) {
      most.add(gaussian(random));
    }

    assertNull(PassageBytes.encode(List.of(), DIMENSION));
    byte[] bytes = PassageBytes.encode(most, DIMENSION);
    assertEquals(6 + MemoryStore.MAX_PASSAGES * DIMENSION, bytes.length);
    assertEquals(PassageBytes.FORMAT, bytes[0]);
    assertEquals(MemoryStore.MAX_PASSAGES, bytes[1]);
  }

  @Test
  void bestCosine_ofBytesOfAnotherDimension_formatOrLength_throws() {
    Embedding some = gaussian(new Random(3));
    byte[] bytes = PassageBytes.encode(List.of(some), DIMENSION);
    byte[] otherFormat = bytes.clone();
    otherFormat[0] = 2;
    byte[] truncated = Arrays.copyOf(bytes, bytes.length - 1);

    assertThrows(
        IllegalArgumentException.class,
        () -> PassageBytes.bestCosine(bytes, new float[DIMENSION + 1]));
    assertThrows(
        IllegalArgumentException.class,
        () -> PassageBytes.bestCosine(otherFormat, PassageBytes.unit(some)));
    assertThrows(
        IllegalArgumentException.class,
        () -> PassageBytes.bestCosine(truncated, PassageBytes.unit(some)));
    assertThrows(
        IllegalArgumentException.class,
        () -> PassageBytes.bestCosine(new byte[] {1, 1}, PassageBytes.unit(some)));
  }

  private static double bestCosine(List<Embedding> passages, Embedding query) {
    return PassageBytes.bestCosine(
        PassageBytes.encode(passages, DIMENSION), PassageBytes.unit(query));
  }

  /**
   * Asserts that the stored best cosine of {@code passages} to {@code query} is the exact one
   * within {@link #TOLERANCE}, and within [-1, 1]; returns the error.
   */
  private static double checkBest(List<Embedding> passages, Embedding query, String where) {
    double exact = passages.stream().mapToDouble(p -> p.cosine(query)).max().orElseThrow();
    double stored = bestCosine(passages, query);
    assertEquals(exact, stored, TOLERANCE, where);
    assertTrue(stored >= -1 && stored <= 1, where + ": " + stored);
    return Math.abs(stored - exact);
  }

  /**
   * A random direction of unit length with two to eight components five to fifteen times the
   * typical one, of either sign, as a sentence model's outlier dimensions are.
   */
  private static Embedding spiky(Random random) {
    float[] v = new float[DIMENSION];
    for (int i = 0; i < DIMENSION; i++) {
      v[i] = (float) random.nextGaussian();
    }
    for (int s = 2 + random.nextInt(7); s > 0; s--) {
      double size = 5 + 10 * random.nextDouble();
      v[random.nextInt(DIMENSION)] = (float) (random.nextBoolean() ? size : -size);
    }
    return Embedding.of(v).normalized();
  }

  /**
   * {@code base + t * noise} with {@code t} chosen so that, {@code noise} being a unit direction
   * nearly orthogonal to the unit {@code base}, its cosine to {@code base} is about {@code cosine}.
   */
  private static Embedding mix(Embedding base, Embedding noise, double cosine) {
    double t = Math.sqrt(1 / (cosine * cosine) - 1);
    float[] v = new float[DIMENSION];
    for (int i = 0; i < DIMENSION; i++) {
      v[i] = (float) (base.get(i) + t * noise.get(i));
    }
    return Embedding.of(v);
  }

  /** A random direction, not of unit length: a cosine does not depend on it. */
  private static Embedding gaussian(Random random) {
    float[] v = new float[DIMENSION];
    for (int i = 0; i < DIMENSION; i++) {
      v[i] = (float) (random.nextGaussian() * 3);
    }
    return Embedding.of(v);
  }
}
