package dev.memhook.lucene;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that walk a vector search's segments beside the thread that searches: on an index of
 * several segments, each segment's graph is walked on its own ({@link EachSegmentKnn}), and those
 * walks do not depend on each other.
 *
 * <h2>Design note</h2>
 *
 * Lucene's task group hands an executor one runnable per task but the first, each of which runs at
 * most one task that no thread has claimed yet, while the searching thread claims tasks until none
 * is left. So the pool queues what its helpers cannot take at once: a helper that is free takes the
 * next queued runnable, and one whose task the searching thread already claimed ends at once. The
 * queue is bounded, and a runnable it cannot hold is dropped, never run on the caller: its task is
 * claimed by the searching thread, so a search never waits for a helper, and with every helper busy
 * (other searches, many host threads at once) the walks run one after the other as they would
 * without this pool. Threads ({@code memhook-store-walker-N}, daemon) start when first needed and
 * end after a short idle time; {@link #close} stops them, after which every walk stays with its
 * searching thread.
 *
 * <p>Thread-safe.
 */
final class SegmentWalkers implements Executor, AutoCloseable {

  /** How long an idle helper waits for another walk before it ends. */
  private static final long KEEP_ALIVE_SECONDS = 10;

  /** Runnables queued per helper at most: a few searches' worth of segments. */
  private static final int QUEUED_PER_HELPER = 64;

  private final AtomicInteger threadsStarted = new AtomicInteger();
  private final ThreadPoolExecutor pool;

  /**
   * @param threads the most helper threads, besides the searching thread; at least 1
   */
  SegmentWalkers(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    ThreadFactory factory =
        task -> {
          Thread t = new Thread(task, "memhook-store-walker-" + threadsStarted.incrementAndGet());
          t.setDaemon(true); // never keeps a JVM alive
          return t;
        };
    this.pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            KEEP_ALIVE_SECONDS,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(threads * QUEUED_PER_HELPER),
            factory,
            // queue full, or closed: the searching thread claims the walk itself
            (task, executor) -> {});
    pool.allowCoreThreadTimeOut(true);
  }

  /**
   * Queues {@code task} for a helper, or drops it: a task given here must be one whose work the
   * caller takes over when no helper has started it (a claim on Lucene's task group).
   */
  @Override
  public void execute(Runnable task) {
    pool.execute(task);
  }

  /** How many helper threads have been started so far. */
  int threadsStarted() {
    return threadsStarted.get();
  }

  /** Stops the helpers once their walks end; later walks stay with their searching thread. */
  @Override
  public void close() {
    pool.shutdown();
  }
}
