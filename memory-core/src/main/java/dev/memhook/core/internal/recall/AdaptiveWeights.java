package dev.memhook.core.internal.recall;

import dev.memhook.api.FusionMethod;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.spi.StoreHit;
import java.util.Locale;

/**
 * The text and vector weights one recall fuses with, and why: the one place fusion adapts to the
 * query (see {@link FusionMethod}).
 *
 * <p>Design note. A fixed ratio of weights cannot serve both a question whose words name its answer
 * and a paraphrase that shares none of them: whichever signal the ratio favours drags the other
 * down on the queries it gets wrong. So each signal's weight follows its own evidence for this
 * query, read from the list it returned, before any fusion. Four steps, in order:
 *
 * <ol>
 *   <li><b>sentences</b>: a vector list ranked again by the memories' sentence vectors ({@link
 *       SignalSearch#rescored}) starts from {@link #SENTENCE_LIST_FACTOR} times the configured
 *       vector weight, above the text weight with the defaults. Such a list finds the one sentence
 *       of a long turn that answers a question, where text ranks the same session's look-alike
 *       turns first, and it is the stronger of the two signals on long conversations; a list of
 *       whole vectors only (a store without sentence vectors, or a scope whose memories have none)
 *       keeps the configured weight, which was chosen for it and which a higher prior costs on
 *       short chat turns (benchmarks/RESULTS.md, section 29);
 *   <li><b>confidence</b>: each signal's <em>peak</em> is how far its best score stands above its
 *       list's mean, in the list's standard deviations, over the same values {@link Fusion}
 *       standardises with (a text list padded with zeros, {@link Fusion.Spread}); 0 for a list
 *       without spread (empty, one hit, all scores equal). A list that found what the query asks
 *       for has a hit far above its neighbours; a list of look-alike neighbours has none. Each
 *       weight so far is multiplied by {@code (1 + peak)²} and the two are rescaled to the sum they
 *       had, so the graph keeps its place beside them and two lists without a peak keep the weights
 *       of the first step. Those weights are the prior; the peaks move them;
 *   <li><b>exact shape</b>: a query {@linkplain QueryShape#exact shaped like an exact reference}
 *       keeps {@link #EXACT_VECTOR_SHARE} of that vector weight: exact text decides it, and a
 *       model's nearest neighbours of an identifier are guesses that push the memories holding it
 *       down;
 *   <li><b>weak text</b>: otherwise, a query whose best text hit holds less than {@link
 *       #WEAK_TEXT_SHARE} of the query's text-score ceiling (text found little of it) weighs
 *       vectors at least as much as text: a paraphrase that shares no words with its answer is
 *       found by meaning or not at all.
 * </ol>
 *
 * A configured weight of 0 stays 0. The same weights serve either {@link FusionMethod}. The choice
 * is a function of the two lists' scores, whether the vector list was ranked by sentences, the text
 * ceiling and the query text alone, so it is deterministic. The rule and its constants were chosen
 * on the chat, the LongMemEval and the coding dev sets together (benchmarks/RESULTS.md, section 20;
 * the sentence factor, section 29); agreement between the two lists' top hits was tried as a
 * further input and did not earn a place. Stateless and thread-safe.
 */
final class AdaptiveWeights {

  /** The share of the vector weight an exact-shaped query keeps. */
  static final double EXACT_VECTOR_SHARE = 0.2;

  /** Below this best text share, text is taken to have found little. */
  static final double WEAK_TEXT_SHARE = 0.15;

  /**
   * What a vector list ranked by sentences weighs, as a multiple of the configured vector weight:
   * the defaults' 0.75 becomes 1.25.
   */
  static final double SENTENCE_LIST_FACTOR = 5.0 / 3.0;

  /**
   * What one query's lists say about themselves.
   *
   * @param textPeak the text list's best score above its mean, in standard deviations; 0 for a list
   *     without spread
   * @param vectorPeak the same for the vector list
   * @param bestTextShare the best text hit's score over the query's text ceiling; 0 without text
   *     hits or ceiling
   */
  record Confidence(double textPeak, double vectorPeak, double bestTextShare) {}

