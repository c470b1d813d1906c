package dev.memhook.djl;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

/**
 * Runs the batches of one embedding call: the caller works through them with the predictor it
 * leased from the shared pool, and up to {@code helpers} helper threads join it, each with a
 * predictor of its own, each taking the next batch nobody has started. A long list of texts (a
 * capture batch, an import) then uses as many cores as the model was given, while one text or one
 * batch runs on the caller alone, as before.
 *
 * <p>Why the helpers have predictors of their own: if they leased from the shared pool, a call
 * embedding hundreds of texts could hold every predictor for the length of a batch, and a search
 * query (which a chat turn waits for) would queue behind it. With their own predictors the helpers
 * only compete for the CPU. The batches and their composition do not depend on who runs them, so
 * the vectors are the same as when one thread runs them all.
 *
 * <p>Thread-safe. A call returns only when every batch a helper started is finished, so while the
 * caller holds its lease no helper outlives the call. {@link #close()} is called after the shared
 * pool is closed (so no call is in flight): it stops the helper threads and closes their
 * predictors.
 *
 * @param <P> the predictor type
 */
final class ParallelBatches<P> {
  private final BiFunction<P, TokenBatch, float[][]> model;
  private final PredictorPool<P> own;
  private final ExecutorService threads;
  private final int helpers;

  /**
   * @param helpers threads that join a call of several batches; 0 runs every batch on the caller
   * @param own the helpers' predictors, {@code helpers} of them; null when {@code helpers} is 0
   */
  ParallelBatches(
      BiFunction<P, TokenBatch, float[][]> model, int helpers, PredictorPool<P> own, String owner) {
    if (helpers < 0 || (helpers == 0) != (own == null)) {
      throw new IllegalArgumentException(
          "helpers must be 0 without predictors of their own, or positive with them; got "
              + helpers);
    }
    this.model = model;
    this.helpers = helpers;
    this.own = own;
    this.threads =
        helpers == 0
            ? null
            : Executors.newFixedThreadPool(
                helpers,
                task -> {
                  Thread t = new Thread(task, "memhook-embed-" + owner);
                  t.setDaemon(true);
                  return t;
                });
  }

  /**
   * The vectors of each batch, in order.
   *
   * @param leased the caller's predictor, leased from the shared pool for the whole call
   * @throws dev.memhook.api.EmbeddingException if the model fails on a batch (the first failure)
   */
  float[][][] run(P leased, List<TokenBatch> batches) {
    float[][][] out = new float[batches.size()][][];
    Work work = new Work(batches, out);
    if (threads != null && batches.size() > 1) {
      for (int h = 0; h < Math.min(helpers, batches.size() - 1); h++) {
        try {
          threads.execute(() -> help(work));
        } catch (RejectedExecutionException closing) {
          break; // the caller runs the rest
        }
      }
    }
    work.drain(leased);
    work.awaitStarted();
    Throwable failure = work.failure.get();
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    return out;
  }

  private void help(Work work) {
    if (work.exhausted()) {
      return;
    }
    try {
      own.withPredictor(
          predictor -> {
            work.drain(predictor);
            return null;
          });
    } catch (RuntimeException closedOrInterrupted) {
      // taken no batch (drain keeps its own failures): the caller runs the rest
    }
  }

  /** Stops the helper threads and closes their predictors; call once no call is in flight. */
  void close() {
    if (threads != null) {
      threads.shutdownNow();
      own.close();
    }
  }

  /** The batches of one call, and who has started which. */
  private final class Work {
    private final List<TokenBatch> batches;
    private final float[][][] out;
    private final AtomicInteger next = new AtomicInteger();

    /** Counts down once per batch when it is finished, failed or abandoned. */
    private final CountDownLatch settled;

    /** The first exception or error a batch threw. */
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    Work(List<TokenBatch> batches, float[][][] out) {
      this.batches = batches;
      this.out = out;
      this.settled = new CountDownLatch(batches.size());
    }

    boolean exhausted() {
      return next.get() >= batches.size();
    }

    /** Runs batches nobody has started until none is left. */
    void drain(P predictor) {
      for (int i = next.getAndIncrement(); i < batches.size(); i = next.getAndIncrement()) {
        try {
          out[i] = model.apply(predictor, batches.get(i));
        } catch (RuntimeException | Error e) {
          failure.compareAndSet(null, e);
          abandon();
        } finally {
          settled.countDown();
        }
      }
    }

    /** Marks every batch nobody has started as settled, so no one starts it. */
    void abandon() {
      for (int i = next.getAndSet(batches.size()); i < batches.size(); i++) {
        settled.countDown();
      }
    }

    /** Waits until every started batch is finished; keeps an interrupt for the caller. */
    void awaitStarted() {
      boolean interrupted = false;
      while (true) {
        try {
          settled.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
