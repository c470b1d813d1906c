package dev.memhook.api;

/** The retrieval signals whose ranks are fused into one recall ranking. */
public enum Signal {
  /** BM25 over the memory's text fields, with code-aware analysis where the store provides it. */
  TEXT,
  /** Nearest neighbours of the query's embedding. */
  VECTOR,
  /** Memories that share concepts or files with the top hits of the other signals. */
  GRAPH,
  /**
   * Memories told next to one of the top hits in its source session by the same speaker (origin):
   * lifted by a share of that hit's fused score, always below it. Its {@link SignalHit} holds that
   * hit's rank in the fused ranking and what the lift added to the fused score.
   */
  NEIGHBOUR
}
