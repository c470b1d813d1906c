package dev.memhook.core.internal.recall;

import dev.memhook.api.FusionMethod;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import dev.memhook.api.spi.StoreHit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fuses the signals' ranked lists into one ranking, by either {@link FusionMethod}: standardised
 * scores ({@code fused(d) = Σ_s weight_s · ((score_s(d) − min_s) / σ_s + 0.5)}, min and standard
 * deviation over signal s's own list) or weighted reciprocal ranks ({@code Σ_s weight_s / (k +
 * rank_s(d))}, ranks 1-based), over the signals that returned {@code d}. Either way the result is
 * ordered by {@link Candidate#BEST_FIRST}: by fused score, then by the first signal in {@link
 * Signal} order that listed each and its rank there, then by id, so it depends neither on the order
 * the signals are given in nor, for memories a signal scored alike, on their random ids. Stateless
 * and thread-safe.
 */
final class Fusion {

  /**
   * One signal's ranked list and its weight.
   *
   * @param padTo for standardised scores, the list is scaled as if it held this many hits, the
   *     missing ones scoring 0 (what a text search gives a memory that matches no query word), so a
   *     text search that matched only a few memories counts each of them as a standout; 0 for a
   *     signal whose absent candidates have no known score (vectors, the graph)
   */
  record RankedList(Signal signal, double weight, List<StoreHit> hits, int padTo) {

    /** A list scaled over its own hits only. */
    RankedList(Signal signal, double weight, List<StoreHit> hits) {
      this(signal, weight, hits, 0);
    }

    /** This list with another weight. */
    RankedList withWeight(double newWeight) {
      return new RankedList(signal, newWeight, hits, padTo);
    }
  }

  /**
   * What a standardised hit gets for being in its list at all, in standard deviations: the lowest
   * hit of a list still counts for more than a candidate the signal did not return.
   */
  static final double LISTED = 0.5;

  /** What each hit of a list with one hit, or with all scores equal, counts before its weight. */
  static final double FLAT = 1 + LISTED;

  private Fusion() {}

  /** Fuses {@code lists} by {@code method}; {@code k} is used by reciprocal ranks only. */
  static List<Candidate> fuse(List<RankedList> lists, FusionMethod method, int k) {
    return method == FusionMethod.RECIPROCAL_RANKS ? fuse(lists, k) : fuseScores(lists);
  }

  /**
   * Standardised-score fusion: each hit's score rescaled over its own list, {@code (score − min) /
   * σ + } {@link #LISTED} (population standard deviation; {@link #FLAT} when σ is 0 or the list has
   * one hit), times the list's weight, summed over the signals that returned the candidate. A
   * signal that repeats an id counts its best rank only. {@link SignalHit}s keep the raw scores.
   */
  static List<Candidate> fuseScores(List<RankedList> lists) {
    Map<MemoryId, Candidate> byId = new HashMap<>();
    Map<Signal, Spread> spreads = new EnumMap<>(Signal.class);
    for (RankedList list : lists) {
      spreads.put(list.signal(), Spread.of(list));
      int rank = 0;
      for (StoreHit hit : list.hits()) {
        rank++;
        Candidate c = byId.computeIfAbsent(hit.id(), Candidate::new);
        c.hits.putIfAbsent(list.signal(), new SignalHit(list.signal(), rank, hit.score()));
      }
    }
    List<Candidate> out = new ArrayList<>(byId.values());
    for (Candidate c : out) {
      double sum = 0;
      for (SignalHit h : c.hits.values()) { // EnumMap: signal order, whatever the list order
        Spread spread = spreads.get(h.signal());
        double standard =
            spread.sigma() > 0 ? (h.score() - spread.min()) / spread.sigma() + LISTED : FLAT;
        sum += weightOf(lists, h.signal()) * standard;
      }
      c.fused = sum;
    }
    out.sort(Candidate.BEST_FIRST);
    return out;
  }

  /**
   * How the scores of one list are spread: its lowest score, mean and population standard
   * deviation, over its hits and, for a list with {@link RankedList#padTo}, the zeros up to that
   * many values. The one place that padding rule lives, for standardising a list's scores and for
   * measuring how confident the list is ({@link AdaptiveWeights}).
   *
   * @param min the lowest value (0 when padded)
   * @param mean the mean value
   * @param sigma the population standard deviation; 0 for fewer than two values or all values
   *     equal, never NaN
   */
  record Spread(double min, double mean, double sigma) {

    static final Spread NONE = new Spread(0, 0, 0);

    /** The spread of {@code list}'s scores, padded as the list says. */
    static Spread of(RankedList list) {
      List<StoreHit> hits = list.hits();
      int zeros = Math.max(0, list.padTo() - hits.size());
      int n = hits.size() + zeros;
      if (n < 2) {
        return NONE;
      }
      double min = zeros > 0 ? 0 : Double.POSITIVE_INFINITY;
      double mean = 0;
      for (StoreHit h : hits) {
        min = Math.min(min, h.score());
        mean += h.score();
      }
      mean /= n;
      double squares = zeros * mean * mean;
      for (StoreHit h : hits) {
        squares += (h.score() - mean) * (h.score() - mean);
      }
      double sigma = Math.sqrt(squares / n);
      return Double.isFinite(sigma) && Double.isFinite(mean) ? new Spread(min, mean, sigma) : NONE;
    }
  }

  /** Weighted reciprocal-rank fusion with constant {@code k}. */
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
    out.sort(Candidate.BEST_FIRST);
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
    out.sort(Candidate.BEST_FIRST);
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
