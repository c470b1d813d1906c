package dev.memhook.core.internal.recall;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import dev.memhook.api.spi.StoreHit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Weighted reciprocal-rank fusion: {@code fused(d) = Σ_s weight_s / (k + rank_s(d))} over the
 * signals that returned {@code d}, ranks 1-based. The result is ordered by fused score, then by id,
 * so it does not depend on the order the signals are given in. Stateless and thread-safe.
 */
final class Fusion {

  /** One signal's ranked list and its weight. */
  record RankedList(Signal signal, double weight, List<StoreHit> hits) {}

  private static final Comparator<Candidate> BEST_FIRST =
      Comparator.<Candidate>comparingDouble(c -> -c.fused).thenComparing(c -> c.id);

  private Fusion() {}

  static List<Candidate> fuse(List<RankedList> lists, int k) {
    Map<MemoryId, Candidate> byId = new HashMap<>();
    for (RankedList list : lists) {
      int rank = 0;
      for (StoreHit hit : list.hits()) {
        rank++;
        Candidate c = byId.computeIfAbsent(hit.id(), Candidate::new);
        if (c.hits.containsKey(list.signal())) {
          continue; // a signal that repeats an id counts its best rank only
        }
        c.hits.put(list.signal(), new SignalHit(list.signal(), rank, hit.score()));
        c.fused += list.weight() / (k + rank);
      }
    }
    List<Candidate> out = new ArrayList<>(byId.values());
    // sum again in signal order so floating-point addition order never depends on list order
    for (Candidate c : out) {
      double sum = 0;
      for (SignalHit h : c.hits.values()) {
        sum += weightOf(lists, h.signal()) / (k + h.rank());
      }
      c.fused = sum;
    }
    out.sort(BEST_FIRST);
    return out;
  }

  /**
   * {@code sorted} (best first, as {@link #fuse} returns it) with every candidate that the graph
   * lifted above one of {@code seeds} moved to just below the lowest seed, in the order it had, its
   * fused score set just below that seed's. The graph adds candidates and reorders those below its
   * seeds; it never outranks the direct hits that led to it: a memory that merely shares a file
   * with the best answer must not push that answer out of a short recall. A new list; the moved
   * candidates' scores change.
   */
  static List<Candidate> belowSeeds(List<Candidate> sorted, List<Candidate> seeds) {
    Set<MemoryId> seedIds = new HashSet<>();
    seeds.forEach(c -> seedIds.add(c.id));
    int lastSeed = -1;
    for (int i = 0; i < sorted.size(); i++) {
      if (seedIds.contains(sorted.get(i).id)) {
        lastSeed = i;
      }
    }
    List<Candidate> out = new ArrayList<>(sorted.size());
    List<Candidate> lifted = new ArrayList<>();
    for (int i = 0; i <= lastSeed; i++) {
      Candidate c = sorted.get(i);
      boolean byGraph = !seedIds.contains(c.id) && c.hits.containsKey(Signal.GRAPH);
      (byGraph ? lifted : out).add(c);
    }
    if (lifted.isEmpty()) {
      return sorted;
    }
    double score = sorted.get(lastSeed).fused;
    for (Candidate c : lifted) {
      score = Math.nextDown(score);
      c.fused = score;
      out.add(c);
    }
    out.addAll(sorted.subList(lastSeed + 1, sorted.size()));
    out.sort(BEST_FIRST);
    return out;
  }

  private static double weightOf(List<RankedList> lists, Signal signal) {
    for (RankedList l : lists) {
      if (l.signal() == signal) {
        return l.weight();
      }
    }
    return 0;
  }
}
