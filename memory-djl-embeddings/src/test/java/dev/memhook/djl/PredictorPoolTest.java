package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.EmbeddingException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PredictorPoolTest {
  /** Guards against a hang; no test asserts how long anything takes. */
  static final Duration HANG_GUARD = Duration.ofSeconds(20);

  final List<String> closed = new CopyOnWriteArrayList<>();
  final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  PredictorPool<String> pool(int size) {
    AtomicInteger made = new AtomicInteger();
    return PredictorPool.fill(size, () -> "p" + made.incrementAndGet(), closed::add, "test pool");
  }

  /** Leases a predictor on another thread and holds it until {@code release} opens. */
  Future<String> holdLease(PredictorPool<String> pool, CountDownLatch release) throws Exception {
    CountDownLatch leased = new CountDownLatch(1);
    Future<String> holder =
        threads.submit(
            () ->
                pool.withPredictor(
                    p -> {
                      leased.countDown();
                      await(release);
                      return p;
                    }));
    leased.await();
    return holder;
  }

  static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Waits until {@code thread} blocks, so that whatever it would do next has had its chance. */
  static void awaitBlocked(Thread thread) throws InterruptedException {
    while (thread.getState() != Thread.State.WAITING
        && thread.getState() != Thread.State.TIMED_WAITING) {
      Thread.sleep(1);
    }
  }

  @Test
  void close_closesEveryPredictorOnceAndReportsOnlyTheFirstClose() {
    PredictorPool<String> pool = pool(3);
    assertEquals("p1", pool.withPredictor(p -> p));
    assertTrue(pool.close());
    assertFalse(pool.close());
    assertEquals(List.of("p1", "p2", "p3"), closed.stream().sorted().toList());
  }

  @Test
  void withPredictor_afterCloseThrowsIllegalStateNamingTheOwner() {
    PredictorPool<String> pool = pool(1);
    pool.close();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> pool.withPredictor(p -> p));
    assertEquals("test pool is closed", e.getMessage());
  }

  @Test
  void fill_closesThePredictorsAlreadyMadeWhenTheFactoryFails() {
    AtomicInteger made = new AtomicInteger();
    IllegalStateException failure = new IllegalStateException("third predictor");
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                PredictorPool.fill(
                    4,
                    () -> {
                      if (made.incrementAndGet() == 3) {
                        throw failure;
                      }
                      return "p" + made.get();
                    },
                    closed::add,
                    "test pool"));
    assertSame(failure, e);
    assertEquals(List.of("p1", "p2"), closed);
  }

  @Test
  void fill_rejectsANonPositiveSize() {
    assertThrows(IllegalArgumentException.class, () -> pool(0));
  }

  @Test
  void withPredictor_returnsThePredictorWhenTheWorkThrows() {
    PredictorPool<String> pool = pool(1);
    assertThrows(
        ArithmeticException.class,
        () ->
            pool.withPredictor(
                p -> {
                  throw new ArithmeticException("work failed");
                }));
    // With the only predictor lost, this would wait for ever.
    assertEquals("p1", assertTimeoutPreemptively(HANG_GUARD, () -> pool.withPredictor(p -> p)));
  }

  @Test
  void withPredictor_leasesEachPredictorToOneCallerAtATime() throws Exception {
    PredictorPool<String> pool = pool(2);
    CountDownLatch release = new CountDownLatch(1);
    Future<String> first = holdLease(pool, release);
    Future<String> second = holdLease(pool, release);
    release.countDown();
    assertEquals(
        List.of("p1", "p2"), List.of(first.get(), second.get()).stream().sorted().toList());
  }

  @Test
  void close_waitsForTheLeaseInFlightBeforeClosingItsPredictor() throws Exception {
    PredictorPool<String> pool = pool(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<String> holder = holdLease(pool, release);
    CompletableFuture<Thread> closerThread = new CompletableFuture<>();
    Future<Boolean> closing =
        threads.submit(
            () -> {
              closerThread.complete(Thread.currentThread());
              return pool.close();
            });
    awaitBlocked(closerThread.get());
    assertEquals(List.of(), closed, "closed a predictor that was still leased");
    assertFalse(closing.isDone());
    release.countDown();
    assertEquals("p1", holder.get());
    assertTrue(closing.get());
    assertEquals(List.of("p1"), closed);
  }

  @Test
  void withPredictor_waitingCallerGetsIllegalStateWhenThePoolCloses() throws Exception {
    PredictorPool<String> pool = pool(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<String> holder = holdLease(pool, release);
    Future<String> waiter = threads.submit(() -> pool.withPredictor(p -> p));
    Future<Boolean> closing = threads.submit(pool::close);
    ExecutionException e =
        assertThrows(
            ExecutionException.class, () -> waiter.get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS));
    assertInstanceOf(IllegalStateException.class, e.getCause());
    release.countDown();
    assertEquals("p1", holder.get());
    assertTrue(closing.get());
  }

  @Test
  void withPredictor_interruptedWhileWaitingThrowsAndKeepsTheInterruptFlag() throws Exception {
    PredictorPool<String> pool = pool(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<String> holder = holdLease(pool, release);
    Thread.currentThread().interrupt();
    try {
      EmbeddingException e =
          assertThrows(EmbeddingException.class, () -> pool.withPredictor(p -> p));
      assertInstanceOf(InterruptedException.class, e.getCause());
      assertTrue(Thread.currentThread().isInterrupted());
    } finally {
      Thread.interrupted();
      release.countDown();
    }
    assertEquals("p1", holder.get());
  }

  @Test
  void close_whenInterruptedStillClosesEveryPredictorAndKeepsTheInterruptFlag() {
    PredictorPool<String> pool = pool(2);
    Thread.currentThread().interrupt();
    try {
      assertTrue(pool.close());
      assertTrue(Thread.currentThread().isInterrupted());
    } finally {
      Thread.interrupted();
    }
    assertEquals(List.of("p1", "p2"), closed.stream().sorted().toList());
  }
}
