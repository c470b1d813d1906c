package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.memhook.api.FusionMethod;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Signal;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Standardised-score fusion: the formula on small lists, the edge cases, and order invariance over
 * random lists drawn from {@link Seeds#seed()} ({@code -Dmemhook.seed=N} replays a failure).
 */
class StandardisedFusionTest {

  private static StoreHit hit(String id, double score) {
    return new StoreHit(MemoryId.of(id), score);
  }

  private static Fusion.RankedList list(Signal s, double weight, StoreHit... hits) {
    return new Fusion.RankedList(s, weight, List.of(hits));
  }

  @Test
  void eachHit_countsItsDistanceAboveItsListsLowestInStandardDeviations_plusAHalf() {
    // text scores 10, 6, 2: min 2, mean 6, population sigma sqrt(32/3)
    double sigma = Math.sqrt(32.0 / 3);
    List<Candidate> fused =
        Fusion.fuseScores(
            List.of(
                list(Signal.TEXT, 1.0, hit("a", 10), hit("b", 6), hit("c", 2)),
                list(Signal.VECTOR, 0.5, hit("c", 0.9), hit("b", 0.7))));
    assertEquals(List.of("a", "b", "c"), fused.stream().map(c -> c.id.value()).toList());
    assertEquals(8 / sigma + 0.5, fused.get(0).fused, 1e-12);
    // vector: min 0.7, sigma 0.1
    assertEquals(4 / sigma + 0.5 + 0.5 * 0.5, fused.get(1).fused, 1e-9);
    assertEquals(0.5 + 0.5 * (0.2 / 0.1 + 0.5), fused.get(2).fused, 1e-9);
    assertEquals(10.0, fused.get(0).score(Signal.TEXT, 0), "the signal hit keeps the raw score");
  }

  @Test
  void aTextSearchThatMatchedOneMemory_countsItAsAStandout_againstAFlatVectorList() {
    List<StoreHit> vector = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      vector.add(hit("v" + i, i < 10 ? 0.55 : 0.50 - i * 0.001));
    }
    vector.add(hit("answer", 0.2));
    List<Candidate> fused =
        Fusion.fuseScores(
            List.of(
                new Fusion.RankedList(Signal.TEXT, 1.0, List.of(hit("answer", 19.5)), 50),
                new Fusion.RankedList(Signal.VECTOR, 0.5, vector)));
    assertEquals("answer", fused.get(0).id.value());
    // padded with 49 zeros: min 0, sigma 19.5 * sqrt(49) / 50; the vector list's lowest: 0.5
    assertEquals(50.0 / 7 + 0.5 + 0.5 * 0.5, fused.get(0).fused, 1e-9);
    List<Candidate> unpadded =
        Fusion.fuseScores(
            List.of(
                new Fusion.RankedList(Signal.TEXT, 1.0, List.of(hit("answer", 19.5))),
                new Fusion.RankedList(Signal.VECTOR, 0.5, vector)));
    assertEquals("v0", unpadded.get(0).id.value(), "without padding one hit counts 1.5 only");
  }

  @Test
  void aListWithOneHit_orAllScoresEqual_countsEachHitAsOneAndAHalf() {
    List<Candidate> single = Fusion.fuseScores(List.of(list(Signal.TEXT, 2.0, hit("a", 3))));
    assertEquals(2.0 * Fusion.FLAT, single.get(0).fused, 1e-12);
    List<Candidate> flat =
        Fusion.fuseScores(List.of(list(Signal.VECTOR, 1.0, hit("a", 0.4), hit("b", 0.4))));
    assertEquals(Fusion.FLAT, flat.get(0).fused, 1e-12);
    assertEquals(Fusion.FLAT, flat.get(1).fused, 1e-12);
    assertEquals("a", flat.get(0).id.value(), "ties go by the store's order");
    // the store's order, not the ids': "b" was listed first
    List<Candidate> listedFirst =
        Fusion.fuseScores(List.of(list(Signal.VECTOR, 1.0, hit("b", 0.4), hit("a", 0.4))));
    assertEquals(List.of("b", "a"), listedFirst.stream().map(c -> c.id.value()).toList());
    // a tie between signals: the one the text signal listed, before one only vectors listed
    List<Candidate> acrossSignals =
        Fusion.fuseScores(
            List.of(list(Signal.VECTOR, 1.0, hit("a", 0.4)), list(Signal.TEXT, 1.0, hit("z", 3))));
    assertEquals(List.of("z", "a"), acrossSignals.stream().map(c -> c.id.value()).toList());
  }

  @Test
  void aTextLeaderStandingFarAboveItsList_keepsFirstPlace_oneThatBarelyLeads_doesNot() {
    // x: second for text, first for vectors; the leader: first for text, fifth for vectors
    List<StoreHit> vector = new ArrayList<>(List.of(hit("x", 0.80)));
    for (int i = 0; i < 3; i++) {
      vector.add(hit("v" + i, 0.60 - 0.01 * i));
    }
    vector.add(hit("leader", 0.56));
    for (int i = 0; i < 15; i++) {
      vector.add(hit("w" + i, 0.55 - 0.01 * i));
    }
    List<StoreHit> evenText = new ArrayList<>(List.of(hit("leader", 5.0), hit("x", 4.9)));
    List<StoreHit> standoutText = new ArrayList<>(List.of(hit("leader", 9.0), hit("x", 4.9)));
    for (int i = 0; i < 19; i++) {
      evenText.add(hit("t" + i, 4.8 - 0.1 * i));
      standoutText.add(hit("t" + i, 4.8 - 0.1 * i));
    }
    assertEquals("x", first(FusionMethod.STANDARDISED_SCORES, evenText, vector));
    assertEquals("leader", first(FusionMethod.STANDARDISED_SCORES, standoutText, vector));
    // ranks alone cannot see the gap: the same order both times
    assertEquals("x", first(FusionMethod.RECIPROCAL_RANKS, evenText, vector));
    assertEquals("x", first(FusionMethod.RECIPROCAL_RANKS, standoutText, vector));
  }

  private static String first(FusionMethod method, List<StoreHit> text, List<StoreHit> vector) {
    return Fusion.fuse(
            List.of(
                new Fusion.RankedList(Signal.TEXT, 1.0, text),
                new Fusion.RankedList(Signal.VECTOR, 0.5, vector)),
            method,
            20)
        .get(0)
        .id
        .value();
  }

  @Test
  void fusion_isInvariantToTheOrderSignalsAreCombinedIn_andOrdersBestFirstThenByFirstListing() {
    long seed = Seeds.seed();
    qt().withFixedSeed(seed)
        .withExamples(300)
        .forAll(longs().all(), integers().between(0, 30))
        .checkAssert(
            (listSeed, size) -> {
              Random r = new Random(listSeed);
              List<Fusion.RankedList> lists = new ArrayList<>();
              for (Signal s : Signal.values()) {
                lists.add(new Fusion.RankedList(s, r.nextDouble() * 2, randomList(r, size)));
              }
              String what = "lists from " + listSeed + ", " + Seeds.replay(seed);
              List<Candidate> fused = Fusion.fuseScores(lists);
              List<String> expected = Candidates.render(fused);
              Collections.shuffle(lists, r);
              assertEquals(expected, Candidates.render(Fusion.fuseScores(lists)), what);
              for (int i = 1; i < fused.size(); i++) {
                Candidate before = fused.get(i - 1);
                Candidate after = fused.get(i);
                assertTrue(Candidates.ranksAbove(lists, before, after), what);
                assertTrue(Double.isFinite(after.fused) && after.fused >= 0, what);
              }
            });
  }

  private static List<StoreHit> randomList(Random r, int size) {
    List<StoreHit> hits = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      // few distinct ids and scores, so repeats and ties happen
      hits.add(hit("m" + r.nextInt(40), r.nextInt(4) == 0 ? 1.0 : r.nextGaussian() * 3));
    }
    hits.sort((x, y) -> Double.compare(y.score(), x.score()));
    return hits;
  }
}
