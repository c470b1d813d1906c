package dev.memhook.core.internal.recall;

import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The relevance gate, both levels absolute (see {@link RecallOptions}): a recall passes anything
 * only if some candidate reaches an evidence floor (cosine or {@linkplain Candidate#textShare text
 * share}); then each candidate must clear a candidate floor on one signal: cosine, text share, or
 * concepts and files shared through graph expansion. Stateless and thread-safe.
 */
final class RelevanceGate {

  private final RecallOptions options;
  private final int maxListedDrops;

  /**
   * A gate with the floors of {@code options}.
   *
   * @param maxListedDrops how many candidates a recall without evidence lists as dropped, from the
   *     top of the fused order; every candidate that fails its floors is listed
   */
  RelevanceGate(RecallOptions options, int maxListedDrops) {
    this.options = options;
    this.maxListedDrops = maxListedDrops;
  }

  /**
   * The candidates of {@code fused} that pass, in its order. Appends a {@link
   * DroppedCandidate.Rule#RELEVANCE_GATE} drop to {@code dropped} for each that fails, with its
   * numbers against the floors; or, when no candidate reaches an evidence floor, passes none and
   * appends the first {@code maxListedDrops} with the best numbers against the evidence floors.
   *
   * @param basis the query's text ceiling and cosine base
   */
  List<Candidate> apply(List<Candidate> fused, GateBasis basis, List<DroppedCandidate> dropped) {
    if (!hasEvidence(fused, basis)) {
      String detail = evidenceDetail(fused, basis);
      int listed = Math.min(fused.size(), maxListedDrops);
      for (int i = 0; i < listed; i++) {
        dropped.add(
            new DroppedCandidate(
                fused.get(i).id,
                DroppedCandidate.Rule.RELEVANCE_GATE,
                detail,
                fused.get(i).signalHits()));
      }
      return List.of();
    }
    List<Candidate> passed = new ArrayList<>(fused.size());
    for (Candidate c : fused) {
      if (passes(c, basis)) {
        passed.add(c);
      } else {
        dropped.add(
            new DroppedCandidate(
                c.id,
                DroppedCandidate.Rule.RELEVANCE_GATE,
                floorsDetail(c, basis),
                c.signalHits()));
      }
    }
    return passed;
  }

  /**
   * Whether {@code c} clears the candidate floor of a direct signal, cosine or text share: the
   * gate's per-candidate test without the graph route, and what makes a candidate a graph seed.
   */
  boolean passesDirectFloor(Candidate c, GateBasis basis) {
    double cosine = c.score(Signal.VECTOR, Double.NEGATIVE_INFINITY);
    return cosine >= basis.cosineFloor(options.minCosine())
        || c.textShare(basis.ceiling()) >= options.minTextScore();
  }

  private boolean passes(Candidate c, GateBasis basis) {
    return passesDirectFloor(c, basis)
        || (c.hits.containsKey(Signal.GRAPH)
            && c.score(Signal.GRAPH, 0) >= options.minSharedEntities());
  }

  /** Whether any candidate reaches an evidence floor: the query-level half of the gate. */
  private boolean hasEvidence(List<Candidate> fused, GateBasis basis) {
    for (Candidate c : fused) {
      if (reachesEvidence(c, basis)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code c} reaches an evidence floor, cosine or text share. */
  boolean reachesEvidence(Candidate c, GateBasis basis) {
    double cosine = c.score(Signal.VECTOR, Double.NEGATIVE_INFINITY);
    return cosine >= basis.cosineFloor(options.evidenceCosine())
        || c.textShare(basis.ceiling()) >= options.evidenceTextScore();
  }

  private String evidenceDetail(List<Candidate> fused, GateBasis basis) {
    double ceiling = basis.ceiling();
    double bestCosine = Double.NaN;
    double bestText = Double.NaN;
    for (Candidate c : fused) {
      if (c.hits.containsKey(Signal.VECTOR)) {
        double cosine = c.score(Signal.VECTOR, 0);
        bestCosine = Double.isNaN(bestCosine) ? cosine : Math.max(bestCosine, cosine);
      }
      double t = c.textShare(ceiling);
      if (!Double.isNaN(t)) {
        bestText = Double.isNaN(bestText) ? t : Math.max(bestText, t);
      }
    }
    // a signal that found nothing is "-", never NaN: "best text NaN" read as a defect
    return String.format(
        Locale.ROOT,
        "no candidate reached the evidence floors: best cosine %s < %.2f, best text %s < %.2f",
        Double.isNaN(bestCosine) ? "-" : String.format(Locale.ROOT, "%.3f", bestCosine),
        basis.cosineFloor(options.evidenceCosine()),
        Double.isNaN(bestText) ? "-" : String.format(Locale.ROOT, "%.3f", bestText),
        options.evidenceTextScore());
  }

  private String floorsDetail(Candidate c, GateBasis basis) {
    double text = c.textShare(basis.ceiling());
    return String.format(
        Locale.ROOT,
        "cosine %s < %.2f, text %s < %.2f, shared %s < %d",
        c.hits.containsKey(Signal.VECTOR)
            ? String.format(Locale.ROOT, "%.3f", c.score(Signal.VECTOR, 0))
            : "-",
        basis.cosineFloor(options.minCosine()),
        Double.isNaN(text) ? "-" : String.format(Locale.ROOT, "%.3f", text),
        options.minTextScore(),
        c.hits.containsKey(Signal.GRAPH)
            ? String.format(Locale.ROOT, "%.0f", c.score(Signal.GRAPH, 0))
            : "-",
        options.minSharedEntities());
  }
}
