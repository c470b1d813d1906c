package dev.memhook.core.internal.recall;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import dev.memhook.api.spi.StoreHit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

  private static double weightOf(List<RankedList> lists, Signal signal) {
    for (RankedList l : lists) {
      if (l.signal() == signal) {
        return l.weight();
      }
    }
    return 0;
  }
}
