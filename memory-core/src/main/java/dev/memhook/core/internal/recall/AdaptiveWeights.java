package dev.memhook.core.internal.recall;

import dev.memhook.api.FusionMethod;
import dev.memhook.api.RecallOptions;
import java.util.Locale;

/**
 * The vector weight one recall fuses with, and why: the one place fusion adapts to the question
 * (see {@link FusionMethod}). Two rules, in order, each leaving a vector weight of 0 at 0:
 *
 * <ol>
 *   <li>a query {@linkplain QueryShape#exact shaped like an exact reference} weighs vectors at
 *       {@link #EXACT_VECTOR_SHARE} of the configured weight: exact text decides it, and a model's
 *       nearest neighbours of an identifier are guesses that push the memories holding it down;
 *   <li>a natural-language query whose best text hit holds less than {@link #WEAK_TEXT_SHARE} of
 *       the query's text-score ceiling (text found little of it) weighs vectors at least as much as
 *       text: a paraphrase that shares no words with its answer is found by meaning or not at all.
 * </ol>
 *
 * Both constants were chosen on the chat and the coding dev sets together (benchmarks/RESULTS.md,
 * section 12). Stateless and thread-safe.
 */
final class AdaptiveWeights {

  /** The share of the vector weight an exact-shaped query keeps. */
  static final double EXACT_VECTOR_SHARE = 0.2;

  /** Below this best text share, text is taken to have found little. */
  static final double WEAK_TEXT_SHARE = 0.15;

  /**
   * The weights chosen for one query.
   *
   * @param vectorWeight the vector weight to fuse with
   * @param description the method, the reason and the weights, for {@code RecallResult.fusion()}
   */
  record Choice(double vectorWeight, String description) {}

  private AdaptiveWeights() {}

  /**
   * The vector weight for {@code query}.
   *
   * @param bestTextShare the best text hit's score over the query's ceiling, 0 without text hits
   */
  static Choice choose(RecallOptions options, String query, double bestTextShare) {
    double vector = options.vectorWeight();
    String why;
    if (QueryShape.exact(query)) {
      vector *= EXACT_VECTOR_SHARE;
      why = "query shape exact (identifier, path, SHA, error code or flag)";
    } else if (bestTextShare < WEAK_TEXT_SHARE && vector > 0) {
      vector = Math.max(vector, options.textWeight());
      why =
          String.format(
              Locale.ROOT,
              "natural language, text found little (best share %.2f < %.2f)",
              bestTextShare,
              WEAK_TEXT_SHARE);
    } else {
      why = "natural language";
    }
    String method =
        options.fusion() == FusionMethod.RECIPROCAL_RANKS
            ? "reciprocal ranks (k " + options.rrfK() + ")"
            : "standardised scores";
    return new Choice(
        vector,
        String.format(
            Locale.ROOT,
            "%s; %s: weights text %.2f, vector %.2f, graph %.2f",
            method,
            why,
            options.textWeight(),
            vector,
            options.graphWeight()));
  }
}
