package dev.memhook.api;

/**
 * How recall combines its signals' ranked lists (text, vector, graph) into one ranking; see {@link
 * RecallOptions.Builder#fusion(FusionMethod)}.
 *
 * <p>Whichever method is used, the weights adapt to each query. A vector list that the store ranked
 * by its memories' sentence vectors ({@link dev.memhook.api.spi.StoreCapability#PASSAGE_VECTORS})
 * starts from 5/3 of the configured vector weight, a list of whole vectors from the weight itself.
 * These text and vector weights are a prior, shared out again by how pronounced each signal's best
 * hit is in its own list (its distance above the list's mean in standard deviations): a signal that
 * found a clear answer gets more of the weight than one whose hits all look alike. Then a query
 * that looks like an exact reference (an identifier such as {@code AuthMiddleware} or {@code
 * user_id}, a path, a file name, a commit SHA, an error code, a command-line flag or code in
 * backquotes) keeps a fifth of its vector weight: exact text decides such a query, and a model's
 * nearest neighbours of {@code SHIP-E017} are guesses. An abbreviation in brackets right after the
 * words it abbreviates ("the Museum of Modern Art (MoMA)") is a name, not an identifier. A query
 * whose text search found little weighs vectors at least as much as text. {@link
 * RecallResult#fusion()} says what each list showed, which weights a recall used and why.
 */
public enum FusionMethod {

  /**
   * Standardised scores (the default): each signal's scores are rescaled over that signal's own
   * candidate list, {@code (score − lowest) / standard deviation + 0.5}, and the fused score is the
   * weighted sum over the signals that returned the candidate. A hit that stands far above the rest
   * of its list counts for more than one that barely leads a flat list, so the fusion follows how
   * much evidence each signal found for this query, not only the order it found it in. A list with
   * one hit, or whose scores are all equal, counts each hit as 1.5.
   */
  STANDARDISED_SCORES,

  /**
   * Weighted reciprocal-rank fusion: {@code Σ weight_s / (rrfK + rank_s)}, ranks 1-based. Uses only
   * the order of each list; {@link RecallOptions#rrfK()} applies to this method only.
   */
  RECIPROCAL_RANKS
}
