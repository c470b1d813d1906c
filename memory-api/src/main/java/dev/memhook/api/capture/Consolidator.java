package dev.memhook.api.capture;

import dev.memhook.api.Memory;
import java.util.List;

/**
 * Distils a session's observations into durable memories (patterns, preferences, architecture,
 * bugs, workflows, facts). The service runs a local heuristic consolidator unless one is
 * configured.
 *
 * <p>The service stores what it returns: near-duplicates of memories already held become new
 * versions of them, not new memories.
 *
 * <p>A configured consolidator is called on a thread of the service's own, under a call budget and
 * a timeout (see {@code CaptureOptions}); capture waits for it. Whatever it does wrong — throws,
 * takes too long, returns null or an answer that fails the checks (a consolidation with blank
 * content, a title, content, concepts or files over the {@link dev.memhook.api.MemoryDraft} limits,
 * an importance outside 0..1, no sources or a source that is not one of the given observations; or
 * more than 100 consolidations) — the session is consolidated by the local heuristic consolidator
 * instead, and the fallback is counted ({@code CaptureStats.consolidatorFallbacks}) and reported
 * ({@code CaptureEvent.Kind.CONSOLIDATION_FELL_BACK}). An answer is used whole or not at all.
 * Implementations must be thread-safe.
 */
public interface Consolidator {

  /**
   * The memories worth keeping from {@code observations}, the stored observations of {@code
   * session} oldest first (an unmodifiable list). May throw; see above.
   */
  List<Consolidation> consolidate(Session session, List<Memory> observations) throws Exception;

  /** A short name for logs. */
  default String name() {
    return getClass().getSimpleName();
  }
}
