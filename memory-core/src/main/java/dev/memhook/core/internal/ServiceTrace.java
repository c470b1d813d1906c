package dev.memhook.core.internal;

import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.ListenerStats;
import dev.memhook.api.trace.MemoryTrace;
import dev.memhook.core.internal.notify.ListenerDispatch;
import dev.memhook.core.internal.notify.ReceiptBook;
import java.util.List;
import java.util.Objects;

/**
 * The {@link MemoryTrace} view of a {@link LocalMemoryService}: its receipt book and its listener
 * dispatch's counters, readable after close.
 *
 * <p>Thread-safe: both are.
 */
final class ServiceTrace implements MemoryTrace {

  private final ReceiptBook receipts;
  private final ListenerDispatch dispatch;

  ServiceTrace(ReceiptBook receipts, ListenerDispatch dispatch) {
    this.receipts = Objects.requireNonNull(receipts, "receipts");
    this.dispatch = Objects.requireNonNull(dispatch, "dispatch");
  }

  @Override
  public List<InjectionReceipt> recentReceipts() {
    return receipts.snapshot();
  }

  @Override
  public ListenerStats listenerStats() {
    return dispatch.stats();
  }
}
