package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Signal;
import dev.memhook.api.spi.StoreHit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

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

  @Test
  void fusion_isInvariantToTheOrderSignalsAreCombinedIn() {
    qt().withExamples(300).forAll(longs().all(), integers().between(0, 30), integers().between(1, 100))
        .checkAssert((seed, size, k) -> {
          Random r = new Random(seed);
          List<Fusion.RankedList> lists = new ArrayList<>(List.of(
              new Fusion.RankedList(Signal.TEXT, r.nextDouble() * 2, randomList(r, size, 40)),
              new Fusion.RankedList(Signal.VECTOR, r.nextDouble() * 2, randomList(r, size, 40)),
              new Fusion.RankedList(Signal.GRAPH, r.nextDouble(), randomList(r, size / 2, 40))));
          List<String> expected = render(Fusion.fuse(lists, k));
          Collections.shuffle(lists, r);
          assertEquals(expected, render(Fusion.fuse(lists, k)), "seed " + seed);
        });
  }

  @Test
  void fusedScore_isTheWeightedReciprocalRankSum() {
    List<Fusion.RankedList> lists = List.of(
        new Fusion.RankedList(Signal.TEXT, 1.0, List.of(new StoreHit(MemoryId.of("a"), 9), new StoreHit(MemoryId.of("b"), 5))),
        new Fusion.RankedList(Signal.VECTOR, 2.0, List.of(new StoreHit(MemoryId.of("b"), 0.9))));
    List<Candidate> fused = Fusion.fuse(lists, 60);
    assertEquals("b", fused.get(0).id.value());
    assertEquals(1.0 / 62 + 2.0 / 61, fused.get(0).fused, 1e-12);
    assertEquals(1.0 / 61, fused.get(1).fused, 1e-12);
  }

  private static List<String> render(List<Candidate> candidates) {
    List<String> out = new ArrayList<>();
    for (Candidate c : candidates) {
      out.add(c.id + "=" + c.fused + c.hits);
    }
    return out;
  }
}
