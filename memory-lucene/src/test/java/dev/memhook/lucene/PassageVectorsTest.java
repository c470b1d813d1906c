package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.randomVector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The passages' encoding: its size, its precision, and what it refuses to read. */
class PassageVectorsTest {

  @Test
  void encode_takesAHeaderAndOneBytePerDimensionOfEachPassage() {
    Random random = new Random(1);
    List<Embedding> passages = new ArrayList<>();
    for (int i = 0; i < MemoryStore.MAX_PASSAGES; i++) {
      passages.add(randomVector(random, 384));
    }

    assertEquals(6 + 16 * 384, PassageVectors.encode(passages).length);
    assertEquals(6 + 384, PassageVectors.encode(passages.subList(0, 1)).length);
  }

  /**
   * Rounding moves a cosine least where there are many dimensions, each rounding error of either
   * sign: the bounds are a few times the worst error seen, and a model's dimensions are many.
   */
  @ParameterizedTest
  @CsvSource({"8, 0.012", "16, 0.01", "384, 0.003", "1024, 0.003"})
  void bestCosine_isWithinAFewThousandthsOfTheExactCosine(int dimension, double bound) {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    double worst = 0;
    for (int trial = 0; trial < 500; trial++) {
      Embedding passage = randomVector(random, dimension);
      // a query near the passage as well as a random one: the cosines recall cares about are high
      Embedding query =
          trial % 2 == 0 ? randomVector(random, dimension) : nudged(passage, random, 0.3);
      double exact = passage.cosine(query);

      double stored =
          PassageVectors.bestCosine(
              PassageVectors.encode(List.of(passage)), query.normalized().toArray());

      worst = Math.max(worst, Math.abs(stored - exact));
    }
    assertTrue(worst < bound, "worst error " + worst + "; " + Seeds.replay(seed));
  }

  @Test
  void bestCosine_isTheHighestOfThePassages() {
    Embedding x = Embedding.of(1, 0, 0, 0);
    Embedding y = Embedding.of(0, 1, 0, 0);
    Embedding minusX = Embedding.of(-1, 0, 0, 0);
    BytesRef encoded = PassageVectors.encode(List.of(minusX, y, x));

    assertEquals(1.0, PassageVectors.bestCosine(encoded, new float[] {1, 0, 0, 0}), 1e-6);
    assertEquals(0.0, PassageVectors.bestCosine(encoded, new float[] {0, 0, 1, 0}), 1e-6);
  }

  @Test
  void bestCosine_ofAZeroPassage_isZero_andOfAZeroQueryToo() {
    BytesRef zero = PassageVectors.encode(List.of(Embedding.of(0, 0, 0, 0)));

    assertEquals(0.0, PassageVectors.bestCosine(zero, new float[] {1, 0, 0, 0}));
    assertEquals(
        0.0,
        PassageVectors.bestCosine(
            PassageVectors.encode(List.of(Embedding.of(1, 2, 3, 4))), new float[4]));
  }

  @Test
  void bestCosine_ofAnotherFormatOrDimension_isNaN() {
    BytesRef encoded = PassageVectors.encode(List.of(Embedding.of(1, 2, 3, 4)));
    BytesRef newer = BytesRef.deepCopyOf(encoded);
    newer.bytes[0] = (byte) (PassageVectors.FORMAT + 1);
    BytesRef truncated = new BytesRef(encoded.bytes, 0, encoded.length - 1);

    assertTrue(Double.isNaN(PassageVectors.bestCosine(newer, new float[] {1, 0, 0, 0})));
    assertTrue(Double.isNaN(PassageVectors.bestCosine(truncated, new float[] {1, 0, 0, 0})));
    assertTrue(Double.isNaN(PassageVectors.bestCosine(encoded, new float[] {1, 0, 0})));
  }

  /** {@code v} plus Gaussian noise of {@code amount} times its norm per dimension's share. */
  private static Embedding nudged(Embedding v, Random random, double amount) {
    float[] out = v.toArray();
    double scale = amount * v.norm() / Math.sqrt(out.length);
    for (int i = 0; i < out.length; i++) {
      out[i] += (float) (random.nextGaussian() * scale);
    }
    return Embedding.of(out);
  }
}
