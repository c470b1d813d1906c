package dev.memhook.lucene;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues.ScalarEncoding;

/**
 * The threads that help the store with its two heavy jobs: building a merged segment's HNSW graph,
 * and indexing a large batch of memories. {@code workers} threads share each job, the thread that
 * runs it (the merge thread, the writing thread) included; this pool supplies the others ({@code
 * workers - 1}).
 *
 * <h2>Design note</h2>
 *
 * Building the graph is most of what a merge of vector segments costs, and the merges that build
 * the biggest graphs are the ones a store waits for: the idle merge that settles a store after a
 * load (and gives a bulk load its one graph, see {@link VectorGraphs}), and the purge that rewrites
 * a forgotten memory's segment. Lucene builds one merged graph with several workers when its format
 * is given this pool. A large {@code putAll} is mostly the analysis of its text, which Lucene's
 * writer runs on the thread that adds a document; {@link #runAll} splits such a batch so that
 * several threads add their parts at once (see {@link IndexWrites#putAll}).
 *
 * <p>Neither job ever waits for a helper to start: Lucene's task group lets the merge thread take
 * any task no helper has started, and {@link #runAll} has the calling thread take every part that
 * is still unclaimed, so a pool busy with a merge, or closed, slows a job down and never stalls it.
 * The pool starts no thread until a job asks for one and lets each go after a short idle time, so a
 * store that is neither merging nor loading holds no extra thread, and an open that fails leaves
 * none behind. Searches and flushes never use it.
 *
 * <p>Thread-safe. {@link #close} stops the threads after the writer has finished its merges.
 */
final class StoreWorkers implements AutoCloseable {

  /** How long an idle helper thread waits for more work before it ends. */
  private static final long KEEP_ALIVE_SECONDS = 10;

  private final int workers;
  private final AtomicInteger threadsStarted = new AtomicInteger();
  private final ThreadPoolExecutor helpers; // null with one worker: the merge thread alone

  /** One part of a job that {@link #runAll} runs. */
  @FunctionalInterface
  interface Part {
    void run() throws IOException;
  }

  /**
   * @param workers the threads that share one job, the thread that runs it included; at least 1
   */
  StoreWorkers(int workers) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be >= 1, got " + workers);
    }
    this.workers = workers;
    this.helpers = workers == 1 ? null : pool(workers - 1);
  }

  /** The threads that share one job, the thread that runs it included. */
  int workers() {
    return workers;
  }

  /** How many helper threads have been started so far. */
  int threadsStarted() {
    return threadsStarted.get();
  }

  /**
   * The store's vector format with a graph: HNSW with {@code maxConn} and {@code beamWidth}, its
   * vectors quantized to 7 bits if {@code quantized}, its merges built by {@link #workers()}
   * threads.
   */
  KnnVectorsFormat format(int maxConn, int beamWidth, boolean quantized) {
    if (quantized) {
      return new Lucene104HnswScalarQuantizedVectorsFormat(
          ScalarEncoding.SEVEN_BIT, maxConn, beamWidth, workers, helpers);
    }
    return helpers == null
        ? new Lucene99HnswVectorsFormat(maxConn, beamWidth)
        : new Lucene99HnswVectorsFormat(maxConn, beamWidth, workers, helpers);
  }

  /**
   * Runs every part of {@code parts}, on the calling thread and on up to {@code workers - 1} helper
   * threads, and returns once all have run, whatever they threw: the calling thread claims parts
   * like the helpers do and, once none is left to claim, waits for those a helper is running. It
   * waits through interrupts (a part must never be left running behind the caller's back) and sets
   * its interrupt flag again before it returns.
   *
   * @throws IOException the first part's failure, in the order of {@code parts}, if it was an
   *     {@link IOException}; any other failure is rethrown as it was (a {@link RuntimeException} or
   *     an {@link Error}); the failures of later parts are added to it as suppressed
   */
  void runAll(List<Part> parts) throws IOException {
    int n = parts.size();
    AtomicInteger next = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(n);
    Throwable[] failures = new Throwable[n];
    Runnable claim =
        () -> {
          for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
            try {
              parts.get(i).run();
            } catch (Throwable t) { // reported to the caller below, never lost on a helper
              failures[i] = t;
            } finally {
              done.countDown();
            }
          }
        };
    if (helpers != null) {
      for (int h = 0; h < Math.min(workers, n) - 1; h++) {
        helpers.execute(claim); // discarded after close: the caller claims its parts
      }
    }
    claim.run();
    awaitUninterruptibly(done);
    Throwable first = null;
    for (Throwable t : failures) {
      if (t == null) {
        continue;
      }
      if (first == null) {
        first = t;
      } else {
        first.addSuppressed(t);
      }
    }
    if (first instanceof IOException e) {
      throw e;
    }
    if (first instanceof RuntimeException e) {
      throw e;
    }
    if (first instanceof Error e) {
      throw e;
    }
  }

  private static void awaitUninterruptibly(CountDownLatch done) {
    boolean interrupted = false;
    while (true) {
      try {
        done.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the helper threads; a job still running finishes on its own thread. Idempotent. */
  @Override
  public void close() {
    if (helpers != null) {
      helpers.shutdown();
    }
  }

  private ThreadPoolExecutor pool(int threads) {
    ThreadFactory factory =
        task -> {
          Thread t = new Thread(task, "memhook-store-worker-" + threadsStarted.incrementAndGet());
          t.setDaemon(true); // never keeps a JVM alive; the writer's close waits for its merges
          return t;
        };
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            KEEP_ALIVE_SECONDS,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            factory,
            // after close: the job's own thread runs the task's work itself (Lucene's task group
            // and runAll both let it take any part no helper has started)
            (task, executor) -> {});
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }
}
