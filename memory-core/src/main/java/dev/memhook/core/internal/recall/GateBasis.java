package dev.memhook.core.internal.recall;

/**
 * What one query's gate decisions are measured against: the text-score ceiling a text hit's share
 * is taken of, the cosine base the cosine floors count from, and the bars the scope's own crowd of
 * nearest memories puts on each signal's evidence.
 *
 * <p>A cosine floor {@code f} is the share {@code f} of the way from the base to a perfect match:
 * {@code base + f × (1 − base)}. With the base at the cosine the closest unrelated text reaches
 * ({@link Background}), a floor is then "this far above unrelated", and it scales with the room the
 * model leaves above unrelated: the closer a model puts unrelated text to 1, the closer to 1 its
 * floors, in proportion. With the base at 0 the floor is {@code f} itself: an absolute cosine.
 *
 * <p>The crowd cosine is the scope's {@link RelevanceGate#CROWD_RANK}th nearest memory's cosine
 * plus {@link RelevanceGate#CLEAR_DEVIATIONS} times the model's spread of unrelated cosines ({@link
 * dev.memhook.api.spi.SimilarityCalibration}): a hit over the cosine evidence floor must reach it
 * too. Negative infinity (no bar) with absolute floors or a scope with fewer memories than the
 * rank.
 *
 * <p>The crowd text share is the text side's counterpart: the scope's {@link
 * RelevanceGate#CROWD_RANK}th text hit's share of the ceiling plus {@link
 * RelevanceGate#CLEAR_TEXT_SHARE}; a hit over the text evidence floor must reach it too. Negative
 * infinity (no bar) when the scope has fewer text hits than the rank.
 *
 * <p>A scope searched whole is one whose every memory the vector search returned: it held fewer
 * memories than the recall asked for. Its cosine evidence floor is lower ({@link
 * RelevanceGate#evidenceCosineFloor}).
 *
 * @param ceiling the query's text-score ceiling
 * @param cosineBase the cosine the cosine floors count from, below 1
 * @param crowdCosine the cosine an evidence hit must also reach, or negative infinity
 * @param crowdTextShare the text share an evidence hit must also reach, or negative infinity
 * @param wholeScope whether the vector search returned every memory of the scope, with floors
 *     counted from the background (never with absolute floors)
 */
record GateBasis(
    double ceiling,
    double cosineBase,
    double crowdCosine,
    double crowdTextShare,
    boolean wholeScope) {

  GateBasis {
    // a base at or above 1 (every unrelated text identical to the query) would leave no room
    cosineBase = Math.min(cosineBase, 0.99);
  }

  /** A basis without the scope's crowds. */
  GateBasis(double ceiling, double cosineBase) {
    this(ceiling, cosineBase, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY);
  }

  /** A basis with the scope's crowds, of a scope not searched whole. */
  GateBasis(double ceiling, double cosineBase, double crowdCosine, double crowdTextShare) {
    this(ceiling, cosineBase, crowdCosine, crowdTextShare, false);
  }

  /** This basis for a scope the vector search returned whole. */
  GateBasis searchedWhole() {
    return new GateBasis(ceiling, cosineBase, crowdCosine, crowdTextShare, true);
  }

  /** Floors counted from cosine 0: the absolute floors of {@link dev.memhook.api.RecallOptions}. */
  static GateBasis absolute(double ceiling) {
    return new GateBasis(ceiling, 0);
  }

  /** The cosine floor {@code share} of the way from the base to 1. */
  double cosineFloor(double share) {
    return cosineBase + share * (1 - cosineBase);
  }

  /** Whether this query's cosine evidence must clear the scope's crowd. */
  boolean hasCrowd() {
    return crowdCosine != Double.NEGATIVE_INFINITY;
  }

  /** Whether this query's text evidence must clear the scope's crowd of text hits. */
  boolean hasTextCrowd() {
    return crowdTextShare != Double.NEGATIVE_INFINITY;
  }

  /** This basis with the scope's crowd bars. */
  GateBasis withCrowds(double crowdCosine, double crowdTextShare) {
    return new GateBasis(ceiling, cosineBase, crowdCosine, crowdTextShare, wholeScope);
  }
}
