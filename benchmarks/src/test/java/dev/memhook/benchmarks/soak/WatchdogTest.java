package dev.memhook.benchmarks.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

class WatchdogTest {

  private final ByteArrayOutputStream dump = new ByteArrayOutputStream();
  private final PrintStream dumpTo = new PrintStream(dump, true, StandardCharsets.UTF_8);
  private final Findings findings = new Findings();
  private final AtomicBoolean hang = new AtomicBoolean();

  @Test
  void aWorkerWithoutProgressInTheWindow_isAStall_withAThreadDump() throws Exception {
    Watchdog w = new Watchdog(Duration.ofMillis(50), findings, dumpTo, () -> hang.set(true));
    Progress busy = w.watch("busy");
    Progress stuck = w.watch("stuck");
    Thread.sleep(100);
    busy.step();
    assertFalse(w.check());
    assertEquals(1L, findings.counts().get("stall"));
    assertTrue(
        findings.details("stall").get(0).startsWith("stuck "),
        findings.details("stall").toString());
    assertTrue(hang.get(), "the run is told to stop");
    assertTrue(dump.toString(StandardCharsets.UTF_8).contains("soak thread dump: stuck stalled"));
    stuck.finish();
    busy.step();
    assertTrue(w.check(), "a finished worker is no longer expected to progress");
  }

  @Test
  void threadsDeadlockedOnLocks_areFound() throws Exception {
    Watchdog w = new Watchdog(Duration.ofMinutes(1), findings, dumpTo, () -> hang.set(true));
    ReentrantLock a = new ReentrantLock();
    ReentrantLock b = new ReentrantLock();
    CountDownLatch bothHold = new CountDownLatch(2);
    Thread one = new Thread(() -> cross(a, b, bothHold), "deadlock-one");
    Thread two = new Thread(() -> cross(b, a, bothHold), "deadlock-two");
    one.start();
    two.start();
    try {
      boolean found = false;
      for (int i = 0; i < 100 && !found; i++) {
        Thread.sleep(20);
        found = !w.check();
      }
      assertTrue(found, "the deadlock was found");
      assertEquals(1L, findings.counts().get("deadlock"));
      assertTrue(findings.details("deadlock").get(0).contains("deadlock-one"));
      assertTrue(hang.get());
    } finally {
      one.interrupt();
      two.interrupt();
      one.join(5_000);
      two.join(5_000);
    }
  }

  private static void cross(ReentrantLock first, ReentrantLock second, CountDownLatch bothHold) {
    try {
      first.lockInterruptibly();
      try {
        bothHold.countDown();
        bothHold.await();
        second.lockInterruptibly();
        second.unlock();
      } finally {
        first.unlock();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
