package dev.memhook.core.internal.logging;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Decides which of a run of like events earns a WARN line: the first, then at most one per
 * interval, each saying how many were held back since the one before. The others are for DEBUG.
 *
 * <p>It exists for events that come in floods when the host is overloaded (recall timeouts and
 * refusals): one line per interval shows the overload as well as a line per event does, without
 * burying every other log line. It only thins the log: whoever must see every event (the hook's
 * listener) is told separately.
 *
 * <p>Public so that every package that logs floods (hook, capture, compression) shares one
 * mechanism.
 *
 * <p>Thread-safe.
 */
public final class WarnLimiter {

  /** What to do with one event. */
  public record Decision(boolean warn, long heldBack) {}

  private final long intervalNanos;
  private final LongSupplier nanoTime;
  private boolean warnedOnce;
  private long lastWarnNanos;
  private long heldBack;

  /**
   * @param interval the least time between two WARN lines; positive
   * @param nanoTime a monotonic clock in nanoseconds, as {@link System#nanoTime()}
   */
  public WarnLimiter(Duration interval, LongSupplier nanoTime) {
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive, got " + interval);
    }
    this.intervalNanos = interval.toNanos();
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
  }

  /**
   * Records one event. If it may be logged at WARN, the decision says so and carries how many
   * events were held back since the last WARN, then that count starts again from zero; otherwise
   * the event is held back, and the decision carries the count so far, this event included.
   */
  public synchronized Decision next() {
    long now = nanoTime.getAsLong();
    // a difference, not a comparison of readings, so a wrapping nanoTime stays correct
    if (!warnedOnce || now - lastWarnNanos >= intervalNanos) {
      warnedOnce = true;
      lastWarnNanos = now;
      long count = heldBack;
      heldBack = 0;
      return new Decision(true, count);
    }
    heldBack++;
    return new Decision(false, heldBack);
  }
}
