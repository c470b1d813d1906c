package dev.memhook.core.internal.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The default recall pool: bounded, refusing at once when full, with named daemon threads. */
class RecallPoolTest {

  @Test
  void theDefaultPool_queuesAFewRecallsPerThread_thenRefusesAtOnce() {
    ThreadPoolExecutor pool = RecallPool.createDefault();
    CountDownLatch gate = new CountDownLatch(1);
    Runnable blocked =
        () -> {
          try {
            gate.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    try {
      int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
      for (int i = 0; i < threads; i++) {
        pool.execute(blocked); // each starts a thread of its own
      }
      for (int i = 0; i < RecallPool.QUEUED_PER_THREAD * threads; i++) {
        pool.execute(blocked); // each waits in the queue
      }
      RejectedExecutionException refused =
          assertThrows(RejectedExecutionException.class, () -> pool.execute(blocked));
      assertTrue(refused.getMessage().contains("saturated"), refused.getMessage());
      assertEquals(threads, pool.getPoolSize());
      assertEquals(RecallPool.QUEUED_PER_THREAD * threads, pool.getQueue().size());
    } finally {
      gate.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void aShutDownPool_refusesWithAMessageSayingSo() {
    ThreadPoolExecutor pool = RecallPool.create(1, 1);
    pool.shutdown();
    RejectedExecutionException refused =
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {}));
    assertTrue(refused.getMessage().contains("shut down"), refused.getMessage());
  }

  @Test
  void poolThreads_areNamedDaemons() throws Exception {
    ThreadPoolExecutor pool = RecallPool.create(1, 1);
    try {
      CompletableFuture<Thread> ran = new CompletableFuture<>();
      pool.execute(() -> ran.complete(Thread.currentThread()));
      Thread t = ran.get(30, TimeUnit.SECONDS);
      assertTrue(t.isDaemon(), "a recall thread keeps the JVM alive");
      assertTrue(t.getName().startsWith("memhook-recall-"), t.getName());
    } finally {
      pool.shutdownNow();
    }
  }
}
