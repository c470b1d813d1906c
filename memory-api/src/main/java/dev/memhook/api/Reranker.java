package dev.memhook.api;

import java.util.List;

/**
 * Reorders the top candidates of a recall, for example with a cross-encoder. Optional; runs after
 * fusion, diversification and the relevance gate, over at most the configured number of candidates.
 *
 * <p>Implementations must be thread-safe. Whatever they throw is reported and the fused order is
 * kept.
 */
@FunctionalInterface
public interface Reranker {
  /**
   * Returns the same candidates in a new order, best first. Returning fewer drops the rest;
   * returning a candidate that was not given is an error.
   */
  List<RecalledMemory> rerank(String query, List<RecalledMemory> candidates);
}
