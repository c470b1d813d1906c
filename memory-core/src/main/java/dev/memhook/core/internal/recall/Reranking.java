package dev.memhook.core.internal.recall;

import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Reranker;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optional last stage: the configured {@link Reranker} reorders the top {@link
 * RecallOptions#rerankTop()} memories; if it fails, or returns a memory it was not given, the fused
 * order stands and a warning is logged. Thread-safe if the reranker is, as its contract requires.
 */
final class Reranking {

  /** Logs under the engine's name, the category users configure for recall. */
  private static final Logger LOG = LoggerFactory.getLogger(Reranking.class);

  private final Reranker reranker; // null when none is configured
  private final int top;

  Reranking(RecallOptions options) {
    this.reranker = options.reranker().orElse(null);
    this.top = options.rerankTop();
  }

  /**
   * How many memories to assemble for {@code limit}: the limit, or with a reranker at least its
   * top, so that it has them all to choose from.
   */
  int placesWanted(int limit) {
    return reranker != null ? Math.max(limit, top) : limit;
  }

  /**
   * {@code kept} with its top reordered by the reranker (which may also drop some of them), the
   * rest after them in fused order; {@code kept} itself when there is no reranker, fewer than two
   * memories, or the reranker failed.
   */
  List<RecalledMemory> rerank(String query, List<RecalledMemory> kept) {
    if (reranker == null || kept.size() < 2) {
      return kept;
    }
    List<RecalledMemory> head = kept.subList(0, Math.min(kept.size(), top));
    try {
      List<RecalledMemory> reordered = reranker.rerank(query, List.copyOf(head));
      Set<MemoryId> given = new HashSet<>();
      for (RecalledMemory m : head) {
        given.add(m.id());
      }
      for (RecalledMemory m : reordered) {
        if (!given.contains(m.id())) {
          throw new IllegalStateException(
              "reranker returned " + m.id() + ", which it was not given");
        }
      }
      List<RecalledMemory> out = new ArrayList<>(reordered);
      out.addAll(kept.subList(head.size(), kept.size()));
      return out;
    } catch (RuntimeException e) {
      LOG.warn("reranker {} failed; keeping the fused order", reranker, e);
      return kept;
    }
  }
}
