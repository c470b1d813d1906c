package dev.memhook.core.internal.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;

/**
 * How capture writes a consolidated memory: through the service's own remember and update, so it is
 * sanitized, completed and versioned exactly as a host's write is. Implementations are thread-safe.
 */
public interface ServiceWrites {

  /** Stores a new memory; see {@code MemoryService.remember}. */
  Memory remember(MemoryDraft draft);

  /** Stores a new version of a latest memory; see {@code MemoryService.update}. */
  Memory update(MemoryId id, MemoryDraft draft);

  /**
   * Forgets a memory capture consolidated, with its older versions but not its sources, because a
   * later consolidation restated its subject without it; see {@code MemoryService.forget} with
   * {@code ForgetMode.MEMORY_ONLY}. The audit records name capture as the actor and {@code reason}.
   *
   * @return whether anything was forgotten (false when the memory is already gone)
   */
  boolean retire(MemoryId id, String reason);
}
