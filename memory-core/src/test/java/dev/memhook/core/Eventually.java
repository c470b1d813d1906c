package dev.memhook.core;

import java.time.Duration;

/**
 * Waits for what listeners are told: they run on the service's listener thread, after the hook's
 * callback has completed.
 */
public final class Eventually {

  private static final Duration LIMIT = Duration.ofSeconds(10);

  private Eventually() {}

  /** Runs {@code assertion} until it passes, for at most ten seconds; then fails with its error. */
  public static void eventually(Runnable assertion) {
    long deadline = System.nanoTime() + LIMIT.toNanos();
    while (true) {
      try {
        assertion.run();
        return;
      } catch (AssertionError e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
  }
}
