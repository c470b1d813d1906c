package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;

/**
 * The direct signals of a recall: the store's BM25 text top-k and nearest-vector top-k for the
 * query, as weighted lists for {@link Fusion}. A signal of weight 0 is not searched and gives an
 * empty list.
 *
 * <p>With a store that keeps passage vectors ({@link StoreCapability#PASSAGE_VECTORS}: the
 * sentences of what a person said, {@code observe.PassageText}), the vector list fusion reads is
 * ranked again ({@link #rescored}): each memory either search found scores the better of its own
 * cosine and its best passage's, so a memory that says the answer in one sentence among several
 * ranks where that sentence would. The text search's hits take part, since a memory whose whole
 * vector is far from the query may still be one the text found. The store's own list, by whole
 * vectors, is kept beside it ({@link DirectSignals#nearest}): the relevance gate and its crowd read
 * that one, because a single sentence of an unrelated memory is close to an off-topic question more
 * often than a whole memory is, and the gate's floors are calibrated on whole memories.
 *
 * <h2>Design note</h2>
 *
 * The two searches do not depend on each other, so when both run, the vector side (embedding the
 * query, then the nearest-vector search) is offered to the service's executor while the calling
 * thread searches the text; the recall waits for the slower of the two rather than for their sum.
 * The calling thread then runs the vector side itself if no pool thread has started it (a busy or
 * refusing pool, or a host's executor that queues), so a recall never waits for a pool thread to
 * become free, and with an executor that runs tasks on the calling thread the searches run one
 * after the other as they would without one.
 *
 * <p>Each side then does what it can before the other is done, so that less is left for after both.
 * The vector side measures how close the query's embedding is to unrelated text ({@link
 * Background#closeness}), which the relevance gate needs and which depends on the embedding alone.
 * The calling thread, if the vector side is still running when its text search ends (always, with a
 * model that embeds the query: the embedding takes longer than the text search), reads the records
 * of the first text hits, as many as result assembly reads first: most of a result's places are
 * text hits near the top, so those reads are ones the recall would make after fusion. The vector
 * side does not read its own hits' records: measured, they were seldom among the places, and the
 * reads slowed the recall (benchmarks/RESULTS.md, section 7).
 *
 * <p>Thread-safe: it holds the store, the options, the query-embedding cache and the executor.
 */
final class SignalSearch {

  /**
   * What the direct searches found.
   *
   * @param text the text hits, best first, with the text weight
   * @param vector the vector hits fusion reads, best first, with the vector weight: the store's
   *     nearest ranked again by their passages, with the text hits that have passages
   * @param nearest the store's nearest memories by their own vectors, best first: what the gate
   *     reads; the same hits as {@code vector} when no passage was read
   * @param bySentences whether {@code vector} was ranked again by passages: the store answered a
   *     passage cosine for at least one memory either search found
   * @param lifted how many memories of {@code vector} a passage scored above their own cosine
   * @param textCeiling the query's text-score ceiling ({@link TextHits#ceiling()}), which the text
   *     shares of the relevance gate divide by; 0 when text was not searched or matched nothing
   * @param textTook how long the text search took
   * @param vectorTook how long embedding the query and the vector search took
   * @param closeness how close the query's embedding is to unrelated text, or null if the vector
   *     side did not embed the query or the gate's floors do not count from it
   * @param read the records read while the vector side ran, by id (those the store no longer had
   *     are absent); for {@link RecordReader}
   */
  record DirectSignals(
      Fusion.RankedList text,
      Fusion.RankedList vector,
      List<StoreHit> nearest,
      boolean bySentences,
      int lifted,
      double textCeiling,
      Duration textTook,
      Duration vectorTook,
      Background.Closeness closeness,
      Map<MemoryId, Memory> read) {}

  private final MemoryStore store;
  private final boolean passages;
  private final RecallOptions options;
  private final QueryEmbeddings embeddings;
  private final Background background;
  private final Executor executor;

  /**
   * @param background what the vector side measures the query's closeness to unrelated text
   *     against, unless the options' floors are absolute
   * @param executor where the vector side runs while the calling thread searches the text; {@code
   *     Runnable::run} runs them one after the other
   */
  SignalSearch(
      MemoryStore store,
      RecallOptions options,
      QueryEmbeddings embeddings,
      Background background,
      Executor executor) {
    this.store = store;
    this.passages = store.capabilities().contains(StoreCapability.PASSAGE_VECTORS);
    this.options = options;
    this.embeddings = embeddings;
    this.background = background;
    this.executor = executor;
  }

