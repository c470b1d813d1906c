package dev.memhook.lucene;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges a writable index down to as few segments as its largest segment allows once nobody has
 * written to it for a while: the read-mostly half of the merge policy.
 *
 * <h2>Design note</h2>
 *
 * Every search visits every segment, so a store searches fastest with few of them. Lucene's {@code
 * TieredMergePolicy} merges as writes flush segments, up to {@link
 * LuceneMemoryStore.Builder#maxSegmentMB}, but it leaves several segments per size tier and does
 * not merge segments over half that size. Once the store has seen no write for {@code delay} and
 * the writer has no merge running (the merges a bulk load set off finish first, so that their
 * segments are planned with the rest), this class asks {@link IdleMergePlan} for the merges that
 * leave the fewest segments of at most that size (one for a store smaller than it) and asks the
 * writer to run them, through a forced merge whose merges this class's policy chooses ({@link
 * #IDLE}). Lucene's own forced merge to a segment count is not used: it reaches the count even when
 * that means a segment past the limit. The merges run on Lucene's merge threads while reads and
 * writes go on; when they are done, the result is committed, the searchers refreshed, and the plan
 * asked again (a merge that finished meanwhile may leave more to pack) until it has nothing to do.
 * A write during the merges does not stop them; the next quiet period looks again. A bulk load that
 * has written graphless segments for too long ({@link VectorGraphs#overdue}) is merged without
 * waiting for quiet, so that a store written to without pause does not keep segments that are
 * searched without a graph. {@link #close()} aborts the merges it asked for, so closing a store
 * never waits for a long idle merge: its work is redone in the next quiet period after the store
 * reopens.
 *
 * <p>Thread-safe: one daemon thread checks, the store's threads only note writes (through the
 * searchers' write count) and close.
 */
final class IdleMerges {
  private static final Logger LOG = LoggerFactory.getLogger(IdleMerges.class);

  /**
   * The segment count an idle merge passes to {@link IndexWriter#forceMerge(int, boolean)}: not a
   * count but the mark that tells {@link #policy}'s forced merges to pack by size instead.
   */
  static final int IDLE = Integer.MAX_VALUE - 1;

  /** Longest time between two checks; shorter delays check four times per delay. */
  private static final long MAX_TICK_MILLIS = 5_000;

  private final Duration delay;
  private final long maxSegmentBytes;
  private final String location;
  private final VectorGraphs graphs;

  /** The merges a forced merge of this class started, to abort on close. */
  private final Set<MergePolicy.OneMerge> started = ConcurrentHashMap.newKeySet();

  /** Whether this class's merges are under way (set on the timer thread only). */
  private volatile boolean merging;

  private ScheduledExecutorService timer;
  private IndexWriter writer;
  private WritePath writes;
  private FreshSearchers searchers;

  // Confined to the timer thread.
  private long lastWrites = -1;
  private long quietSince;
  private long settledAt = -1;

  /**
   * @param delay how long the store must see no write before merging; zero turns merging off
   * @param maxSegmentMB the largest segment a merge builds, in MB
   * @param location what log messages call the index
   * @param graphs which segments lack their vector graph, and when a bulk load is over
   */
  IdleMerges(Duration delay, double maxSegmentMB, String location, VectorGraphs graphs) {
    this.delay = delay;
    this.maxSegmentBytes = (long) (maxSegmentMB * 1024 * 1024);
    this.location = location;
    this.graphs = graphs;
  }

  /**
   * {@code policy}, recording the merges of the forced merges this class starts, so that {@link
   * #close()} can abort them; every decision is {@code policy}'s.
   */
  MergePolicy policy(MergePolicy policy) {
    return new FilterMergePolicy(policy) {
      @Override
      public MergeSpecification findForcedMerges(
          SegmentInfos infos,
          int maxSegmentCount,
          Map<SegmentCommitInfo, Boolean> segmentsToMerge,
          MergeContext context)
          throws IOException {
        if (maxSegmentCount != IDLE) {
          MergeSpecification spec =
              super.findForcedMerges(infos, maxSegmentCount, segmentsToMerge, context);
          // Lucene leaves a segment alone that is already as merged as asked: a graphless one
          // still needs its graph
          return spec != null ? spec : graphRewrites(infos, segmentsToMerge, context);
        }
        MergeSpecification spec = packed(infos, segmentsToMerge, context);
        if (spec != null) {
          started.addAll(spec.merges);
        }
        return spec;
      }
    };
  }

  /**
   * The merges {@link IdleMergePlan} chooses for the segments {@code segmentsToMerge} names that no
   * merge holds; null if there are none.
   */
  private MergePolicy.MergeSpecification packed(
      SegmentInfos infos,
      Map<SegmentCommitInfo, Boolean> segmentsToMerge,
      MergePolicy.MergeContext context)
      throws IOException {
    Map<String, SegmentCommitInfo> byName = new HashMap<>();
    List<IdleMergePlan.Segment> segments = new ArrayList<>();
    for (SegmentCommitInfo info : infos) {
      if (segmentsToMerge.containsKey(info) && !context.getMergingSegments().contains(info)) {
        byName.put(info.info.name, info);
        segments.add(
            new IdleMergePlan.Segment(
                info.info.name,
                info.sizeInBytes(),
                info.info.maxDoc(),
                Math.min(info.info.maxDoc(), context.numDeletesToMerge(info)),
                needsGraph(info)));
      }
    }
    MergePolicy.MergeSpecification spec = new MergePolicy.MergeSpecification();
    for (List<String> merge : IdleMergePlan.merges(segments, maxSegmentBytes)) {
      spec.add(new MergePolicy.OneMerge(merge.stream().map(byName::get).toList()));
    }
    return spec.merges.isEmpty() ? null : spec;
  }

  /**
   * Whether {@code info} should be rewritten to get its vector graph: it is graphless and no bulk
   * load is under way (a rewrite during one would be graphless again).
   */
  private boolean needsGraph(SegmentCommitInfo info) throws IOException {
    return !graphs.bulk() && graphs.graphless(info);
  }

  /**
   * A merge of its own for each graphless segment {@code segmentsToMerge} names that no merge
   * holds, so that a forced merge leaves none without a graph; null if there is none.
   */
  private MergePolicy.MergeSpecification graphRewrites(
      SegmentInfos infos,
      Map<SegmentCommitInfo, Boolean> segmentsToMerge,
      MergePolicy.MergeContext context)
      throws IOException {
    MergePolicy.MergeSpecification spec = new MergePolicy.MergeSpecification();
    for (SegmentCommitInfo info : infos) {
      if (segmentsToMerge.containsKey(info)
          && !context.getMergingSegments().contains(info)
          && needsGraph(info)) {
        spec.add(new MergePolicy.OneMerge(List.of(info)));
      }
    }
    return spec.merges.isEmpty() ? null : spec;
  }

  /** Starts checking, unless merging is off. */
  void start(IndexWriter writer, WritePath writes, FreshSearchers searchers) {
    if (delay.isZero() || writer == null) {
      return;
    }
    this.writer = writer;
    this.writes = writes;
    this.searchers = searchers;
    long tick = Math.max(10, Math.min(MAX_TICK_MILLIS, delay.toMillis() / 4));
    timer =
        Executors.newSingleThreadScheduledExecutor(
            new ThreadFactoryBuilder()
                .setNameFormat("memhook-lucene-idle-merge")
                .setDaemon(true)
                .build());
    timer.scheduleWithFixedDelay(this::check, tick, tick, TimeUnit.MILLISECONDS);
  }

  /** One check on the timer thread; never throws (that would end the schedule). */
  private void check() {
    try {
      if (merging) {
        finishWhenDone();
        return;
      }
      long writesNow = searchers.writesCounted();
      long now = System.nanoTime();
      // a bulk load that has deferred graphs too long is merged without waiting for quiet
      if (!graphs.overdue()) {
        if (writesNow != lastWrites) {
          lastWrites = writesNow;
          quietSince = now;
          return;
        }
        if (writesNow == settledAt || now - quietSince < delay.toNanos()) {
          return;
        }
      }
      if (writer.hasPendingMerges() || !writer.getMergingSegments().isEmpty()) {
        return; // natural merges first: the plan then sees the segments they leave
      }
      graphs.settle(); // the load is over: what is merged from now on gets its graph
      writer.forceMerge(IDLE, false); // the policy records the merges it starts in started
      merging = !started.isEmpty();
      if (merging) {
        LOG.debug("idle: merging the {}: {} merges", location, started.size());
      } else {
        // Nothing to merge until the next write; commit what natural merges finished since the
        // last write, so that a reopen finds the layout the store settled into.
        commitQuiet(writesNow);
      }
    } catch (IOException | RuntimeException e) {
      merging = false;
      settledAt = lastWrites; // not again before the next write
      if (writes.isClosed()) {
        return; // closed under the check (Lucene's AlreadyClosedException, the store's own)
      }
      LOG.warn(
          "merging the idle {} failed; searches go on over more segments, and the next quiet"
              + " period tries again: {}",
          location,
          e.toString());
    }
  }

  /** Once the writer has no merge running or pending: commits and refreshes the searchers. */
  private void finishWhenDone() {
    if (writer.hasPendingMerges() || !writer.getMergingSegments().isEmpty()) {
      return;
    }
    merging = false;
    started.clear();
    long before = searchers.writesCounted();
    writes.commitMerged();
    if (before == lastWrites) {
      // The commit's own count is not a write: the store is still quiet, and the next check asks
      // the plan again.
      lastWrites = searchers.writesCounted();
    }
    LOG.debug("idle: merged the {}", location);
  }

  /**
   * Commits a store that has nothing left to merge and marks it settled until the next write;
   * {@code writesNow} is the write count the plan was made at.
   */
  private void commitQuiet(long writesNow) {
    writes.commitMerged();
    long after = searchers.writesCounted();
    // the commit counts once; more than that means a write came in meanwhile: plan again after it
    settledAt = writesNow;
    if (after == writesNow + 1) {
      lastWrites = after;
      settledAt = after;
    }
  }

  /**
   * Stops checking and aborts the merges this class started (Lucene drops an aborted merge's
   * partial files); the store then closes without waiting for them. Idempotent.
   */
  void close() {
    if (timer == null) {
      return;
    }
    // Never by interrupting the check: an interrupt during Lucene's file I/O (the commit after a
    // merge) closes the channel in use and fails the commit as a tragedy. shutdown() cancels the
    // waiting checks and lets a running one end.
    timer.shutdown();
    try {
      timer.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (MergePolicy.OneMerge merge : started) {
      merge.setAborted();
    }
    started.clear();
  }
}
