package dev.memhook.core.internal.recall;

import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Signal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The relevance gate, both levels absolute (see {@link RecallOptions}): a recall passes anything
 * only if some candidate reaches an evidence floor (cosine or {@linkplain Candidate#textShare text
 * share}); then each candidate must clear a candidate floor on one signal: cosine, text share, or
 * concepts and files shared through graph expansion; a {@linkplain SessionNeighbours neighbouring
 * turn} of a seed passes as its seed did.
 *
 * <p>A cosine over the evidence floor, counted from what unrelated text reaches ({@link
 * GateBasis}), gives evidence only if it is also at least {@link #CLEAR_DEVIATIONS} of the model's
 * standard deviations of unrelated cosines ({@link dev.memhook.api.spi.SimilarityCalibration})
 * above the scope's {@link #CROWD_RANK}th nearest memory. A question the scope cannot answer, asked
 * of a large store of one domain, often finds a crowd of near-equal memories over the floor; one it
 * can answer finds its answer ahead of them. Measured in the model's own spread, the margin carries
 * from a model whose cosines spread wide to one whose cosines crowd near 1.
 *
 * <p>The text side has the same rule in its own units: a text share over the evidence floor gives
 * evidence only if it is also at least {@link #CLEAR_TEXT_SHARE} of the ceiling above the scope's
 * {@link #CROWD_RANK}th text hit. A share counts the query's words a memory holds, weighted by how
 * rare they are; in a large scope of long everyday texts, a question the scope cannot answer still
 * finds its common words ("planning", "weekend", "own") in many memories, and the best of those
 * reaches the evidence floor with a crowd just behind it, while a memory holding the question's
 * rare words stands out from the rest. With fewer text hits than the rank there is no bar, as a
 * small scope or a question of rare words has no crowd to beat.
 *
 * <p>A scope {@linkplain GateBasis#wholeScope searched whole}, one that holds fewer memories than
 * the recall takes from each signal, has a lower cosine evidence floor: halfway between the
 * candidate floor and the evidence floor ({@link #evidenceCosineFloor}). The evidence floor keeps
 * out the best of what a question the scope cannot answer finds, and that best is drawn from every
 * memory of the scope: in a store of hundreds of memories about one person or project, something
 * unrelated to the question often comes close to it; in a scope of a few dozen, such as a project
 * after its first sessions, the best unrelated memory is drawn from few, and the floor that keeps
 * it out also kept out the answers a later session asks for in other words ("how do we stop reruns
 * from inserting the same rows again?" for the fix that made a load idempotent). The scope's crowd
 * still applies. Evidence under the evidence floor itself is weaker, so it vouches only for itself:
 * such a recall passes the candidates that reach the lower floor, not the companions over the
 * candidate floors that evidence at the full floor brings along.
 *
 * <p>A question about trouble ({@link TroubleCue}: "the order summary shows NaN for the total")
 * that reaches no evidence floor passes the bugs the project recorded ({@link MemoryType#BUG}) that
 * clear a candidate floor and, on that signal, the scope's crowd, each vouching only for itself.
 * The question tells the symptom and the bug its cause and fix, in other words, so the model scores
 * the pair modestly. A question that is not about trouble never passes a bug this way; one about
 * trouble the project never met may pass a bug it did meet, which is the rule's cost (both are
 * measured in benchmarks/RESULTS.md, section 36).
 *
 * <p>Stateless and thread-safe.
 */
final class RelevanceGate {

  /**
   * Which nearest memory of the scope the crowd is measured at: the tenth, deep enough that the few
   * memories about one topic (a conversation's several turns on it) do not make a crowd of their
   * own, shallow enough that a small scope has it.
   */
  static final int CROWD_RANK = 10;

  /**
   * How far, in the model's standard deviations of unrelated cosines, a hit over the evidence floor
   * must be above the {@link #CROWD_RANK}th nearest memory to give evidence: a little, so that a
   * crowd of equals does not. Chosen on the LoCoMo and coding dev sets with three models
   * (benchmarks/RESULTS.md, section 22).
   */
  static final double CLEAR_DEVIATIONS = 0.25;

  /**
   * How far, as a share of the query's text ceiling, a text hit over the evidence floor must be
   * above the scope's {@link #CROWD_RANK}th text hit to give evidence: as much as a text hit needs
   * to be a candidate at all ({@link RecallOptions#DEFAULT_MIN_TEXT_SCORE}), so that the best of a
   * crowd matching the question's common words does not. Replayed on the LoCoMo, coding and
   * LongMemEval dev sets with three models (benchmarks/RESULTS.md, section 22.1).
   */
  static final double CLEAR_TEXT_SHARE = 0.10;

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
   * appends the first {@code maxListedDrops} with the best numbers against the evidence floors. In
   * a scope searched whole where no candidate reaches the evidence floor itself, only the
   * candidates that reach the scope's lower evidence floor pass ({@link #evidenceCosineFloor}).
   *
   * @param basis the query's text ceiling and cosine base
   */
  List<Candidate> apply(List<Candidate> fused, GateBasis basis, List<DroppedCandidate> dropped) {
    return apply(fused, basis, over -> List.of(), dropped);
  }

  /**
   * {@link #apply(List, GateBasis, List)} for a question about trouble ({@link TroubleCue}): when
   * no candidate reaches an evidence floor, the candidates over a candidate floor and clear of the
   * scope's crowd that {@code bugsAmong} says record a bug pass, each vouching only for itself (the
   * rest are dropped), instead of none.
   *
   * @param bugsAmong given the candidates over a candidate floor and clear of the crowd, in fused
   *     order, those that record a bug (each memory a {@link MemoryType#BUG}), in the same order;
   *     asked only when no candidate reaches an evidence floor
   */
  List<Candidate> apply(
      List<Candidate> fused,
      GateBasis basis,
      UnaryOperator<List<Candidate>> bugsAmong,
      List<DroppedCandidate> dropped) {
    if (!hasEvidence(fused, basis, evidenceCosineFloor(basis))) {
      List<Candidate> bugs = bugsAmong.apply(clearOfCrowd(fused, basis));
      if (!bugs.isEmpty()) {
        return bugsOnly(fused, bugs, basis, dropped);
      }
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
    // only a scope searched whole has a floor under the evidence floor to have reached alone
    boolean lowerFloorOnly =
        basis.wholeScope()
            && !hasEvidence(fused, basis, basis.cosineFloor(options.evidenceCosine()));
    List<Candidate> passed = new ArrayList<>(fused.size());
    for (Candidate c : fused) {
      if (lowerFloorOnly ? reachesEvidence(c, basis) : passes(c, basis)) {
        passed.add(c);
      } else {
        String detail = floorsDetail(c, basis);
        dropped.add(
            new DroppedCandidate(
                c.id,
                DroppedCandidate.Rule.RELEVANCE_GATE,
                lowerFloorOnly
                    ? String.format(
                        Locale.ROOT,
                        "no candidate reached the evidence floors, and this one not the lower"
                            + " cosine floor %.2f of a scope searched whole: %s",
                        evidenceCosineFloor(basis),
                        detail)
                    : detail,
                c.signalHits()));
      }
    }
    return passed;
  }

  /**
   * The candidates of {@code fused} over a candidate floor on a direct signal and, on that signal,
   * clear of the scope's crowd, in its order: what could answer a question about trouble where
   * nothing reached an evidence floor.
   */
  private List<Candidate> clearOfCrowd(List<Candidate> fused, GateBasis basis) {
    List<Candidate> clear = new ArrayList<>();
    double cosineFloor = basis.cosineFloor(options.minCosine());
    for (Candidate c : fused) {
      double cosine = c.cosine(Double.NEGATIVE_INFINITY);
      double text = c.textShare(basis.ceiling());
      if ((cosine >= cosineFloor && cosine >= basis.crowdCosine())
          || (text >= options.minTextScore() && text >= basis.crowdTextShare())) {
        clear.add(c);
      }
    }
    return clear;
  }

  /** {@code bugs} passed, in the order of {@code fused}; every other candidate dropped. */
  private List<Candidate> bugsOnly(
      List<Candidate> fused,
      List<Candidate> bugs,
      GateBasis basis,
      List<DroppedCandidate> dropped) {
    Set<MemoryId> passing = new HashSet<>();
    bugs.forEach(c -> passing.add(c.id));
    List<Candidate> passed = new ArrayList<>(bugs.size());
    for (Candidate c : fused) {
      if (passing.contains(c.id)) {
        passed.add(c);
      } else {
        dropped.add(
            new DroppedCandidate(
                c.id,
                DroppedCandidate.Rule.RELEVANCE_GATE,
                "no candidate reached the evidence floors; a question about trouble passes only"
                    + " the bugs over a candidate floor: "
                    + floorsDetail(c, basis),
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
    double cosine = c.cosine(Double.NEGATIVE_INFINITY);
    return cosine >= basis.cosineFloor(options.minCosine())
        || c.textShare(basis.ceiling()) >= options.minTextScore();
  }

  private boolean passes(Candidate c, GateBasis basis) {
    // a neighbour's seed cleared a direct floor (GraphExpansion.seeds): it vouches for the turns
    // its speaker told next to it
    return passesDirectFloor(c, basis)
        || c.hits.containsKey(Signal.NEIGHBOUR)
        || (c.hits.containsKey(Signal.GRAPH)
            && c.score(Signal.GRAPH, 0) >= options.minSharedEntities());
  }

  /**
   * Whether any candidate reaches an evidence floor, the cosine one at {@code cosineFloor}: the
   * query-level half of the gate.
   */
  private boolean hasEvidence(List<Candidate> fused, GateBasis basis, double cosineFloor) {
    for (Candidate c : fused) {
      if (reachesEvidence(c, basis, cosineFloor)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code c} reaches an evidence floor: cosine over the evidence floor of {@code basis}
   * ({@link #evidenceCosineFloor}) and clear of the scope's crowd, or text share over the evidence
   * floor and clear of the scope's text crowd.
   */
  boolean reachesEvidence(Candidate c, GateBasis basis) {
    return reachesEvidence(c, basis, evidenceCosineFloor(basis));
  }

  private boolean reachesEvidence(Candidate c, GateBasis basis, double cosineFloor) {
    double cosine = c.cosine(Double.NEGATIVE_INFINITY);
    double text = c.textShare(basis.ceiling());
    return (cosine >= cosineFloor && cosine >= basis.crowdCosine())
        || (text >= options.evidenceTextScore() && text >= basis.crowdTextShare());
  }

  /**
   * The cosine a hit must reach to give a recall with {@code basis} its evidence (with the scope's
   * crowd as well): the evidence floor, or, in a scope searched whole, the floor halfway between
   * the candidate floor and the evidence floor. Never below the candidate floor, as the options
   * keep the evidence floor at or above it; an evidence floor above 1, which closes the cosine
   * route, stays closed.
   */
  double evidenceCosineFloor(GateBasis basis) {
    double share =
        basis.wholeScope() && options.evidenceCosine() <= 1
            ? (options.minCosine() + options.evidenceCosine()) / 2
            : options.evidenceCosine();
    return basis.cosineFloor(share);
  }

  private String evidenceDetail(List<Candidate> fused, GateBasis basis) {
    double ceiling = basis.ceiling();
    double bestCosine = Double.NaN;
    double bestText = Double.NaN;
    for (Candidate c : fused) {
      if (!Double.isNaN(c.cosine)) {
        double cosine = c.cosine;
        bestCosine = Double.isNaN(bestCosine) ? cosine : Math.max(bestCosine, cosine);
      }
      double t = c.textShare(ceiling);
      if (!Double.isNaN(t)) {
        bestText = Double.isNaN(bestText) ? t : Math.max(bestText, t);
      }
    }
    // a signal that found nothing is "-", never NaN: "best text NaN" read as a defect
    String best = Double.isNaN(bestCosine) ? "-" : String.format(Locale.ROOT, "%.3f", bestCosine);
    String whole = basis.wholeScope() ? " for a scope searched whole" : "";
    String cosine =
        basis.hasCrowd()
            ? String.format(
                Locale.ROOT,
                "best cosine %s (floor %.2f%s and above the scope's crowd at %.2f)",
                best,
                evidenceCosineFloor(basis),
                whole,
                basis.crowdCosine())
            : String.format(
                Locale.ROOT, "best cosine %s < %.2f%s", best, evidenceCosineFloor(basis), whole);
    String bestTextShown =
        Double.isNaN(bestText) ? "-" : String.format(Locale.ROOT, "%.3f", bestText);
    String text =
        basis.hasTextCrowd()
            ? String.format(
                Locale.ROOT,
                "best text %s (floor %.2f and above the scope's text crowd at %.2f)",
                bestTextShown,
                options.evidenceTextScore(),
                basis.crowdTextShare())
            : String.format(
                Locale.ROOT, "best text %s < %.2f", bestTextShown, options.evidenceTextScore());
    return "no candidate reached the evidence floors: " + cosine + ", " + text;
  }

  private String floorsDetail(Candidate c, GateBasis basis) {
    double text = c.textShare(basis.ceiling());
    return String.format(
        Locale.ROOT,
        "cosine %s < %.2f, text %s < %.2f, shared %s < %d",
        !Double.isNaN(c.cosine) ? String.format(Locale.ROOT, "%.3f", c.cosine) : "-",
        basis.cosineFloor(options.minCosine()),
        Double.isNaN(text) ? "-" : String.format(Locale.ROOT, "%.3f", text),
        options.minTextScore(),
        c.hits.containsKey(Signal.GRAPH)
            ? String.format(Locale.ROOT, "%.0f", c.score(Signal.GRAPH, 0))
            : "-",
        options.minSharedEntities());
  }
}
