package dev.memhook.core.internal.notify;

import dev.memhook.api.trace.InjectionReceipt;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The most recent receipts, latest version of each, oldest first, bounded: a new receipt past the
 * bound pushes the oldest out; a new version of a receipt replaces it in place.
 *
 * <p>Thread-safe.
 */
public final class ReceiptBook {

  private final int capacity;
  private final LinkedHashMap<String, InjectionReceipt> receipts = new LinkedHashMap<>();

  /** A book keeping at most {@code capacity} receipts. */
  public ReceiptBook(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive, got " + capacity);
    }
    this.capacity = capacity;
  }

  /** Records {@code receipt}, a new one or a new version of one already kept. */
  public synchronized void put(InjectionReceipt receipt) {
    if (receipts.containsKey(receipt.id())) {
      receipts.put(receipt.id(), receipt); // in place: a LinkedHashMap keeps insertion order
      return;
    }
    receipts.put(receipt.id(), receipt);
    if (receipts.size() > capacity) {
      Iterator<String> oldest = receipts.keySet().iterator();
      oldest.next();
      oldest.remove();
    }
  }

  /**
   * Replaces each kept receipt by {@code update}'s answer (itself when unchanged) and returns the
   * ones that changed, in order.
   */
  public synchronized List<InjectionReceipt> update(UnaryOperator<InjectionReceipt> update) {
    List<InjectionReceipt> changed = new ArrayList<>();
    for (var e : receipts.entrySet()) {
      InjectionReceipt next = update.apply(e.getValue());
      if (next != e.getValue()) {
        e.setValue(next);
        changed.add(next);
      }
    }
    return changed;
  }

  /** The receipts kept, oldest first. */
  public synchronized List<InjectionReceipt> snapshot() {
    return List.copyOf(receipts.values());
  }
}
