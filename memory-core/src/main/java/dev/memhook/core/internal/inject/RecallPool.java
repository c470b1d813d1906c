package dev.memhook.core.internal.inject;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The recall executor a service creates when the host supplies none: a fixed pool of daemon threads
 * named {@code memhook-recall-N} over a bounded queue that refuses at once when full.
 *
 * <p>The bound exists because a queued recall is only worth running while its callback still waits:
 * a callback gives up after its recall timeout, and a recall that waits behind many others starts
 * after that and its result is thrown away, while every recall queued behind it waits longer still.
 * An unbounded queue lets such dead work pile up under load until most callbacks time out. Refusing
 * instead costs the refused callback its memories for that turn (it completes without injecting and
 * tells its listener), which is what a timeout would have cost it anyway, only without the wait.
 *
 * <p>Stateless; the pools it creates are thread-safe.
 */
public final class RecallPool {

  /**
   * How many recalls may wait per pool thread: {@value}. A few per thread absorb a burst of hooks
   * firing together, which is the normal shape of load; a recall queued deeper waits for every
   * recall ahead of it, and the deeper it waits the likelier its callback has stopped waiting
   * before it starts.
   */
  public static final int QUEUED_PER_THREAD = 4;

  private static final String THREAD_NAMES = "memhook-recall-%d";

  private RecallPool() {}

  /** The default pool: {@code max(2, cores)} threads, {@link #QUEUED_PER_THREAD} queued each. */
  public static ThreadPoolExecutor createDefault() {
    int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
    return create(threads, QUEUED_PER_THREAD * threads);
  }

  /**
   * A pool of {@code threads} daemon threads with room for {@code queueCapacity} waiting recalls;
   * past that, {@code execute} throws {@link RejectedExecutionException} at once.
   */
  static ThreadPoolExecutor create(int threads, int queueCapacity) {
    return new ThreadPoolExecutor(
        threads,
        threads,
        0L,
        TimeUnit.MILLISECONDS,
        new ArrayBlockingQueue<>(queueCapacity),
        new ThreadFactoryBuilder().setNameFormat(THREAD_NAMES).setDaemon(true).build(),
        new FailFast());
  }

  /** Refuses with a message that says why, so the listener and the log can tell the host. */
  private static final class FailFast implements RejectedExecutionHandler {
    @Override
    public void rejectedExecution(Runnable task, ThreadPoolExecutor pool) {
      if (pool.isShutdown()) {
        throw new RejectedExecutionException("the recall executor is shut down");
      }
      throw new RejectedExecutionException(
          "the recall executor is saturated: all "
              + pool.getMaximumPoolSize()
              + " threads are busy and "
              + pool.getQueue().size()
              + " recalls are waiting; this recall is skipped");
    }
  }
}
