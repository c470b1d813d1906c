package dev.memhook.benchmarks.soak;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One worker's heartbeat for the {@link Watchdog}: the time of its last completed step, how many it
 * completed, and whether it has finished. Thread-safe.
 */
final class Progress {

  private final String name;
  private final AtomicLong last = new AtomicLong(System.nanoTime());
  private final AtomicLong steps = new AtomicLong();
  private volatile boolean finished;

  Progress(String name) {
    this.name = name;
  }

  String name() {
    return name;
  }

  /** One step completed now. */
  void step() {
    steps.incrementAndGet();
    last.set(System.nanoTime());
  }

  /** The worker ended; it is no longer expected to progress. */
  void finish() {
    finished = true;
  }

  boolean finished() {
    return finished;
  }

  long steps() {
    return steps.get();
  }

  /** Nanoseconds since the last step (or since creation), as of {@code now}. */
  long idleNanos(long now) {
    return now - last.get();
  }
}