  /**
   * The weights chosen for one query.
   *
   * @param textWeight the text weight to fuse with
   * @param vectorWeight the vector weight to fuse with
   * @param confidence what the lists said
   * @param description the method, the confidences, the rule and the weights, for {@code
   *     RecallResult.fusion()}
   */
  record Choice(
      double textWeight, double vectorWeight, Confidence confidence, String description) {}

  private AdaptiveWeights() {}

  /**
   * The weights for {@code query}, given the lists its direct signals returned ({@code text} with
   * the padding {@link Fusion} standardises it with), whether {@code vector} was ranked by the
   * memories' sentences, and the query's text-score {@code ceiling}. The lists' own weights are
   * ignored: the configured weights come from {@code options}.
   */
  static Choice choose(
      RecallOptions options,
      String query,
      Fusion.RankedList text,
      Fusion.RankedList vector,
      boolean bySentences,
      double ceiling) {
    Confidence confidence = new Confidence(peak(text), peak(vector), bestShare(text, ceiling));
    double textWeight = options.textWeight();
    double vectorWeight = options.vectorWeight() * (bySentences ? SENTENCE_LIST_FACTOR : 1);
    double total = textWeight + vectorWeight;
    double byText = textWeight * square(1 + confidence.textPeak());
    double byVector = vectorWeight * square(1 + confidence.vectorPeak());
    if (byText + byVector > 0) {
      textWeight = total * byText / (byText + byVector);
      vectorWeight = total * byVector / (byText + byVector);
    }
    String why;
    if (QueryShape.exact(query)) {
      vectorWeight *= EXACT_VECTOR_SHARE;
      why = "query shape exact (identifier, path, SHA, error code or flag)";
    } else if (confidence.bestTextShare() < WEAK_TEXT_SHARE && vectorWeight > 0) {
      vectorWeight = Math.max(vectorWeight, textWeight);
      why =
          String.format(
              Locale.ROOT,
              "natural language, text found little (best share %.2f < %.2f)",
              confidence.bestTextShare(),
              WEAK_TEXT_SHARE);
    } else {
      why = "natural language";
    }
    String method =
        options.fusion() == FusionMethod.RECIPROCAL_RANKS
            ? "reciprocal ranks (k " + options.rrfK() + ")"
            : "standardised scores";
    return new Choice(
        textWeight,
        vectorWeight,
        confidence,
        String.format(
            Locale.ROOT,
            "%s; %speaks text %.2f, vector %.2f; %s: weights text %.2f, vector %.2f, graph %.2f",
            method,
            bySentences && options.vectorWeight() > 0
                ? String.format(
                    Locale.ROOT,
                    "vector list by sentences (its weight x%.2f); ",
                    SENTENCE_LIST_FACTOR)
                : "",
            confidence.textPeak(),
            confidence.vectorPeak(),
            why,
            textWeight,
            vectorWeight,
            options.graphWeight()));
  }

  /**
   * How far {@code list}'s best score stands above its mean, in standard deviations, over the
   * values {@link Fusion} standardises it with; 0 for a list without spread, never negative or NaN.
   */
  static double peak(Fusion.RankedList list) {
    Fusion.Spread spread = Fusion.Spread.of(list);
    if (spread.sigma() <= 0) {
      return 0;
    }
    double best = Double.NEGATIVE_INFINITY;
    for (StoreHit h : list.hits()) {
      best = Math.max(best, h.score());
    }
    double peak = (best - spread.mean()) / spread.sigma();
    return Double.isFinite(peak) ? Math.max(0, peak) : 0;
  }

  /** The best hit's score over {@code ceiling}; 0 without hits or without a ceiling. */
  private static double bestShare(Fusion.RankedList text, double ceiling) {
    double best = 0;
    for (StoreHit h : text.hits()) {
      best = Math.max(best, h.score());
    }
    return ceiling > 0 ? best / ceiling : 0;
  }

  private static double square(double x) {
    return x * x;
  }
}
