package dev.memhook.core.internal;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryException;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.observe.DocumentEmbedder;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;

/**
 * Stores memories batch by batch with embedding and indexing overlapped: the calling thread gets
 * the vectors of batch k+1 (the model, mostly) while a writer thread of this import stores batch k
 * with one {@link MemoryStore#putAll}. The stages, in order, for each batch:
 *
 * <ol>
 *   <li><b>vectors</b>, on the calling thread ({@link BatchVectors}), overlapping the write of the
 *       batch before;
 *   <li><b>wait</b> for the write of the batch before, and <b>report</b> it ({@code stored}, on the
 *       calling thread);
 *   <li><b>write</b> this batch on the writer thread.
 * </ol>
 *
 * <h2>Design note</h2>
 *
 * A batch is written only after the batch before it was reported, so "the batches reported stay
 * stored and the rest are not" holds whatever fails: if getting the vectors of batch k+1 fails,
 * batch k is waited for and reported before the failure is thrown; if writing batch k fails, batch
 * k+1 (embedded meanwhile) is never written; if the report throws, nothing after it is written. At
 * most two batches are held (one embedded, one being written). The write runs on a thread of its
 * own and never on the caller's because an interrupt reaching a thread in the store's file I/O
 * closes the channel in use and fails the store's writer: an interrupted caller instead stops after
 * the write in flight, which it waits for without giving up. The writer thread lives for one import
 * and is not a daemon: the caller always waits for its last write.
 *
 * <p>The overlap gains what the model and the store can run side by side; on a machine whose cores
 * the model already fills, the store's share is what is left to win. The Lucene store keeps that
 * share small for a load of batches: it writes their vectors without an HNSW graph and builds the
 * graph once, when it merges the load's segments while idle ({@code VectorGraphs} in
 * memory-lucene), so what a batch costs is mostly the analysis of its text, which that store
 * spreads over its workers ({@code LuceneMemoryStore.Builder.workers}).
 *
 * <p>Each call is independent; the class holds no state and is thread-safe.
 */
final class ImportPipeline {

  /** How a batch of memories gets its vectors: called on the importing thread, in order. */
  interface BatchVectors {
    /**
     * The vectors of {@code batch}, in its order.
     *
     * @throws MemoryException if they cannot be had (the embedder failed)
     */
    List<DocumentEmbedder.Vectors> of(List<Memory> batch);
  }

  private ImportPipeline() {}

  /**
   * Stores {@code memories} in batches of {@code batchSize}, in order, telling {@code stored} the
   * number stored so far after each batch.
   *
   * @throws MemoryException naming the batch if a vector or a write failed ({@link
   *     EmbeddingException} and {@link MemoryStoreException} keep their type), or if the thread was
   *     interrupted (its flag set again); the batches reported are stored, the rest are not
   * @throws RuntimeException as thrown by {@code stored}, or by the store for a caller mistake
   */
  static void run(
      List<Memory> memories,
      int batchSize,
      BatchVectors vectors,
      MemoryStore store,
      IntConsumer stored) {
    if (memories.isEmpty()) {
      return;
    }
    ExecutorService writer =
        Executors.newSingleThreadExecutor(r -> new Thread(r, "memhook-import-writer"));
    try {
      Write pending = null;
      for (int from = 0; from < memories.size(); from += batchSize) {
        int to = Math.min(memories.size(), from + batchSize);
        List<Memory> batch = memories.subList(from, to);
        List<DocumentEmbedder.Vectors> embedded;
        try {
          embedded = vectors.of(batch);
        } catch (RuntimeException e) {
          RuntimeException failure = named(e, from, to, memories.size());
          try {
            finish(pending, stored); // the batch before is stored: report it first
          } catch (RuntimeException earlier) {
            earlier.addSuppressed(failure);
            throw earlier;
          }
          throw failure;
        }
        finish(pending, stored);
        List<DocumentEmbedder.Vectors> written = embedded;
        pending =
            new Write(
                from,
                to,
                memories.size(),
                writer.submit(() -> DocumentEmbedder.putAll(store, batch, written)));
      }
      finish(pending, stored);
    } finally {
      writer.shutdown(); // its last write was waited for, or none was started
    }
  }

  /**
   * Waits for {@code write}, if any, and reports it; an interrupt meanwhile still waits for it (a
   * write is never abandoned halfway), reports it if it succeeded, and then stops the import.
   */
  private static void finish(Write write, IntConsumer stored) {
    if (write == null) {
      return;
    }
    boolean interrupted = false;
    try {
      while (true) {
        try {
          write.done().get();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof RuntimeException r) {
            throw named(r, write.from(), write.to(), write.total());
          }
          if (cause instanceof Error err) {
            throw err;
          }
          throw new MemoryStoreException(batchName(write.from(), write.to(), write.total()), cause);
        } catch (CancellationException e) {
          throw new IllegalStateException("an import write was cancelled", e);
        }
      }
      stored.accept(write.to());
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (interrupted) {
      throw new MemoryException(
          "interrupted: the import stopped after "
              + write.to()
              + " of "
              + write.total()
              + " memories, which are stored; the rest are not");
    }
  }

  /**
   * {@code e} with the batch named: the store's and embedder's failures keep their type (and
   * retriability), anything else (a caller mistake the store found) goes through as it is.
   */
  private static RuntimeException named(RuntimeException e, int from, int to, int total) {
    String where = batchName(from, to, total) + ": " + e.getMessage();
    if (e instanceof MemoryStoreException s) {
      return new MemoryStoreException(where, s, s.retriable());
    }
    if (e instanceof EmbeddingException) {
      return new EmbeddingException(where, e);
    }
    if (e.getClass() == MemoryException.class) {
      return new MemoryException(where, e);
    }
    return e;
  }

  private static String batchName(int from, int to, int total) {
    return "the import's batch of memories " + from + " to " + (to - 1) + " (of " + total + ")";
  }

  /** A batch being written: its place in the import, and the write. */
  private record Write(int from, int to, int total, Future<?> done) {}
}
