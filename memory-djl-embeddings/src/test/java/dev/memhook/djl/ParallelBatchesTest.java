package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.EmbeddingException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ParallelBatchesTest {

  private final List<PredictorPool<String>> pools = new ArrayList<>();
  private final ExecutorService callers = Executors.newCachedThreadPool();

  @AfterEach
  void closeAll() {
    callers.shutdownNow();
    pools.forEach(PredictorPool::close);
  }

  private PredictorPool<String> pool(String... predictors) {
    AtomicInteger next = new AtomicInteger();
    PredictorPool<String> pool =
        PredictorPool.fill(
            predictors.length, () -> predictors[next.getAndIncrement()], p -> {}, "test");
    pools.add(pool);
    return pool;
  }

  /** Batches of one sequence each, holding {@code i}. */
  private static List<TokenBatch> batches(int count) {
    List<TokenBatch> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(new TokenBatch(new long[][] {{i}}));
    }
    return out;
  }

  private static float[][] echo(TokenBatch batch) {
    return new float[][] {{batch.sequence(0)[0]}};
  }

  @Test
  void run_returnsEachBatchsVectorsInOrder_whicheverPredictorRanIt() {
    Set<String> usedBy = ConcurrentHashMap.newKeySet();
    CountDownLatch bothStarted = new CountDownLatch(2);
    BiFunction<String, TokenBatch, float[][]> model =
        (predictor, batch) -> {
          usedBy.add(predictor);
          bothStarted.countDown();
          await(bothStarted); // the first batch waits until a helper has started a second
          return echo(batch);
        };
    ParallelBatches<String> runner = new ParallelBatches<>(model, 1, pool("helper"), "test");
    try {
      float[][][] out = runner.run("shared", batches(7));
      for (int i = 0; i < 7; i++) {
        assertArrayEquals(new float[][] {{i}}, out[i], "batch " + i);
      }
      assertEquals(Set.of("shared", "helper"), usedBy);
    } finally {
      runner.close();
    }
  }

  @Test
  void aShortCall_doesNotWaitForTheHelpersOfALongOne() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch longCallRunning = new CountDownLatch(2);
    BiFunction<String, TokenBatch, float[][]> model =
        (predictor, batch) -> {
          if (batch.sequence(0)[0] < 100) {
            longCallRunning.countDown();
            await(release);
          }
          return echo(batch);
        };
    // two shared predictors: the long call takes one, its helper its own, the short call the other
    ParallelBatches<String> runner = new ParallelBatches<>(model, 1, pool("h"), "test");
    try {
      Future<float[][][]> longCall = callers.submit(() -> runner.run("s1", batches(4)));
      assertTrue(longCallRunning.await(10, TimeUnit.SECONDS), "the long call's two batches run");
      float[][][] shortCall = runner.run("s2", List.of(new TokenBatch(new long[][] {{100}})));
      assertArrayEquals(new float[][] {{100}}, shortCall[0]);
      release.countDown();
      assertEquals(4, longCall.get(10, TimeUnit.SECONDS).length);
    } finally {
      release.countDown();
      runner.close();
    }
  }

  @Test
  void aFailingBatch_failsTheCallWithItsException_andNoLaterBatchStarts() {
    EmbeddingException failure = new EmbeddingException("batch 2 failed");
    AtomicInteger started = new AtomicInteger();
    BiFunction<String, TokenBatch, float[][]> model =
        (predictor, batch) -> {
          started.incrementAndGet();
          if (batch.sequence(0)[0] == 2) {
            throw failure;
          }
          return echo(batch);
        };
    // no helpers: the order of the batches is the order they start in
    ParallelBatches<String> runner = new ParallelBatches<>(model, 0, null, "test");
    EmbeddingException thrown =
        assertThrows(EmbeddingException.class, () -> runner.run("shared", batches(10)));
    assertSame(failure, thrown);
    assertEquals(3, started.get());
  }

  @Test
  void aFailureOnAHelper_reachesTheCaller() {
    EmbeddingException failure = new EmbeddingException("helper's batch failed");
    BiFunction<String, TokenBatch, float[][]> model =
        (predictor, batch) -> {
          if (predictor.equals("helper")) {
            throw failure;
          }
          sleepBriefly(); // leave the helper time to take a batch
          return echo(batch);
        };
    ParallelBatches<String> runner = new ParallelBatches<>(model, 1, pool("helper"), "test");
    try {
      assertSame(
          failure,
          assertThrows(EmbeddingException.class, () -> runner.run("shared", batches(200))));
    } finally {
      runner.close();
    }
  }

  @Test
  void oneBatch_runsOnTheCallerAlone() {
    Set<String> usedBy = ConcurrentHashMap.newKeySet();
    ParallelBatches<String> runner =
        new ParallelBatches<>(
            (predictor, batch) -> {
              usedBy.add(predictor + "@" + Thread.currentThread().getName());
              return echo(batch);
            },
            1,
            pool("helper"),
            "test");
    try {
      runner.run("shared", batches(1));
      assertEquals(Set.of("shared@" + Thread.currentThread().getName()), usedBy);
    } finally {
      runner.close();
    }
  }

  @Test
  void helpersWithoutPredictorsOfTheirOwn_areRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new ParallelBatches<>((p, b) -> echo(b), 1, null, "test"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ParallelBatches<>((p, b) -> echo(b), 0, pool("h"), "test"));
  }

  @Test
  void helpers_onlyWhenEachCallWasGivenASetNumberOfThreads() {
    int cores = Runtime.getRuntime().availableProcessors();
    assertEquals(0, EmbeddingEngine.helpers(settings(cores, null)));
    assertEquals(Math.min(cores, 4) - 1, EmbeddingEngine.helpers(settings(4, 1)));
    assertEquals(0, EmbeddingEngine.helpers(settings(1, 1)), "a pool of one has no helper");
    assertEquals(0, EmbeddingEngine.helpers(settings(4, cores)), "one call uses every core");
  }

  private static EmbedderSettings settings(int pool, Integer intraOpThreads) {
    return EmbedderSettings.withDefaults(null, null, null, null, pool, intraOpThreads, null, null);
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(10, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out waiting for " + latch);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
