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
 * <p>While the consumers replay on open, the records they have not read yet are in no pending set;
 * a cursor made {@link #held} therefore moves no checkpoint until {@link #release()}, called once
 * every consumer has replayed.
 *
 * <p>Thread-safe.
 */
public final class JournalCursor {

  private static final Logger LOG = LoggerFactory.getLogger(JournalCursor.class);

  private final Journal journal;
  private final ReentrantLock lock = new ReentrantLock();
  private final ConcurrentSkipListSet<Long> pending = new ConcurrentSkipListSet<>();

  /** False until {@link #release()} for a {@link #held} cursor: {@link #checkpoint()} waits. */
  private volatile boolean released;

  /** A cursor that may move the checkpoint at once: for a journal with one consumer. */
  public JournalCursor(Journal journal) {
    this(journal, true);
  }

  private JournalCursor(Journal journal, boolean released) {
    this.journal = journal;
    this.released = released;
  }

  /** A cursor that moves no checkpoint until {@link #release()}: for a journal shared on open. */
  public static JournalCursor held(Journal journal) {
    return new JournalCursor(journal, false);
  }

  /** Every consumer has replayed: from now on {@link #checkpoint()} moves the checkpoint. */
  public void release() {
    released = true;
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
    if (!released) {
      return;
    }
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
