package dev.memhook.core.internal.recall;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** A fused candidate: its id, fused score and how each signal ranked it. Not thread-safe. */
final class Candidate {

  /**
   * The order every stage of a recall ranks candidates in: the higher fused score first; between
   * equal scores, the one whose first signal (in {@link Signal} order) returned it, at the better
   * rank there, which for equal store scores is the store's own order; then the id. Ids are drawn
   * at random when memories are stored, so a tie they decided would come out differently for the
   * same memories stored again.
   */
  static final Comparator<Candidate> BEST_FIRST =
      Comparator.<Candidate>comparingDouble(c -> -c.fused)
          .thenComparingLong(Candidate::listedAt)
          .thenComparing(c -> c.id);

  final MemoryId id;
  double fused;
  final Map<Signal, SignalHit> hits = new EnumMap<>(Signal.class);

  /**
   * The cosine of the memory's own vector to the query, as the store's nearest-vector search
   * returned it; NaN if that search did not return it. The relevance gate reads this one, not the
   * {@link Signal#VECTOR} hit's score, which a passage may have raised ({@link SignalSearch}).
   */
  double cosine = Double.NaN;

  Candidate(MemoryId id) {
    this.id = id;
  }

  double score(Signal signal, double absent) {
    SignalHit hit = hits.get(signal);
    return hit == null ? absent : hit.score();
  }

  /** {@link #cosine}, or {@code absent} if the nearest-vector search did not return it. */
  double cosine(double absent) {
    return Double.isNaN(cosine) ? absent : cosine;
  }

  /**
   * This candidate's text score as a share of the query's text-score {@code ceiling} (what the text
   * floors compare), or NaN if text did not find it or the ceiling is 0; NaN clears no floor. The
   * one place this rule lives, for the gate and for the choice of graph seeds alike.
   */
  double textShare(double ceiling) {
    SignalHit text = hits.get(Signal.TEXT);
    return ceiling > 0 && text != null ? text.score() / ceiling : Double.NaN;
  }

  /**
   * Where this candidate was first listed: its first signal's place in {@link Signal} order, then
   * its rank there, as one number that orders them so; last when no signal has listed it.
   */
  long listedAt() {
    for (SignalHit h : hits.values()) { // EnumMap: in signal order
      return ((long) h.signal().ordinal() << 32) | h.rank();
    }
    return Long.MAX_VALUE;
  }

  List<SignalHit> signalHits() {
    return new ArrayList<>(hits.values());
  }
}
