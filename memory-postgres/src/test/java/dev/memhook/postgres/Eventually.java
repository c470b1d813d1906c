package dev.memhook.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Waits for what another instance's replica shows to reach an expected value: a change made through
 * one instance reaches another's searches within a bound, not at once. Fails, with the last value
 * seen, if it has not within {@link #DEADLINE}, far above the bound so a loaded machine passes.
 */
final class Eventually {
  static final Duration DEADLINE = Duration.ofSeconds(10);

  private Eventually() {}

  /**
   * Polls {@code actual} until it equals {@code expected}.
   *
   * @return how long it took
   */
  static <T> Duration assertEventually(T expected, Supplier<T> actual, String what) {
    long start = System.nanoTime();
    long deadline = start + DEADLINE.toNanos();
    T last = actual.get();
    while (!Objects.equals(expected, last) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for " + what, e);
      }
      last = actual.get();
    }
    assertEquals(expected, last, what + " within " + DEADLINE);
    return Duration.ofNanos(System.nanoTime() - start);
  }
}
