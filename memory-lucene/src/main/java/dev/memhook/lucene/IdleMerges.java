package dev.memhook.lucene;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
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
 * Merges a writable index down to as few segments as its size cap allows once nobody has written to
 * it for a while: the read-mostly half of the merge policy.
 *
 * <h2>Design note</h2>
 *
 * Every search visits every segment, so a store searches fastest with few of them. Lucene's {@code
 * TieredMergePolicy} merges as writes flush segments, and its size cap ({@link
 * LuceneMemoryStore.Builder#maxSegmentMB}, which bounds what one forget rewrites) makes it leave
 * many segments between half the cap and the cap: it does not merge segments that large. Once the
 * store has seen no write for {@code delay}, this class packs the segments into as few groups of at
 * most the cap as first-fit decreasing finds (within 11/9 of the fewest possible) and asks the
 * writer to merge each group of two or more, through a forced merge whose merges this class's
 * policy chooses ({@link #IDLE}). Lucene's own forced merge to a segment count was tried first: it
 * reaches the count even when that means a segment past the cap, which would break the forget
 * bound. The merges run on Lucene's merge threads while reads and writes go on; when they are done,
 * the result is committed and the searchers refreshed. A write during the merges does not stop
 * them; the next quiet period looks again. {@link #close()} aborts the merges it asked for, so
 * closing a store never waits for a long idle merge: its work is redone in the next quiet period
 * after the store reopens.
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
  private final double maxSegmentMB;
  private final String location;

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
   * @param maxSegmentMB the merge policy's size cap
   * @param location what log messages call the index
   */
  IdleMerges(Duration delay, double maxSegmentMB, String location) {
    this.delay = delay;
    this.maxSegmentMB = maxSegmentMB;
    this.location = location;
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
          return super.findForcedMerges(infos, maxSegmentCount, segmentsToMerge, context);
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
   * The merges that pack the segments {@code segmentsToMerge} names (and no merge holds) into
   * groups of at most the cap, first-fit decreasing; null if no group has two segments.
   */
  private MergePolicy.MergeSpecification packed(
      SegmentInfos infos,
      Map<SegmentCommitInfo, Boolean> segmentsToMerge,
      MergePolicy.MergeContext context)
      throws IOException {
    long cap = (long) (maxSegmentMB * 1024 * 1024);
    List<SegmentCommitInfo> candidates = new ArrayList<>();
    for (SegmentCommitInfo info : infos) {
      if (segmentsToMerge.containsKey(info) && !context.getMergingSegments().contains(info)) {
        candidates.add(info);
      }
    }
    Map<SegmentCommitInfo, Long> sizes = new HashMap<>();
    for (SegmentCommitInfo info : candidates) {
      sizes.put(info, info.sizeInBytes());
    }
    candidates.sort(Comparator.comparing(sizes::get, Comparator.reverseOrder()));
    List<List<SegmentCommitInfo>> bins = new ArrayList<>();
    List<Long> filled = new ArrayList<>();
    for (SegmentCommitInfo info : candidates) {
      long size = sizes.get(info);
      int bin = 0;
      while (bin < bins.size() && filled.get(bin) + size > cap) {
        bin++;
      }
      if (bin == bins.size()) {
        bins.add(new ArrayList<>());
        filled.add(0L);
      }
      bins.get(bin).add(info);
      filled.set(bin, filled.get(bin) + size);
    }
    MergePolicy.MergeSpecification spec = new MergePolicy.MergeSpecification();
    for (List<SegmentCommitInfo> bin : bins) {
      if (bin.size() >= 2) {
        spec.add(new MergePolicy.OneMerge(bin));
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
      if (writesNow != lastWrites) {
        lastWrites = writesNow;
        quietSince = now;
        return;
      }
      if (writesNow == settledAt || now - quietSince < delay.toNanos()) {
        return;
      }
      settledAt = writesNow;
      if (searchers.withSearcher(s -> s.getIndexReader().leaves().size()) < 2) {
        return;
      }
      writer.forceMerge(IDLE, false); // the policy records the merges it starts in started
      merging = !started.isEmpty(); // none: the segments are packed already
      if (merging) {
        LOG.debug("idle: merging the {}: {} merges", location, started.size());
      }
    } catch (IOException | RuntimeException e) {
      merging = false;
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
    writes.commitMerged();
    settledAt = searchers.writesCounted(); // the commit's own count is not a write
    LOG.debug("idle: merged the {}", location);
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
