package dev.memhook.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

  @Test
  void bestCosine_ofRandomPassages_isTheExactBestWithinAHundredth() {
    long seed = System.nanoTime();
    System.out.println("PassageBytesTest seed " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      List<Embedding> passages = new ArrayList<>();
      for (int p = 0; p < 1 + random.nextInt(MemoryStore.MAX_PASSAGES); p++) {
        passages.add(gaussian(random));
      }
      Embedding query = random.nextBoolean() ? passages.get(0) : gaussian(random);
      double exact = passages.stream().mapToDouble(p -> p.cosine(query)).max().orElseThrow();

      double stored =
          PassageBytes.bestCosine(
              PassageBytes.encode(passages, DIMENSION), PassageBytes.unit(query));

      assertEquals(exact, stored, 0.01, "seed " + seed + ", round " + round);
    }
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

  /** A random direction, not normalised: the encoding normalises. */
  private static Embedding gaussian(Random random) {
    float[] v = new float[DIMENSION];
    for (int i = 0; i < DIMENSION; i++) {
      v[i] = (float) (random.nextGaussian() * 3);
    }
    return Embedding.of(v);
  }
}
