package dev.memhook.lucene;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The group-commit thread of a {@link WritePath}: one named daemon thread that runs the commit of
 * pending writes at a fixed delay, until {@link #stop()}.
 *
 * <p>Thread-safe.
 */
final class GroupCommit {
  private final ScheduledExecutorService timer;

  private GroupCommit(ScheduledExecutorService timer) {
    this.timer = timer;
  }

  /** Runs {@code commit} every {@code interval} (at least 1 ms) from now on. */
  static GroupCommit every(Duration interval, Runnable commit) {
    long millis = Math.max(1, interval.toMillis());
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            new ThreadFactoryBuilder()
                .setNameFormat("memhook-lucene-commit")
                .setDaemon(true)
                .build());
    timer.scheduleWithFixedDelay(commit, millis, millis, TimeUnit.MILLISECONDS);
    return new GroupCommit(timer);
  }

  /** Stops the thread, waiting up to 10 s for a commit under way; no interrupt. */
  void stop() {
    timer.shutdown();
    try {
      timer.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
