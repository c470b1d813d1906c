package dev.memhook.benchmarks.soak;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Samples the live heap at a fixed interval: a full collection ({@link System#gc()}), then the used
 * heap, so each sample is what survives, not how much garbage happened to be waiting. The explicit
 * collections pause every thread, so they show in the soak's maximum latencies (on purpose: a
 * collection is something a host's turn meets too). Also reads the heap pools' peak usage, which
 * includes garbage between collections. The sample list holds one entry per interval, so its size
 * is bounded by the run's length. Thread-safe.
 */
final class HeapSampler implements AutoCloseable {

  /**
   * One sample.
   *
   * @param atNanos nanoseconds since the sampler started
   * @param usedBytes used heap right after a full collection
   */
  record Sample(long atNanos, long usedBytes) {}

  private final Duration interval;
  private final long start = System.nanoTime();
  private final List<Sample> samples = new ArrayList<>();
  private final Thread thread;
  private volatile boolean closed;

  HeapSampler(Duration interval) {
    this.interval = interval;
    this.thread = new Thread(this::loop, "soak-heap-sampler");
    this.thread.setDaemon(true);
  }

  /** Resets the pools' peaks (so a preload before the mixed phase does not count) and starts. */
  void start() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
    sampleNow();
    thread.start();
  }

  /** Takes one sample now (a full collection first). */
  void sampleNow() {
    System.gc();
    long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    synchronized (samples) {
      samples.add(new Sample(System.nanoTime() - start, used));
    }
  }

  List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  /**
   * The sum of the heap pools' peak usage since {@link #start()}: an upper bound of the peak heap,
   * garbage included (each pool peaked at its own moment).
   */
  static long poolPeaksBytes() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  /** The most heap the JVM may use ({@code -Xmx}), or -1 if undefined. */
  static long maxHeapBytes() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
  }

  private void loop() {
    while (!closed) {
      try {
        Thread.sleep(interval.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      if (!closed) {
        sampleNow();
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}
