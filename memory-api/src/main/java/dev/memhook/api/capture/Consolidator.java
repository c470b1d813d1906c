package dev.memhook.api.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.Session;
import java.util.List;

/**
 * Distils a session's observations into durable memories (patterns, preferences, architecture,
 * bugs, workflows, facts). The service runs a local heuristic consolidator unless one is
 * configured.
 *
 * <p>The service stores what it returns: near-duplicates of memories already held become new
 * versions of them, not new memories. A consolidator that throws leaves the observations as they
 * are (the failure is logged and counted). Implementations must be thread-safe.
 */
public interface Consolidator {

  /**
   * The memories worth keeping from {@code observations}, the stored observations of {@code
   * session} oldest first.
   */
  List<Consolidation> consolidate(Session session, List<Memory> observations) throws Exception;

  /** A short name for logs. */
  default String name() {
    return getClass().getSimpleName();
  }
}
