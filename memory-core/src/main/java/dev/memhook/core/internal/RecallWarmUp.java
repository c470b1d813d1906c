package dev.memhook.core.internal;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.Scope;
import dev.memhook.core.internal.recall.RecallEngine;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warms a service's recall path so a hook's first turn does not pay for a cold JVM and time out:
 * once when the service is built (the default scope), and once per scope the first time a hook that
 * recalls from it is created, since the first search of a populated scope still costs several times
 * the next (benchmarks/RESULTS.md). It searches the store only for a store the builder opened; a
 * store the host handed over is never searched behind its owner's back, and only the query
 * embedding is warmed. A failed warm-up is logged and otherwise ignored: the service works as
 * without it, and the same failure surfaces where it matters.
 *
 * <p>Thread-safe.
 */
final class RecallWarmUp {
  private static final Logger LOG = LoggerFactory.getLogger(RecallWarmUp.class);

  private final RecallEngine engine;
  private final Set<Scope> warmed = ConcurrentHashMap.newKeySet();
  private volatile boolean searchStore;

  RecallWarmUp(RecallEngine engine) {
    this.engine = engine;
  }

  /**
   * Warms the default scope, or only the query embedding, once, when the service is built.
   *
   * @param maySearchStore whether the store may be searched, here and for later hooks
   */
  void atBuild(boolean maySearchStore) {
    searchStore = maySearchStore;
    warm(Scope.DEFAULT);
  }

  /** Warms each of {@code scopes} not warmed yet, when the store may be searched. */
  void forHook(List<Scope> scopes) {
    if (searchStore) {
      scopes.forEach(this::warm);
    }
  }

  private void warm(Scope scope) {
    if (searchStore && !warmed.add(scope)) {
      return;
    }
    long start = System.nanoTime();
    try {
      engine.warmUp(searchStore, scope);
      LOG.debug(
          "warmed the recall path for scope {} in {} ms",
          scope,
          (System.nanoTime() - start) / 1_000_000);
    } catch (EmbeddingException e) {
      // the embedder's own message says why; a stack trace through the recall adds nothing
      LOG.warn(
          "the embedder could not embed the warm-up question, so recalls may fail the same way: {}",
          e.getMessage());
    } catch (RuntimeException e) {
      LOG.warn("warming the recall path failed; the first recall will be slower", e);
    }
  }
}
