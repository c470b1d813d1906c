package dev.memhook.core.internal.recall;

import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads a recall's vector side runs on while its calling thread searches the text ({@link
 * SignalSearch}): one fewer than the processors, at least one, each started when a recall finds
 * none idle and ended after a short idle time.
 *
 * <h2>Design note</h2>
 *
 * A task is handed over only to a thread that is free now: there is no queue, and a recall that
 * finds every thread busy has its task refused and runs it itself after the text search. So a
 * thread of this pool never holds work its caller could do sooner, and the pool adds no waiting
 * under load; it only lends an idle core. It is separate from the executor hooks recall on, whose
 * bounded queue of recalls it would otherwise fill with tasks their callers then run themselves.
 *
 * <p>Thread-safe. {@link #close} stops the threads; a task offered after it is refused.
 */
public final class VectorSideThreads implements Executor, AutoCloseable {

  /** How long an idle thread waits for another recall before it ends. */
  private static final long KEEP_ALIVE_SECONDS = 30;

  private final AtomicInteger started = new AtomicInteger();
  private final ThreadPoolExecutor pool;

  /** At most one thread fewer than the processors this JVM has, at least one. */
  public VectorSideThreads() {
    this(Math.max(1, Runtime.getRuntime().availableProcessors() - 1));
  }

  /**
   * @param threads the most threads at once, at least 1
   */
  VectorSideThreads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    this.pool =
        new ThreadPoolExecutor(
            0,
            threads,
            KEEP_ALIVE_SECONDS,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            task -> {
              Thread t = new Thread(task, "memhook-recall-vector-" + started.incrementAndGet());
              t.setDaemon(true); // never keeps a JVM alive; a recall waits for its own task
              return t;
            },
            new ThreadPoolExecutor.AbortPolicy());
  }

  /**
   * Runs {@code task} on a thread that is free now, starting one if fewer than the maximum exist.
   *
   * @throws java.util.concurrent.RejectedExecutionException if every thread is busy, or after
   *     {@link #close}: the caller runs the task itself
   */
  @Override
  public void execute(Runnable task) {
    pool.execute(task);
  }

  /** How many threads have been started so far. */
  int threadsStarted() {
    return started.get();
  }

  /** Stops the threads once their tasks are done. Idempotent. */
  @Override
  public void close() {
    pool.shutdown();
  }
}
