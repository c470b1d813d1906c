package dev.memhook.core.internal.notify;

import dev.memhook.api.trace.ListenerStats;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.core.internal.logging.WarnLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a service's {@link MemoryListener}s on one thread of their own, in the order events
 * happened, so that a slow or failing listener never touches a hook's path or a host's turn.
 *
 * <h2>Rules</h2>
 *
 * <ul>
 *   <li>Every event goes to the service's listener and, when it came from a hook, to that hook's
 *       listener; a {@link MemoryListener#NONE} listener is skipped without queueing anything.
 *   <li>The backlog is bounded ({@value #BACKLOG} events): past it an event is dropped and counted,
 *       never waited for.
 *   <li>What a listener throws is logged (at most one WARN line per {@link #WARN_INTERVAL}) and
 *       counted; the next event is delivered as usual.
 *   <li>{@link #close()} delivers what is queued for at most {@link #CLOSE_WAIT}, then stops.
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class ListenerDispatch implements AutoCloseable {

  /** The most events waiting for the listener thread. */
  static final int BACKLOG = 10_000;

  /** The least time between two WARN lines about failing listeners. */
  static final Duration WARN_INTERVAL = Duration.ofSeconds(30);

  /** How long {@link #close()} lets the listener thread finish what is queued. */
  static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

  private static final Logger LOG = LoggerFactory.getLogger(ListenerDispatch.class);

  private final MemoryListener serviceListener;
  private final ThreadPoolExecutor thread;
  private final LongAdder delivered = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final LongAdder dropped = new LongAdder();
  private final WarnLimiter warnings = new WarnLimiter(WARN_INTERVAL, System::nanoTime);

  /** A dispatch to {@code serviceListener} (and to each event's hook listener). */
  public ListenerDispatch(MemoryListener serviceListener) {
    this.serviceListener = Objects.requireNonNull(serviceListener, "serviceListener");
    this.thread =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(BACKLOG),
            task -> {
              Thread t = new Thread(task, "memhook-listeners");
              t.setDaemon(true);
              return t;
            },
            (task, executor) -> {
              throw new RejectedExecutionException("listener backlog full");
            });
  }

  /** Delivers {@code call} to the service's listener only. */
  public void publish(Consumer<MemoryListener> call) {
    publish(MemoryListener.NONE, call);
  }

  /**
   * Delivers {@code call} to the service's listener and to {@code hookListener}, off the caller's
   * thread. Never throws and never blocks.
   */
  public void publish(MemoryListener hookListener, Consumer<MemoryListener> call) {
    List<MemoryListener> targets = new ArrayList<>(2);
    if (serviceListener != MemoryListener.NONE) {
      targets.add(serviceListener);
    }
    if (hookListener != MemoryListener.NONE && hookListener != serviceListener) {
      targets.add(hookListener);
    }
    if (targets.isEmpty()) {
      return;
    }
    try {
      thread.execute(() -> targets.forEach(l -> deliver(l, call)));
    } catch (RejectedExecutionException full) {
      dropped.add(targets.size());
    }
  }

  private void deliver(MemoryListener listener, Consumer<MemoryListener> call) {
    try {
      call.accept(listener);
      delivered.increment();
    } catch (RuntimeException | LinkageError e) {
      failed.increment();
      WarnLimiter.Decision decision = warnings.next();
      if (decision.warn()) {
        LOG.warn(
            "memhook: a listener threw; ignored ({} more since the last such warning)",
            decision.heldBack(),
            e);
      } else {
        LOG.debug("memhook: a listener threw; ignored", e);
      }
    }
  }

  /** What has been delivered, failed and dropped so far. */
  public ListenerStats stats() {
    return new ListenerStats(delivered.sum(), failed.sum(), dropped.sum());
  }

  /** Delivers what is queued, for at most {@link #CLOSE_WAIT}, and stops the thread. */
  @Override
  public void close() {
    thread.shutdown();
    try {
      if (!thread.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        int left = thread.shutdownNow().size();
        dropped.add(left);
        LOG.warn("memhook: listeners did not keep up; {} event(s) dropped at close", left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      thread.shutdownNow();
    }
  }
}
