package dev.memhook.benchmarks.soak;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Watches for the two ways a soak can hang: threads deadlocked on monitors or ownable synchronizers
 * ({@link ThreadMXBean#findDeadlockedThreads()}), and a worker that completes no step within the
 * stall window (a hang no lock cycle explains, such as a future never completed). On either it
 * records a violation, prints a full thread dump and runs {@code onHang} (the run stops early).
 * Each stalled worker and each deadlock is reported once. Thread-safe.
 */
final class Watchdog implements AutoCloseable {

  private final Duration stallWindow;
  private final Findings findings;
  private final PrintStream dumpTo;
  private final Runnable onHang;
  private final List<Progress> watched = new CopyOnWriteArrayList<>();
  private final Set<String> reported = ConcurrentHashMap.newKeySet();
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final Thread thread;
  private volatile boolean closed;

  Watchdog(Duration stallWindow, Findings findings, PrintStream dumpTo, Runnable onHang) {
    this.stallWindow = stallWindow;
    this.findings = findings;
    this.dumpTo = dumpTo;
    this.onHang = onHang;
    this.thread = new Thread(this::loop, "soak-watchdog");
    this.thread.setDaemon(true);
  }

  /** Watches a new worker. */
  Progress watch(String name) {
    Progress p = new Progress(name);
    watched.add(p);
    return p;
  }

  void start() {
    thread.start();
  }

  /**
   * One check now.
   *
   * @return whether everything is healthy
   */
  boolean check() {
    boolean healthy = true;
    long[] deadlocked = threads.findDeadlockedThreads();
    if (deadlocked != null && deadlocked.length > 0) {
      healthy = false;
      StringBuilder names = new StringBuilder();
      for (ThreadInfo info : threads.getThreadInfo(deadlocked, true, true)) {
        if (info != null) {
          names.append(names.length() == 0 ? "" : ", ").append(info.getThreadName());
        }
      }
      if (reported.add("deadlock:" + names)) {
        findings.violation("deadlock", "threads deadlocked: " + names);
        dump("deadlock among " + names);
      }
    }
    long now = System.nanoTime();
    for (Progress p : watched) {
      if (!p.finished() && p.idleNanos(now) > stallWindow.toNanos()) {
        healthy = false;
        if (reported.add("stall:" + p.name())) {
          findings.violation(
              "stall",
              p.name()
                  + " completed no step for "
                  + Duration.ofNanos(p.idleNanos(now)).toSeconds()
                  + " s (window "
                  + stallWindow.toSeconds()
                  + " s) after "
                  + p.steps()
                  + " steps");
          dump(p.name() + " stalled");
        }
      }
    }
    if (!healthy) {
      onHang.run();
    }
    return healthy;
  }

  /** Prints every thread with its whole stack and the locks it holds and waits for. */
  void dump(String why) {
    StringBuilder sb = new StringBuilder("==== soak thread dump: ").append(why).append('\n');
    for (ThreadInfo info : threads.dumpAllThreads(true, true)) {
      sb.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
      if (info.getLockName() != null) {
        sb.append(" on ").append(info.getLockName());
      }
      if (info.getLockOwnerName() != null) {
        sb.append(" owned by \"").append(info.getLockOwnerName()).append('"');
      }
      sb.append('\n');
      for (StackTraceElement frame : info.getStackTrace()) {
        sb.append("    at ").append(frame).append('\n');
      }
      for (var lock : info.getLockedSynchronizers()) {
        sb.append("    holds ").append(lock).append('\n');
      }
    }
    sb.append("==== end of thread dump\n");
    dumpTo.print(sb);
    dumpTo.flush();
  }

  private void loop() {
    while (!closed) {
      try {
        Thread.sleep(1_000);
      } catch (InterruptedException e) {
        return;
      }
      if (!closed) {
        check();
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}
