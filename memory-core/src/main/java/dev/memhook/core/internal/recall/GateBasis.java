package dev.memhook.core.internal.recall;

/**
 * What one query's gate decisions are measured against: the text-score ceiling a text hit's share
 * is taken of, and the cosine base the cosine floors count from.
 *
 * <p>A cosine floor {@code f} is the share {@code f} of the way from the base to a perfect match:
 * {@code base + f × (1 − base)}. With the base at the cosine the closest unrelated text reaches
 * ({@link Background}), a floor is then "this far above unrelated", and it scales with the room the
 * model leaves above unrelated: the closer a model puts unrelated text to 1, the closer to 1 its
 * floors, in proportion. With the base at 0 the floor is {@code f} itself: an absolute cosine.
 *
 * @param ceiling the query's text-score ceiling
 * @param cosineBase the cosine the cosine floors count from, below 1
 */
record GateBasis(double ceiling, double cosineBase) {

  GateBasis {
    // a base at or above 1 (every unrelated text identical to the query) would leave no room
    cosineBase = Math.min(cosineBase, 0.99);
  }

  /** Floors counted from cosine 0: the absolute floors of {@link dev.memhook.api.RecallOptions}. */
  static GateBasis absolute(double ceiling) {
    return new GateBasis(ceiling, 0);
  }

  /** The cosine floor {@code share} of the way from the base to 1. */
  double cosineFloor(double share) {
    return cosineBase + share * (1 - cosineBase);
  }
}