  /**
   * Searches text and vectors in {@code scope}, at most {@code depth} hits each, side by side when
   * both are searched. Each signal's time is its own, so the two may overlap. While a vector side
   * the executor took has not ended, reads the records of the first {@code firstReads} text hits.
   *
   * @throws RuntimeException as the store or the embedder threw it, on whichever thread
   */
  DirectSignals search(Scope scope, String text, int depth, int firstReads) {
    boolean vectors = options.vectorWeight() > 0;
    FutureTask<VectorSide> vectorSide =
        new FutureTask<>(() -> vectors ? vectorSide(scope, text, depth) : VectorSide.NONE);
    // a side the executor refused runs after the text search, on this thread: nothing to wait for
    boolean beside = vectors && options.textWeight() > 0 && offer(vectorSide);
    long start = System.nanoTime();
    TextHits found =
        options.textWeight() > 0 ? store.searchText(scope, text, depth) : TextHits.none();
    long textDone = System.nanoTime();
    Map<MemoryId, Memory> read =
        beside && !vectorSide.isDone() ? firstRecords(found.hits(), firstReads) : Map.of();
    vectorSide.run(); // here, unless a pool thread has started it
    VectorSide side = result(vectorSide);
    List<StoreHit> vector = side.hits();
    boolean bySentences = false;
    int lifted = 0;
    Duration vectorTook = side.took();
    List<MemoryId> pool = passages && side.query() != null ? pool(side.hits(), found.hits()) : null;
    if (pool != null && !pool.isEmpty()) { // nothing found: no store read to ask for nothing
      long passagesStart = System.nanoTime();
      Map<MemoryId, Double> cosines = store.passageCosines(scope, pool, side.query());
      if (!cosines.isEmpty()) {
        vector = rescored(side.hits(), found.hits(), cosines, depth);
        bySentences = true;
        lifted = lifted(side.hits(), vector);
      }
      vectorTook = vectorTook.plusNanos(System.nanoTime() - passagesStart);
    }
    return new DirectSignals(
        new Fusion.RankedList(Signal.TEXT, options.textWeight(), found.hits(), depth),
        new Fusion.RankedList(Signal.VECTOR, options.vectorWeight(), vector),
        side.hits(),
        bySentences,
        lifted,
        found.ceiling(),
        Duration.ofNanos(textDone - start),
        vectorTook,
        side.closeness(),
        read);
  }

  /** The ids of {@code vector}'s hits, then of {@code text}'s not among them. */
  private static List<MemoryId> pool(List<StoreHit> vector, List<StoreHit> text) {
    Set<MemoryId> ids = new LinkedHashSet<>();
    vector.forEach(h -> ids.add(h.id()));
    text.forEach(h -> ids.add(h.id()));
    return new ArrayList<>(ids);
  }

  /**
   * The vector list ranked again: each memory of {@code vector} or {@code text} scored by the
   * better of its own cosine (from {@code vector}) and its best passage's (from {@code passages});
   * a text hit with neither is left out. Best first; ties keep {@code vector}'s order, then {@code
   * text}'s. At most {@code depth}, as many as the vector search was asked for, so that fusion
   * reads lists of the depth it always did.
   */
  static List<StoreHit> rescored(
      List<StoreHit> vector, List<StoreHit> text, Map<MemoryId, Double> passages, int depth) {
    Map<MemoryId, Double> score = new LinkedHashMap<>();
    for (StoreHit h : vector) {
      score.putIfAbsent(h.id(), Math.max(h.score(), passages.getOrDefault(h.id(), h.score())));
    }
    for (StoreHit h : text) {
      Double passage = passages.get(h.id());
      if (passage != null) {
        score.putIfAbsent(h.id(), passage);
      }
    }
    List<StoreHit> out = new ArrayList<>(score.size());
    score.forEach((id, cosine) -> out.add(new StoreHit(id, cosine)));
    out.sort(Comparator.comparingDouble(StoreHit::score).reversed()); // stable: ties keep order
    return out.size() > depth ? List.copyOf(out.subList(0, depth)) : out;
  }

  /** How many hits of {@code rescored} score above their own cosine in {@code nearest}. */
  private static int lifted(List<StoreHit> nearest, List<StoreHit> rescored) {
    Map<MemoryId, Double> own = new HashMap<>();
    nearest.forEach(h -> own.putIfAbsent(h.id(), h.score()));
    int lifted = 0;
    for (StoreHit h : rescored) {
      Double cosine = own.get(h.id());
      if (cosine == null || h.score() > cosine) {
        lifted++;
      }
    }
    return lifted;
  }

  /** The records of the first {@code n} of {@code hits}, in one read; none for no hits. */
  private Map<MemoryId, Memory> firstRecords(List<StoreHit> hits, int n) {
    if (hits.isEmpty() || n <= 0) {
      return Map.of();
    }
    List<MemoryId> ids = new ArrayList<>(Math.min(n, hits.size()));
    for (StoreHit h : hits.subList(0, Math.min(n, hits.size()))) {
      ids.add(h.id());
    }
    return store.getAll(ids);
  }

  /**
   * What the vector side found and measured, how long its search took on its thread, and the
   * query's embedding (null when it did not embed the query).
   */
  private record VectorSide(
      List<StoreHit> hits, Duration took, Background.Closeness closeness, Embedding query) {
    static final VectorSide NONE = new VectorSide(List.of(), Duration.ZERO, null, null);
  }

  private VectorSide vectorSide(Scope scope, String text, int depth) {
    long start = System.nanoTime();
    Embedding query = embeddings.of(text);
    List<StoreHit> hits = store.searchVector(scope, query, depth);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    Background.Closeness closeness =
        options.cosineBase() == RecallOptions.CosineBase.ABSOLUTE
            ? null
            : background.closeness(query);
    return new VectorSide(hits, took, closeness, query);
  }

  /** Whether {@code executor} took {@code task}; if not, the caller runs it. */
  private boolean offer(Runnable task) {
    try {
      executor.execute(task);
      return true;
    } catch (RejectedExecutionException e) {
      // a full or shut-down pool: the calling thread runs the task after the text search
      return false;
    }
  }

  /**
   * The task's result once it has run, waiting through interrupts (the task may hold a store read)
   * and setting the flag again; its failure rethrown as it was thrown.
   */
  private static VectorSide result(FutureTask<VectorSide> task) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return task.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof RuntimeException r) {
            throw r;
          }
          if (cause instanceof Error err) {
            throw err;
          }
          throw new IllegalStateException("the vector search failed", cause);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
