package dev.memhook.lucene;

import dev.memhook.lucene.internal.vectors.GraphlessVectorsFormat;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;

/**
 * When the vectors a writer flushes or merges get their HNSW graph: the store's choice of vector
 * format, segment by segment.
 *
 * <h2>Design note</h2>
 *
 * Building an HNSW graph is most of what storing a vector costs, and Lucene builds it as each
 * vector is added, then again, for most vectors, at every merge that takes their segment. A bulk
 * load (one {@link LuceneMemoryStore#putAll} after another, as an import or {@code rememberAll}
 * writes) thus builds graphs many times over that nobody searches before the load ends. While a
 * bulk load is under way ({@link #bulkWrite} until {@link #settle}), the segments a writer starts
 * and the merges it starts write their vectors without a graph ({@link GraphlessVectorsFormat}),
 * and a search compares the query with each of their vectors; once the store is quiet, the idle
 * merge ({@link IdleMerges}, {@link IdleMergePlan}) rewrites every graphless segment with a graph,
 * merging the load's segments together first, so that the graph of a load is built once. A store
 * without idle merging never defers (nothing would build the graph), and neither does a single
 * {@link LuceneMemoryStore#put}: a bulk load is a {@code putAll} of at least {@link #BULK_BATCH}
 * memories. A load that never pauses defers for {@link #MAX_DEFERRAL} at most: then the idle merge
 * runs without waiting for quiet, and the next batches start another load.
 *
 * <p>The choice is made when Lucene starts a segment's vectors: a segment begun before a bulk load
 * keeps its graph, and one begun during it stays graphless until rewritten, even if the load ends
 * first. Which segments are graphless is read from their field infos (the per-field format name
 * Lucene records), so it survives a reopen: a graphless segment left by a closed store gets its
 * graph in the first quiet period after the store reopens.
 *
 * <p>Thread-safe: the flag is volatile, and the writer's threads only read it.
 */
final class VectorGraphs {

  /** The fewest memories a {@code putAll} holds for it to count as a bulk load. */
  static final int BULK_BATCH = 16;

  /**
   * The longest a bulk load defers graphs: a store written to without pause never becomes quiet,
   * and its graphless segments, searched by comparing every vector, would otherwise keep growing.
   * Past it, the idle merge runs without waiting for quiet ({@link #overdue}).
   */
  static final Duration MAX_DEFERRAL = Duration.ofMinutes(10);

  private final StoreWorkers workers;
  private final KnnVectorsFormat withGraph;
  private final KnnVectorsFormat graphless = new GraphlessVectorsFormat();
  private final boolean deferring;
  private final long maxDeferralNanos;

  /** Segment name to whether its vectors are graphless: a segment's files never change. */
  private final Map<String, Boolean> graphlessSegments = new ConcurrentHashMap<>();

  /** When the bulk load under way began, by {@link System#nanoTime()}; guarded by this. */
  private long bulkSince;

  private volatile boolean bulk;

  /**
   * @param withGraph the format of vectors with a graph, the store's usual one
   * @param deferring whether bulk loads defer the graph (only when something builds it later)
   */
  VectorGraphs(KnnVectorsFormat withGraph, boolean deferring) {
    this(new StoreWorkers(1), withGraph, deferring, MAX_DEFERRAL);
  }

  /**
   * @param workers the threads {@code withGraph} builds merged graphs with; {@link #close} stops
   *     them
   * @param withGraph the format of vectors with a graph, the store's usual one
   * @param deferring whether bulk loads defer the graph (only when something builds it later)
   */
  VectorGraphs(StoreWorkers workers, KnnVectorsFormat withGraph, boolean deferring) {
    this(workers, withGraph, deferring, MAX_DEFERRAL);
  }

  /** As above, deferring for at most {@code maxDeferral}: for tests. */
  VectorGraphs(KnnVectorsFormat withGraph, boolean deferring, Duration maxDeferral) {
    this(new StoreWorkers(1), withGraph, deferring, maxDeferral);
  }

  private VectorGraphs(
      StoreWorkers workers, KnnVectorsFormat withGraph, boolean deferring, Duration maxDeferral) {
    this.workers = workers;
    this.withGraph = withGraph;
    this.deferring = deferring;
    this.maxDeferralNanos = maxDeferral.toNanos();
  }

  /** The threads that build merged graphs; they also add the parts of a large batch. */
  StoreWorkers workers() {
    return workers;
  }

  /** The format the writer should use for the vectors it starts writing now. */
  KnnVectorsFormat format() {
    return bulk ? graphless : withGraph;
  }

  /** A {@code putAll} of {@code size} memories is about to be written. */
  void bulkWrite(int size) {
    if (deferring && size >= BULK_BATCH && !bulk) {
      synchronized (this) {
        if (!bulk) {
          bulkSince = System.nanoTime();
          bulk = true;
        }
      }
    }
  }

  /**
   * The bulk load is over (the store is quiet, or a merge is asked for): what the writer starts
   * from now on gets a graph again, until the next bulk load.
   */
  synchronized void settle() {
    bulk = false;
  }

  /** Whether a bulk load has deferred graphs for {@link #MAX_DEFERRAL} (as set) or more. */
  synchronized boolean overdue() {
    return bulk && System.nanoTime() - bulkSince >= maxDeferralNanos;
  }

  /** Whether a bulk load is deferring graphs now. */
  boolean bulk() {
    return bulk;
  }

  /**
   * Whether the vectors of {@code segment} were written without a graph; false for a segment
   * without vectors.
   *
   * @throws IOException if its field infos cannot be read
   */
  boolean graphless(SegmentCommitInfo segment) throws IOException {
    Boolean known = graphlessSegments.get(segment.info.name);
    if (known != null) {
      return known;
    }
    boolean found = false;
    for (FieldInfo field : fieldInfos(segment)) {
      if (field.hasVectorValues()
          && GraphlessVectorsFormat.NAME.equals(
              field.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY))) {
        found = true;
        break;
      }
    }
    graphlessSegments.put(segment.info.name, found);
    return found;
  }

  /** The field infos of {@code segment} as its latest field-infos generation records them. */
  private static FieldInfos fieldInfos(SegmentCommitInfo segment) throws IOException {
    Codec codec = segment.info.getCodec();
    String generation =
        segment.hasFieldUpdates()
            ? Long.toString(segment.getFieldInfosGen(), Character.MAX_RADIX)
            : "";
    if (segment.hasFieldUpdates() || !segment.info.getUseCompoundFile()) {
      return codec
          .fieldInfosFormat()
          .read(segment.info.dir, segment.info, generation, IOContext.READONCE);
    }
    try (Directory compound =
        codec.compoundFormat().getCompoundReader(segment.info.dir, segment.info)) {
      return codec.fieldInfosFormat().read(compound, segment.info, "", IOContext.READONCE);
    }
  }

  /** Stops the threads that help merges build graphs, once the writer is closed. Idempotent. */
  void close() {
    workers.close();
  }
}
