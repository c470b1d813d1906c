package dev.memhook.core.internal.journal;

import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which journal records their consumers have not finished, and the checkpoint that follows from
 * them: every record below the oldest unfinished one is applied. One cursor serves every consumer
 * of one journal (capture's events and the store's writes), so the checkpoint never passes a record
 * any of them still needs. A record joins the pending set under the same lock as it is appended, so
 * the checkpoint can never pass a record appended but not yet pending. Records finish out of order
 * (a caller running its own event, a dropped one), so the checkpoint waits for the oldest.
 *
 * <p>Thread-safe.
 */
public final class JournalCursor {

  private static final Logger LOG = LoggerFactory.getLogger(JournalCursor.class);

  private final Journal journal;
  private final ReentrantLock lock = new ReentrantLock();
  private final ConcurrentSkipListSet<Long> pending = new ConcurrentSkipListSet<>();

  public JournalCursor(Journal journal) {
    this.journal = journal;
  }

  /** The journal this cursor moves. */
  public Journal journal() {
    return journal;
  }

  /** Appends a record and marks it pending; returns its sequence number. */
  public long append(byte kind, byte[] payload) {
    lock.lock();
    try {
      long seq = journal.append(kind, payload);
      pending.add(seq);
      return seq;
    } finally {
      lock.unlock();
    }
  }

  /** Marks a record read back from the journal on open pending. */
  public void replayed(long seq) {
    pending.add(seq);
  }

  /** The record is processed, or dropped by policy: it need not be replayed. */
  public void finished(long seq) {
    pending.remove(seq);
  }

  /** Moves the journal's checkpoint to just below the oldest pending record. */
  public void checkpoint() {
    lock.lock();
    try {
      long applied = pending.isEmpty() ? journal.lastSequence() : pending.first() - 1;
      if (applied > journal.appliedThrough()) {
        journal.markApplied(applied);
      }
    } catch (RuntimeException e) {
      LOG.warn("memhook: moving the journal's checkpoint failed; it is retried", e);
    } finally {
      lock.unlock();
    }
  }
}
