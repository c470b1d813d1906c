package dev.memhook.api.chat;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The callbacks of one phase of a {@link HostedChat}'s send loop ({@code beforeSendLoop} or {@code
 * afterSend}), in registration order.
 *
 * <p>Thread-safe: callbacks may be registered and removed while they run, and run outside any lock.
 * A callback that throws, returns null or whose stage fails is logged and the next one runs: the
 * host's turn comes first.
 */
final class PhaseCallbacks {

  /** One registration of a callback: its own identity, so removing it twice removes it once. */
  private record Entry(ChatCallback callback, AtomicBoolean removed) {}

  private final String phase;
  private final String label;
  private final System.Logger log;
  private final List<Entry> entries = new CopyOnWriteArrayList<>();

  PhaseCallbacks(String phase, String label, System.Logger log) {
    this.phase = phase;
    this.label = label;
    this.log = log;
  }

  /** Adds a callback; the registration removes this one registration, once. */
  Registration register(ChatCallback callback) {
    Entry entry = new Entry(Objects.requireNonNull(callback, "callback"), new AtomicBoolean());
    entries.add(entry);
    return () -> {
      if (entry.removed().compareAndSet(false, true)) {
        entries.remove(entry);
      }
    };
  }

  /** How many callbacks are registered. */
  int size() {
    return entries.size();
  }

  /**
   * Runs every callback, each after the previous one's stage completed, and returns the stage that
   * completes after the last; it never completes exceptionally, since failures are logged.
   */
  CompletionStage<Void> fire() {
    CompletionStage<Void> chain = CompletableFuture.completedFuture(null);
    for (Entry e : entries) {
      chain = chain.thenCompose(ignored -> runLogged(e));
    }
    return chain;
  }

  /**
   * Runs every callback and waits for it. Without a timeout (null), each runs on the calling thread
   * after the previous one's stage completed. With one, the callbacks run as {@link #fire} runs
   * them and the wait for all of them ends after {@code timeout}; the loop goes on without the ones
   * still running (logged).
   */
  void fireAndAwait(Duration timeout) {
    if (timeout == null) {
      for (Entry e : entries) {
        runLogged(e).toCompletableFuture().join();
      }
      return;
    }
    try {
      fire().toCompletableFuture().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.log(System.Logger.Level.WARNING, "{0}: interrupted waiting for {1}", label, phase);
    } catch (ExecutionException e) {
      // not reached: fire() never fails
      log.log(System.Logger.Level.WARNING, label + ": " + phase + " failed", e.getCause());
    } catch (TimeoutException e) {
      log.log(
          System.Logger.Level.WARNING,
          "{0}: {1} callbacks took longer than {2}; going on without them",
          label,
          phase,
          timeout);
    }
  }

  /** The callback's stage, with any failure logged and turned into normal completion. */
  private CompletionStage<Void> runLogged(Entry e) {
    if (e.removed().get()) {
      return CompletableFuture.completedFuture(null);
    }
    CompletionStage<Void> stage;
    try {
      stage = Objects.requireNonNull(e.callback().run(), "the callback returned null");
    } catch (RuntimeException failure) {
      logFailure(failure);
      return CompletableFuture.completedFuture(null);
    }
    return stage.handle(
        (v, failure) -> {
          if (failure != null) {
            logFailure(unwrap(failure));
          }
          return null;
        });
  }

  private void logFailure(Throwable failure) {
    log.log(
        System.Logger.Level.WARNING,
        label + ": a " + phase + " callback failed; the send goes on",
        failure);
  }

  private static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
