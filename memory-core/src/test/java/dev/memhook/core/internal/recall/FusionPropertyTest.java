package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Properties of reciprocal-rank fusion over random ranked lists. QuickTheories draws its examples
 * from {@link Seeds#seed()}, so a failure names the seed and {@code -Dmemhook.seed=N} replays it.
 */
class FusionPropertyTest {

  private static List<StoreHit> randomList(Random r, int size, int universe) {
    List<StoreHit> hits = new ArrayList<>();
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < universe; i++) {
      ids.add(i);
    }
    Collections.shuffle(ids, r);
    for (int i = 0; i < Math.min(size, universe); i++) {
      hits.add(new StoreHit(MemoryId.of("m" + ids.get(i)), 100 - i));
    }
    return hits;
  }

  private static List<Fusion.RankedList> randomLists(Random r, int size) {
    return new ArrayList<>(
        List.of(
            new Fusion.RankedList(Signal.TEXT, r.nextDouble() * 2, randomList(r, size, 40)),
            new Fusion.RankedList(Signal.VECTOR, r.nextDouble() * 2, randomList(r, size, 40)),
            new Fusion.RankedList(Signal.GRAPH, r.nextDouble(), randomList(r, size / 2, 40))));
  }

  @Test
  void fusion_isInvariantToTheOrderSignalsAreCombinedIn() {
    long seed = Seeds.seed();
    qt().withFixedSeed(seed)
        .withExamples(300)
        .forAll(longs().all(), integers().between(0, 30), integers().between(1, 100))
        .checkAssert(
            (listSeed, size, k) -> {
              Random r = new Random(listSeed);
              List<Fusion.RankedList> lists = randomLists(r, size);
              List<String> expected = Candidates.render(Fusion.fuse(lists, k));
              Collections.shuffle(lists, r);
              assertEquals(
                  expected,
                  Candidates.render(Fusion.fuse(lists, k)),
                  "lists from " + listSeed + ", " + Seeds.replay(seed));
            });
  }

  @Test
  void fusion_scoresEveryListedIdByItsWeightedReciprocalRanks_bestFirstThenByFirstListing() {
    long seed = Seeds.seed();
    qt().withFixedSeed(seed)
        .withExamples(300)
        .forAll(longs().all(), integers().between(0, 30), integers().between(1, 100))
        .checkAssert(
            (listSeed, size, k) -> {
              Random r = new Random(listSeed);
              List<Fusion.RankedList> lists = randomLists(r, size);
              List<Candidate> fused = Fusion.fuse(lists, k);
              String what = "lists from " + listSeed + ", k " + k + ", " + Seeds.replay(seed);

              Set<MemoryId> listed = new HashSet<>();
              lists.forEach(l -> l.hits().forEach(h -> listed.add(h.id())));
              assertEquals(listed, Set.copyOf(fused.stream().map(c -> c.id).toList()), what);
              assertEquals(listed.size(), fused.size(), "each id once; " + what);
              for (Candidate c : fused) {
                double expected = 0;
                for (Fusion.RankedList l : lists) {
                  int rank = ids(l.hits()).indexOf(c.id) + 1;
                  if (rank > 0) {
                    expected += l.weight() / (k + rank);
                    assertEquals(
                        new SignalHit(l.signal(), rank, l.hits().get(rank - 1).score()),
                        c.hits.get(l.signal()),
                        what);
                  }
                }
                assertEquals(expected, c.fused, 1e-12, c.id + ", " + what);
              }
              for (int i = 1; i < fused.size(); i++) {
                Candidate before = fused.get(i - 1);
                Candidate after = fused.get(i);
                assertTrue(
                    Candidates.ranksAbove(lists, before, after),
                    before.id + " before " + after.id + ", " + what);
              }
            });
  }

  @Test
  void fusedScore_isTheWeightedReciprocalRankSum() {
    List<Fusion.RankedList> lists =
        List.of(
            new Fusion.RankedList(
                Signal.TEXT,
                1.0,
                List.of(new StoreHit(MemoryId.of("a"), 9), new StoreHit(MemoryId.of("b"), 5))),
            new Fusion.RankedList(
                Signal.VECTOR, 2.0, List.of(new StoreHit(MemoryId.of("b"), 0.9))));
    List<Candidate> fused = Fusion.fuse(lists, 60);
    assertEquals("b", fused.get(0).id.value());
    assertEquals(1.0 / 62 + 2.0 / 61, fused.get(0).fused, 1e-12);
    assertEquals(1.0 / 61, fused.get(1).fused, 1e-12);
  }

  private static List<MemoryId> ids(List<StoreHit> hits) {
    return hits.stream().map(StoreHit::id).toList();
  }
}
