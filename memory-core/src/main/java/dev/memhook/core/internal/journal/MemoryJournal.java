package dev.memhook.core.internal.journal;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The journal of {@link Journal#inMemory()}: the records not yet applied, on the heap. Same
 * contract as the file journal minus durability; {@link #sizeBytes()} counts the frames the records
 * would take on disk. Thread-safe through one lock on a private object.
 */
final class MemoryJournal implements Journal {

  private final Object lock = new Object();

  // Guarded by lock.
  private final ArrayDeque<Entry> unapplied = new ArrayDeque<>();
  private long sizeBytes;

  private volatile long lastSequence;
  private volatile long syncedThrough;
  private volatile long appliedThrough;
  private volatile boolean closed;

  @Override
  public long append(byte kind, byte[] payload) {
    Objects.requireNonNull(payload, "payload");
    checkArgument(
        payload.length <= Frame.MAX_PAYLOAD_BYTES,
        "payload is %s bytes, more than the journal's limit of %s",
        payload.length,
        Frame.MAX_PAYLOAD_BYTES);
    synchronized (lock) {
      checkOpen();
      long seq = lastSequence + 1;
      unapplied.addLast(new Entry(seq, kind, payload));
      sizeBytes += Frame.size(payload.length);
      lastSequence = seq;
      return seq;
    }
  }

  /** Nothing to force; marks every record appended so far as synced. */
  @Override
  public void sync() {
    synchronized (lock) {
      syncedThrough = Math.max(syncedThrough, lastSequence);
    }
  }

  @Override
  public long syncedThrough() {
    return syncedThrough;
  }

  @Override
  public void eraseApplied() {
    synchronized (lock) {
      checkOpen(); // applied records are dropped when they are marked applied
    }
  }

  @Override
  public void markApplied(long seq) {
    checkArgument(seq >= 0, "seq must not be negative, got %s", seq);
    long last = lastSequence;
    checkArgument(seq <= last, "seq %s was never appended: the last sequence is %s", seq, last);
    synchronized (lock) {
      checkOpen();
      if (seq <= appliedThrough) {
        return;
      }
      while (!unapplied.isEmpty() && unapplied.peekFirst().seq() <= seq) {
        sizeBytes -= Frame.size(unapplied.pollFirst().payloadLength());
      }
      appliedThrough = seq;
    }
  }

  /** Entries are immutable, so the consumer gets the held ones, not copies. */
  @Override
  public void replay(Consumer<? super Entry> consumer) {
    Objects.requireNonNull(consumer, "consumer");
    List<Entry> snapshot;
    synchronized (lock) {
      checkOpen();
      snapshot = List.copyOf(unapplied);
    }
    long from = appliedThrough;
    for (Entry entry : snapshot) {
      if (entry.seq() > from) {
        consumer.accept(entry);
      }
    }
  }

  @Override
  public long sizeBytes() {
    synchronized (lock) {
      return sizeBytes;
    }
  }

  @Override
  public int segmentCount() {
    return 0;
  }

  @Override
  public long lastSequence() {
    return lastSequence;
  }

  @Override
  public long appliedThrough() {
    return appliedThrough;
  }

  @Override
  public long damagedRecords() {
    return 0;
  }

  @Override
  public void close() {
    synchronized (lock) {
      if (!closed) {
        syncedThrough = lastSequence;
        closed = true;
        unapplied.clear();
        sizeBytes = 0;
      }
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the in-memory journal is closed");
    }
  }

  @Override
  public String toString() {
    return "MemoryJournal[" + lastSequence + " appended, " + appliedThrough + " applied]";
  }
}
