package dev.memhook.core.internal.inject;

import dev.memhook.api.RecallQuery;
import dev.memhook.core.internal.recall.Exclusion;
import dev.memhook.core.internal.recall.RecallEngine;

/**
 * The service's recall as a hook calls it: one query in one scope, leaving out what an {@link
 * Exclusion} names before the limit counts. The service passes {@link RecallEngine#recall(
 * RecallQuery, Exclusion)}.
 *
 * <p>Implementations must be thread-safe: recalls of different hooks run at once.
 */
@FunctionalInterface
public interface HookRecall {

  /**
   * Recalls for {@code query}; the result holds up to {@code query.limit()} memories {@code
   * exclusion} let through, and what it left out comes beside it.
   */
  Exclusion.Result recall(RecallQuery query, Exclusion exclusion);
}
