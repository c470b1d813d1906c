package dev.memhook.api.trace;

import dev.memhook.api.MemoryService;
import java.util.List;

/**
 * What a {@link MemoryService}'s hooks did, from {@link MemoryService#trace()}: the recent
 * injection receipts of all its hooks and what happened to the events meant for its listeners. To
 * follow every receipt as it is made, register a {@link MemoryListener} instead.
 *
 * <p>Thread-safe, like the service it belongs to. Reading it after the service closed is allowed
 * and shows what the service left.
 */
public interface MemoryTrace {

  /**
   * The most recent injection receipts of all this service's hooks, latest versions, oldest first:
   * at most {@value #MAX_RECENT_RECEIPTS}.
   */
  List<InjectionReceipt> recentReceipts();

  /** The most receipts {@link #recentReceipts()} keeps. */
  int MAX_RECENT_RECEIPTS = 1024;

  /** What happened to the events meant for this service's listeners. */
  ListenerStats listenerStats();
}
