package dev.memhook.core.internal.compress;

import java.util.function.LongSupplier;

/**
 * A call budget over a rolling minute: at most {@code perMinute} calls in any 60 one-second slots
 * (the current second and the 59 before it). Slots, not one timestamp per call, keep the memory
 * fixed whatever the budget (it may be a million a minute); the price is that a call leaves the
 * window up to a second late, which errs on the side of fewer calls.
 *
 * <p>Thread-safe.
 */
final class CallBudget {

  private static final int SLOTS = 60;
  private static final long SLOT_NANOS = 1_000_000_000L;

  private final int perMinute;
  private final LongSupplier nanoTime;
  private final long origin;
  private final long[] slotSecond = new long[SLOTS];
  private final int[] slotCalls = new int[SLOTS];

  /**
   * @param perMinute the most calls in a rolling minute, 0 or more
   * @param nanoTime a monotonic clock in nanoseconds, as {@link System#nanoTime()}
   */
  CallBudget(int perMinute, LongSupplier nanoTime) {
    if (perMinute < 0) {
      throw new IllegalArgumentException("perMinute must be 0 or more, got " + perMinute);
    }
    this.perMinute = perMinute;
    this.nanoTime = nanoTime;
    this.origin = nanoTime.getAsLong();
    java.util.Arrays.fill(slotSecond, Long.MIN_VALUE);
  }

  /** Takes one call from the budget if the last minute leaves room; false if it does not. */
  synchronized boolean tryAcquire() {
    // seconds since construction: a difference of readings, so a wrapping nanoTime stays correct
    long second = Math.floorDiv(nanoTime.getAsLong() - origin, SLOT_NANOS);
    long used = 0;
    for (int i = 0; i < SLOTS; i++) {
      if (slotSecond[i] > second - SLOTS) {
        used += slotCalls[i];
      }
    }
    if (used >= perMinute) {
      return false;
    }
    int slot = (int) Math.floorMod(second, (long) SLOTS);
    if (slotSecond[slot] != second) {
      slotSecond[slot] = second;
      slotCalls[slot] = 0;
    }
    slotCalls[slot]++;
    return true;
  }
}
