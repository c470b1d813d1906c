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
}
