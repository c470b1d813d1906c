package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The graph adds candidates and reorders those below its seeds, but never outranks a seed. */
class FusionBelowSeedsTest {

  private static Candidate direct(String id, double fused) {
    return Candidates.of(id, fused, new SignalHit(Signal.TEXT, 1, 1.0));
  }

  private static Candidate viaGraph(String id, double fused) {
    return Candidates.of(
        id, fused, new SignalHit(Signal.TEXT, 5, 0.5), new SignalHit(Signal.GRAPH, 1, 3.0));
  }

  private static List<String> ids(List<Candidate> candidates) {
    return candidates.stream().map(c -> c.id.value()).toList();
  }

  @Test
  void candidatesTheGraphLiftedAboveASeed_rankJustBelowTheLowestSeed_inTheirOrder() {
    Candidate s1 = direct("s1", 0.060);
    Candidate s2 = direct("s2", 0.050);
    Candidate g1 = viaGraph("g1", 0.070);
    Candidate g2 = viaGraph("g2", 0.052);
    Candidate g3 = viaGraph("g3", 0.040);
    Candidate d1 = direct("d1", 0.055); // not a seed (failed the direct floor), found directly
    Candidate d2 = direct("d2", 0.030);

    List<Candidate> out = Fusion.belowSeeds(List.of(g1, s1, d1, g2, s2, g3, d2), List.of(s1, s2));

    assertEquals(List.of("s1", "d1", "s2", "g1", "g2", "g3", "d2"), ids(out));
    assertTrue(
        g1.fused < s2.fused && g2.fused < g1.fused && g3.fused < g2.fused, ids(out)::toString);
    assertEquals(0.040, g3.fused, 0.0, "a graph candidate already below the seeds keeps its score");
    assertEquals(0.055, d1.fused, 0.0, "a direct candidate keeps its score");
  }

  @Test
  void withoutSeeds_orWithNothingLifted_theOrderStands() {
    List<Candidate> noSeeds = List.of(viaGraph("g", 0.07), direct("d", 0.06));
    assertSame(noSeeds, Fusion.belowSeeds(noSeeds, List.of()));

    Candidate seed = direct("s", 0.07);
    List<Candidate> nothingLifted = List.of(seed, viaGraph("g", 0.06));
    assertSame(nothingLifted, Fusion.belowSeeds(nothingLifted, List.of(seed)));
  }
}
