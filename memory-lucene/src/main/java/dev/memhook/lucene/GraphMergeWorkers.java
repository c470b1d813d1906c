package dev.memhook.lucene;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;

/**
 * The threads that help a merge build its HNSW graph, and the store's vector format that uses them.
 *
 * <h2>Design note</h2>
 *
 * Building the graph is most of what a merge of vector segments costs, and the merges that build
 * the biggest graphs are the ones a store waits for: the idle merge that settles a store after a
 * load (and gives a bulk load its one graph, see {@link VectorGraphs}), and the purge that rewrites
 * a forgotten memory's segment. Lucene can build one merged graph with several workers; the merge
 * thread is one of them, and this pool supplies the others ({@code workers - 1} threads). The pool
 * starts no thread until a merge asks for one and lets each go after a short idle time, so a store
 * that is not merging holds no extra thread, and an open that fails leaves none behind. Searches
 * and flushes never use it: only merges build graphs with more than one worker.
 *
 * <p>Thread-safe. {@link #close} stops the threads after the writer has finished its merges.
 */
final class GraphMergeWorkers implements AutoCloseable {

  /** How long an idle helper thread waits for more work before it ends. */
  private static final long KEEP_ALIVE_SECONDS = 10;

  private final int workers;
  private final AtomicInteger threadsStarted = new AtomicInteger();
  private final ThreadPoolExecutor helpers; // null with one worker: the merge thread alone

  /**
   * @param workers the threads that build one merged graph, the merge thread included; at least 1
   */
  GraphMergeWorkers(int workers) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be >= 1, got " + workers);
    }
    this.workers = workers;
    this.helpers = workers == 1 ? null : pool(workers - 1);
  }

  /** The threads that build one merged graph, the merge thread included. */
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
      return new Lucene99HnswScalarQuantizedVectorsFormat(
          maxConn, beamWidth, workers, 7, false, null, helpers);
    }
    return helpers == null
        ? new Lucene99HnswVectorsFormat(maxConn, beamWidth)
        : new Lucene99HnswVectorsFormat(maxConn, beamWidth, workers, helpers);
  }

  /** Stops the helper threads; a merge still running finishes on its own thread. Idempotent. */
  @Override
  public void close() {
    if (helpers != null) {
      helpers.shutdown();
    }
  }

  private ThreadPoolExecutor pool(int threads) {
    ThreadFactory factory =
        task -> {
          Thread t = new Thread(task, "memhook-graph-merge-" + threadsStarted.incrementAndGet());
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
            // after close: the merge thread runs the task itself (Lucene's task group lets the
            // caller take any task no helper has started)
            (task, executor) -> {});
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }
}
