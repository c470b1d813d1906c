package dev.memhook.core.internal.inject;

import dev.memhook.api.HookListener;
import dev.memhook.api.HookPhase;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallTimeoutException;
import dev.memhook.core.internal.logging.WarnLimiter;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one hook tells its listener and the log. The listener hears of every event; what it throws
 * is logged and ignored. Failures are logged at WARN each time, except recall timeouts and refusals
 * by the executor: those are signs of overload and come in floods, so they are logged at WARN at
 * most once per {@link #OVERLOAD_WARN_INTERVAL}, each line saying how many were held back, and at
 * DEBUG otherwise.
 *
 * <p>Thread-safe.
 */
final class HookEvents {

  /** The hook's own logger name, so hosts keep one name to configure for everything a hook logs. */
  private static final Logger LOG = LoggerFactory.getLogger(AsyncMemoryHook.class);

  /**
   * The least time between two WARN lines of one hook for recall timeouts and refusals: one line
   * per half minute per hook shows an overload as well as a line per event, and leaves the rest of
   * the log readable.
   */
  static final Duration OVERLOAD_WARN_INTERVAL = Duration.ofSeconds(30);

  private final String hookId;
  private final HookListener listener;
  private final WarnLimiter overloadWarnings =
      new WarnLimiter(OVERLOAD_WARN_INTERVAL, System::nanoTime);

  HookEvents(String hookId, HookListener listener) {
    this.hookId = Objects.requireNonNull(hookId, "hookId");
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** The hook injected {@code ids} in one call. */
  void injected(HookPhase phase, List<MemoryId> ids) {
    try {
      listener.injected(hookId, phase, List.copyOf(ids));
    } catch (RuntimeException e) {
      LOG.warn("hook {}: listener failed", hookId, e);
    }
  }

  /** The callback in {@code phase} went on without memories because of {@code error}. */
  void failed(HookPhase phase, Throwable error) {
    if (error instanceof RecallTimeoutException || error instanceof RejectedExecutionException) {
      WarnLimiter.Decision decision = overloadWarnings.next();
      if (decision.warn()) {
        LOG.warn(
            "hook {} {}: the turn goes on without memories: {}"
                + " ({} like it logged at DEBUG since the last such warning;"
                + " for the next {} they go to DEBUG)",
            hookId,
            phase,
            error.toString(),
            decision.heldBack(),
            OVERLOAD_WARN_INTERVAL);
      } else {
        LOG.debug(
            "hook {} {}: the turn goes on without memories: {}", hookId, phase, error.toString());
      }
    } else {
      LOG.warn(
          "hook {} {}: the turn goes on without memories: {}", hookId, phase, error.toString());
    }
    try {
      listener.failed(hookId, phase, error);
    } catch (RuntimeException e) {
      LOG.warn("hook {}: listener failed", hookId, e);
    }
  }
}
