package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.memhook.api.FusionMethod;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Signal;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The weights each query fuses with: shared out by how peaked each signal's own list is, then cut
 * for exact-shaped queries or raised where text found little; and what the result says about it.
 */
class AdaptiveWeightsTest {

  private static final RecallOptions DEFAULTS = RecallOptions.defaults();
  private static final String NATURAL = "why could the app not start?";
  private static final double CEILING = 20;

  private static StoreHit hit(String id, double score) {
    return new StoreHit(MemoryId.of(id), score);
  }

  /** A text list as the engine passes it: padded to 50 values. */
  private static Fusion.RankedList text(List<StoreHit> hits) {
    return new Fusion.RankedList(Signal.TEXT, DEFAULTS.textWeight(), hits, 50);
  }

  private static Fusion.RankedList vector(List<StoreHit> hits) {
    return new Fusion.RankedList(Signal.VECTOR, DEFAULTS.vectorWeight(), hits);
  }

  /** {@code n} hits whose scores fall evenly from {@code top} by {@code step}. */
  private static List<StoreHit> flat(String prefix, int n, double top, double step) {
    List<StoreHit> hits = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      hits.add(hit(prefix + i, top - i * step));
    }
    return hits;
  }

  /** One hit at {@code top}, then {@code n - 1} hits close together far below it. */
  private static List<StoreHit> peaked(String prefix, int n, double top, double rest) {
    List<StoreHit> hits = new ArrayList<>(List.of(hit(prefix + "0", top)));
    for (int i = 1; i < n; i++) {
      hits.add(hit(prefix + i, rest - i * 0.001));
    }
    return hits;
  }

  @Test
  void aPeakedVectorList_beside_aFlatTextList_getsTheLargerShare() {
    Fusion.RankedList flatText = text(flat("t", 50, 10, 0.01));
    Fusion.RankedList peakedVector = vector(peaked("v", 50, 0.8, 0.4));
    AdaptiveWeights.Choice c =
        AdaptiveWeights.choose(DEFAULTS, NATURAL, flatText, peakedVector, false, CEILING);

    assertTrue(c.confidence().vectorPeak() > 5, c.toString());
    assertTrue(c.confidence().textPeak() < 2, c.toString());
    assertTrue(c.vectorWeight() > c.textWeight(), c.toString());
    assertTrue(c.vectorWeight() > DEFAULTS.vectorWeight(), c.toString());
    assertEquals(
        DEFAULTS.textWeight() + DEFAULTS.vectorWeight(),
        c.textWeight() + c.vectorWeight(),
        1e-12,
        "shared out of the configured sum");
  }

  @Test
  void aPeakedTextList_beside_aFlatVectorList_getsTheLargerShare() {
    Fusion.RankedList peakedText = text(peaked("t", 50, 15, 3));
    Fusion.RankedList flatVector = vector(flat("v", 50, 0.6, 0.001));
    AdaptiveWeights.Choice c =
        AdaptiveWeights.choose(DEFAULTS, NATURAL, peakedText, flatVector, false, CEILING);

    assertTrue(c.confidence().textPeak() > c.confidence().vectorPeak(), c.toString());
    assertTrue(c.textWeight() > DEFAULTS.textWeight(), c.toString());
    assertTrue(c.vectorWeight() < DEFAULTS.vectorWeight(), c.toString());
  }

  @Test
  void theWeights_followTheFormula_configuredWeightTimesOnePlusPeakSquared_rescaledToTheSum() {
    Fusion.RankedList t = text(peaked("t", 50, 12, 4));
    Fusion.RankedList v = vector(flat("v", 30, 0.7, 0.01));
    double tp = AdaptiveWeights.peak(t);
    double vp = AdaptiveWeights.peak(v);
    double byText = DEFAULTS.textWeight() * (1 + tp) * (1 + tp);
    double byVector = DEFAULTS.vectorWeight() * (1 + vp) * (1 + vp);
    double sum = DEFAULTS.textWeight() + DEFAULTS.vectorWeight();

    AdaptiveWeights.Choice c = AdaptiveWeights.choose(DEFAULTS, NATURAL, t, v, false, CEILING);

    assertEquals(sum * byText / (byText + byVector), c.textWeight(), 1e-12);
    assertEquals(sum * byVector / (byText + byVector), c.vectorWeight(), 1e-12);
  }

  @Test
  void thePeak_isTheBestScoreAboveTheMean_inStandardDeviations_overThePaddedList() {
    // scores 4, 2, 0 (the last a pad): mean 2, population sigma sqrt(8/3)
    Fusion.RankedList padded =
        new Fusion.RankedList(Signal.TEXT, 1, List.of(hit("a", 4), hit("b", 2)), 3);
    assertEquals(2 / Math.sqrt(8.0 / 3), AdaptiveWeights.peak(padded), 1e-12);
    // unpadded 4, 2: mean 3, sigma 1
    Fusion.RankedList own =
        new Fusion.RankedList(Signal.VECTOR, 1, List.of(hit("a", 4), hit("b", 2)));
    assertEquals(1.0, AdaptiveWeights.peak(own), 1e-12);
  }

  @Test
  void listsWithoutSpread_haveNoPeak_andLeaveTheConfiguredWeights() {
    Fusion.RankedList empty = vector(List.of());
    Fusion.RankedList one = vector(List.of(hit("a", 0.7)));
    Fusion.RankedList equal = vector(List.of(hit("a", 0.5), hit("b", 0.5), hit("c", 0.5)));
    Fusion.RankedList emptyText = text(List.of());
    for (Fusion.RankedList v : List.of(empty, one, equal)) {
      assertEquals(0, AdaptiveWeights.peak(v), v.toString());
    }
    assertEquals(0, AdaptiveWeights.peak(emptyText));

    // neither list has a peak; text found nothing, so vectors weigh at least as much as text
    AdaptiveWeights.Choice c =
        AdaptiveWeights.choose(DEFAULTS, NATURAL, emptyText, equal, false, CEILING);
    assertEquals(DEFAULTS.textWeight(), c.textWeight(), 1e-12);
    assertEquals(DEFAULTS.textWeight(), c.vectorWeight(), 1e-12);

    // an unpadded text list of equal scores, found enough: the configured weights stand
    Fusion.RankedList equalText =
        new Fusion.RankedList(Signal.TEXT, 1, List.of(hit("a", 9), hit("b", 9)));
    AdaptiveWeights.Choice d =
        AdaptiveWeights.choose(DEFAULTS, NATURAL, equalText, one, false, CEILING);
    assertEquals(DEFAULTS.textWeight(), d.textWeight(), 1e-12);
    assertEquals(DEFAULTS.vectorWeight(), d.vectorWeight(), 1e-12);
  }

  @Test
  void anExactQuery_keepsAFifthOfItsVectorShare_whateverTextFound() {
    Fusion.RankedList t = text(peaked("t", 50, 12, 4));
    Fusion.RankedList v = vector(flat("v", 50, 0.7, 0.005));
    AdaptiveWeights.Choice natural =
        AdaptiveWeights.choose(DEFAULTS, "what broke in ship", t, v, false, 30);
    for (double ceiling : new double[] {0, 12 / 0.1, 30}) {
      AdaptiveWeights.Choice exact =
          AdaptiveWeights.choose(DEFAULTS, "what broke in SHIP-E009", t, v, false, ceiling);
      assertEquals(natural.vectorWeight() * 0.2, exact.vectorWeight(), 1e-12);
      assertEquals(natural.textWeight(), exact.textWeight(), 1e-12);
      assertTrue(
          exact
              .description()
              .contains("query shape exact (identifier, path, SHA, error code or flag)"),
          exact.description());
    }
  }

  @Test
  void aNaturalQuery_whereTextFoundLittle_weighsVectorsAtLeastAsMuchAsText() {
    Fusion.RankedList t = text(peaked("t", 50, 1.6, 0.5));
    Fusion.RankedList v = vector(flat("v", 50, 0.45, 0.002));
    AdaptiveWeights.Choice c = AdaptiveWeights.choose(DEFAULTS, NATURAL, t, v, false, CEILING);
    assertEquals(0.08, c.confidence().bestTextShare(), 1e-12);
    assertEquals(c.textWeight(), c.vectorWeight(), 1e-12);
    assertTrue(c.description().contains("text found little (best share 0.08 < 0.15)"));
  }

  @Test
  void theDescription_statesThePeaks_theRule_andTheWeights() {
    Fusion.RankedList t = text(peaked("t", 50, 12, 4));
    Fusion.RankedList v = vector(flat("v", 50, 0.7, 0.005));
    RecallOptions ranks =
        RecallOptions.builder().fusion(FusionMethod.RECIPROCAL_RANKS).weights(2, 0.7, 0).build();
    AdaptiveWeights.Choice c = AdaptiveWeights.choose(ranks, NATURAL, t, v, false, CEILING);
    assertEquals(
        String.format(
            java.util.Locale.ROOT,
            "reciprocal ranks (k 20); peaks text %.2f, vector %.2f; natural language:"
                + " weights text %.2f, vector %.2f, graph 0.00",
            c.confidence().textPeak(),
            c.confidence().vectorPeak(),
            c.textWeight(),
            c.vectorWeight()),
        c.description());
    assertTrue(c.description().matches(".*peaks text \\d+\\.\\d\\d, vector \\d+\\.\\d\\d;.*"));
  }

  @Test
  void aWeightOfZero_staysZero_andTheOtherKeepsItsOwn() {
    Fusion.RankedList t = text(peaked("t", 50, 12, 4));
    Fusion.RankedList v = vector(peaked("v", 50, 0.9, 0.3));
    RecallOptions textOnly = RecallOptions.builder().weights(1, 0, 0).build();
    for (String q : List.of("anything at all", "user_id")) {
      AdaptiveWeights.Choice c = AdaptiveWeights.choose(textOnly, q, t, v, false, 0);
      assertEquals(0, c.vectorWeight());
      assertEquals(1, c.textWeight(), 1e-12);
    }
    RecallOptions vectorOnly = RecallOptions.builder().weights(0, 1, 0).build();
    AdaptiveWeights.Choice c = AdaptiveWeights.choose(vectorOnly, NATURAL, t, v, false, CEILING);
    assertEquals(0, c.textWeight());
    assertEquals(1, c.vectorWeight(), 1e-12);
  }

  @Test
  void aVectorListRankedBySentences_startsFromFiveThirdsOfTheConfiguredVectorWeight() {
    // lists without peaks, text found enough: the prior is all that sets the weights
    Fusion.RankedList equalText =
        new Fusion.RankedList(Signal.TEXT, 1, List.of(hit("a", 9), hit("b", 9)));
    Fusion.RankedList one = vector(List.of(hit("a", 0.7)));

    AdaptiveWeights.Choice whole =
        AdaptiveWeights.choose(DEFAULTS, NATURAL, equalText, one, false, CEILING);
    AdaptiveWeights.Choice sentences =
        AdaptiveWeights.choose(DEFAULTS, NATURAL, equalText, one, true, CEILING);

    assertEquals(1.0, whole.textWeight(), 1e-12);
    assertEquals(0.75, whole.vectorWeight(), 1e-12);
    assertFalse(whole.description().contains("by sentences"), whole.description());
    assertEquals(1.0, sentences.textWeight(), 1e-12);
    assertEquals(1.25, sentences.vectorWeight(), 1e-12);
    assertTrue(
        sentences.description().contains("vector list by sentences (its weight x1.67)"),
        sentences.description());

    // with peaks, the raised prior is what the peaks rescale, to the raised sum
    Fusion.RankedList t = text(peaked("t", 50, 12, 4));
    Fusion.RankedList v = vector(peaked("v", 50, 0.8, 0.4));
    AdaptiveWeights.Choice c = AdaptiveWeights.choose(DEFAULTS, NATURAL, t, v, true, CEILING);
    double tp = c.confidence().textPeak();
    double vp = c.confidence().vectorPeak();
    double byText = (1 + tp) * (1 + tp);
    double byVector = 1.25 * (1 + vp) * (1 + vp);
    assertEquals(2.25 * byText / (byText + byVector), c.textWeight(), 1e-12);
    assertEquals(2.25 * byVector / (byText + byVector), c.vectorWeight(), 1e-12);

    // a vector weight of 0 stays 0, and the fusion text does not claim the list was read
    RecallOptions textOnly = RecallOptions.builder().weights(1, 0, 0).build();
    AdaptiveWeights.Choice none =
        AdaptiveWeights.choose(textOnly, NATURAL, equalText, one, true, CEILING);
    assertEquals(0, none.vectorWeight());
    assertFalse(none.description().contains("by sentences"), none.description());
  }

  @Test
  void overRandomLists_theWeightsAreFiniteNonNegativeAndShareTheConfiguredSum_andRepeat() {
    long seed = Seeds.seed();
    qt().withFixedSeed(seed)
        .withExamples(300)
        .forAll(longs().all(), integers().between(0, 60), integers().between(0, 60))
        .checkAssert(
            (listSeed, textSize, vectorSize) -> {
              Random r = new Random(listSeed);
              Fusion.RankedList t = text(randomList(r, "t", textSize, 25));
              Fusion.RankedList v = vector(randomList(r, "v", vectorSize, 1));
              double ceiling = r.nextInt(3) == 0 ? 0 : 1 + r.nextDouble() * 40;
              boolean bySentences = r.nextBoolean();
              String what = "lists from " + listSeed + ", " + Seeds.replay(seed);
              AdaptiveWeights.Choice c =
                  AdaptiveWeights.choose(DEFAULTS, NATURAL, t, v, bySentences, ceiling);
              assertTrue(Double.isFinite(c.textWeight()) && c.textWeight() >= 0, what);
              assertTrue(Double.isFinite(c.vectorWeight()) && c.vectorWeight() >= 0, what);
              assertTrue(Double.isFinite(c.confidence().textPeak()), what);
              assertTrue(Double.isFinite(c.confidence().vectorPeak()), what);
              double sum =
                  DEFAULTS.textWeight()
                      + DEFAULTS.vectorWeight()
                          * (bySentences ? AdaptiveWeights.SENTENCE_LIST_FACTOR : 1);
              if (c.confidence().bestTextShare() >= AdaptiveWeights.WEAK_TEXT_SHARE) {
                assertEquals(sum, c.textWeight() + c.vectorWeight(), 1e-9, what);
              } else {
                assertTrue(c.vectorWeight() >= c.textWeight(), what);
              }
              assertEquals(
                  c, AdaptiveWeights.choose(DEFAULTS, NATURAL, t, v, bySentences, ceiling), what);
            });
  }

  /** Hits best first with scores in [0, scale), ties and repeated ids included. */
  private static List<StoreHit> randomList(Random r, String prefix, int size, double scale) {
    List<StoreHit> hits = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      double score = r.nextInt(5) == 0 ? scale / 2 : r.nextDouble() * scale;
      hits.add(hit(prefix + r.nextInt(40), score));
    }
    hits.sort((x, y) -> Double.compare(y.score(), x.score()));
    return hits;
  }
}
