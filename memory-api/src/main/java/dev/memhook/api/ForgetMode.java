package dev.memhook.api;

/**
 * How far a {@link MemoryService#forget(MemoryId, String, String, ForgetMode) forget} reaches
 * beyond the memory and the older versions it supersedes, which it always removes.
 *
 * <p>Capture stores what a session said as observations ({@link MemoryType#OBSERVATION}), and a
 * session's consolidation distils them into memories of other types that name the observations they
 * were made from. Forgetting such a memory alone leaves those observations, so a recall finds the
 * same sentence again a minute later: {@link #WITH_SOURCES} is what forgetting means, and what
 * {@link MemoryService#forget(MemoryId, String, String)} does.
 */
public enum ForgetMode {
  /**
   * Also forget the observations the memory and its older versions were consolidated from: those
   * still stored in the memory's scope (never another scope's), also when another memory was made
   * from them too (privacy wins; that other memory stays). Nothing more for a memory that names no
   * sources, such as an observation or a memory the host remembered.
   */
  WITH_SOURCES,

  /**
   * Forget the memory and its older versions only; the observations it was made from stay stored
   * and recallable. For a memory that is wrong where its sources are not.
   */
  MEMORY_ONLY
}
