package dev.memhook.core.internal.store;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.journal.JournalCursor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoints of a {@link LoggedStore}: which journal records the store has applied and not yet
 * committed, and the commit that lets the journal's checkpoint pass them, on a daemon thread
 * ({@code memhook-store-checkpoint}) every interval, sooner after a number of bytes, and on demand.
 * A record is reported here only after the store applied it, so every record a checkpoint takes is
 * in the commit that follows.
 *
 * <p>Thread-safe; one checkpoint runs at a time.
 */
final class StoreCheckpoints {

  private static final Logger LOG = LoggerFactory.getLogger(StoreCheckpoints.class);

  private final MemoryStore store;
  private final JournalCursor cursor;
  private final long bytesBound;
  private final ReentrantLock checkpointLock = new ReentrantLock();
  private final ScheduledThreadPoolExecutor thread;

  /** Guarded by itself: records applied to the store and not yet committed by a checkpoint. */
  private final List<Long> uncommitted = new ArrayList<>();

  /** Guarded by {@link #uncommitted}. */
  private long uncommittedBytes;

  /** Starts the periodic checkpoint. */
  StoreCheckpoints(MemoryStore store, JournalCursor cursor, Duration interval, long bytesBound) {
    this.store = store;
    this.cursor = cursor;
    this.bytesBound = bytesBound;
    this.thread =
        new ScheduledThreadPoolExecutor(
            1,
            new ThreadFactoryBuilder()
                .setNameFormat("memhook-store-checkpoint")
                .setDaemon(true)
                .build());
    thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    long every = interval.toMillis();
    thread.scheduleWithFixedDelay(this::quietly, every, every, TimeUnit.MILLISECONDS);
  }

  /** The store has applied the records {@code seqs}, of {@code bytes} in the journal. */
  void applied(List<Long> seqs, long bytes) {
    boolean due;
    synchronized (uncommitted) {
      uncommitted.addAll(seqs);
      uncommittedBytes += bytes;
      due = uncommittedBytes >= bytesBound;
      if (due) {
        uncommittedBytes = 0;
      }
    }
    if (due && !thread.isShutdown()) {
      thread.execute(this::quietly);
    }
  }

  /**
   * Commits the store, then marks applied the records reported before the commit began and moves
   * the journal's checkpoint.
   *
   * @throws dev.memhook.api.MemoryStoreException if the commit failed (the records stay pending and
   *     the next checkpoint retries them)
   */
  void now() {
    checkpointLock.lock();
    try {
      List<Long> committed;
      synchronized (uncommitted) {
        committed = new ArrayList<>(uncommitted);
        uncommitted.clear();
        uncommittedBytes = 0;
      }
      try {
        store.flush();
      } catch (RuntimeException e) {
        synchronized (uncommitted) {
          uncommitted.addAll(0, committed);
        }
        throw e;
      }
      committed.forEach(cursor::finished);
      cursor.checkpoint();
    } finally {
      checkpointLock.unlock();
    }
  }

  /**
   * Stops the periodic checkpoint and waits for one in progress. Never by interrupting it: an
   * interrupt during Lucene's file I/O closes the channel in use (the index lock's too), which
   * fails the commit as a tragedy and leaves the writer unable to commit at close.
   */
  void stop() {
    thread.shutdown(); // cancels the waiting checkpoints (the policy set above), lets a running one
    // end
    try {
      thread.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void quietly() {
    try {
      now();
    } catch (RuntimeException e) {
      LOG.warn("memhook: committing the store failed; the journal keeps the writes; will retry", e);
    }
  }
}
