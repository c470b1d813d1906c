package dev.memhook.lucene;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.AlreadyClosedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a forget leaves to do after it returns, and when it is done: the second half of erasure.
 *
 * <h2>Design note</h2>
 *
 * <p>A forget, under the write lock, deletes the memory's documents (and adds its audit record),
 * commits, and destroys the memory's record key ({@link RecordKeys}): from then on no file holds
 * its record in a readable form. What the deleted documents leave in their segments — the words of
 * their text in the term dictionaries, their vectors, their encrypted records — stays until those
 * segments are rewritten. That rewrite is the <b>purge</b>: every segment with deleted documents is
 * merged on its own without them ({@link Expunge#policy}), on Lucene's merge threads, while reads
 * and writes go on; then the result is committed and the searchers refreshed, which deletes the old
 * segment files. A purge is due {@code delay} after the first forget it covers; it starts a quarter
 * of the delay after that forget, so that the forgets of the next moments share it, and has the
 * rest of the delay to finish (a rewrite writes the whole segment again; its vector graph starts
 * from the segment's own, without the deleted documents' nodes). A forget that arrives while a
 * purge runs is covered by the next one, due a delay after that forget like any other, which starts
 * once the running one has ended (and a quarter of the delay has passed since the forget). So every
 * purge is done within its delay as long as rewriting the segments takes less than half of it: a
 * forget just after a purge began waits for that rewrite, then for its own.
 *
 * <p><b>Journaled.</b> Two entries of the commit user data make it survive a crash: {@value
 * #KEYS_TO_DESTROY} names the ids whose keys the committed forget must still destroy (written in
 * the forget's own commit, removed at the next commit once the keys are gone), and {@value
 * #PURGE_BY} the time by which the pending purge must be done (removed by the purge's own commit).
 * On open, {@link #recover} destroys the keys still named and schedules the purge still due (by its
 * recorded deadline, or by the delay the store is now opened with if that is sooner); a purge cut
 * short by a crash or by close is redone whole.
 *
 * <p>A zero {@code delay} purges before a forget returns, under the write lock (the behaviour of a
 * store that must not keep residue): {@link #immediate()}.
 *
 * <p>Thread-safe. One daemon thread checks when a purge is due; {@link #purgeNow()} runs one on the
 * caller's thread; one purge runs at a time.
 */
final class Purges {
  private static final Logger LOG = LoggerFactory.getLogger(Purges.class);

  /** Commit user data: the ids, one per line, whose record keys a committed forget must destroy. */
  static final String KEYS_TO_DESTROY = "memhook.forget.keys";

  /** Commit user data: when the pending purge must be done, in epoch milliseconds. */
  static final String PURGE_BY = "memhook.purge.by";

  /** Longest time between two checks. */
  private static final long MAX_TICK_MILLIS = 5_000;

  /** Purges a caller of {@link #purgeNow} waits for while deleted documents outlive them. */
  private static final int WAITED_ATTEMPTS = 3;

  private final Duration delay;
  private final String location;
  private final Clock clock;
  private final ReentrantLock running = new ReentrantLock();

  /** The merges a purge started, to abort on close. */
  private final Set<MergePolicy.OneMerge> started = ConcurrentHashMap.newKeySet();

  /** Whether a purge is collecting the merges it starts (set while it asks for them). */
  private volatile boolean collecting;

  // Guarded by this.
  private final Set<String> keysToDestroy = new LinkedHashSet<>();
  private long purgeBy = -1;
  private long forgets;

  /** The count of forgets the running purge covers; {@link Long#MAX_VALUE} while none runs. */
  private long purgeCovers = Long.MAX_VALUE;

  /** When the first forget the running purge does not cover came, in epoch ms; -1: none yet. */
  private long firstUncoveredAt = -1;

  private ScheduledExecutorService timer;
  private IndexWriter writer;
  private WritePath writes;
  private volatile boolean closed;

  /**
   * @param delay how long after a forget its purge must be done; zero: before the forget returns
   * @param location what log messages call the index
   */
  Purges(Duration delay, String location, Clock clock) {
    this.delay = delay;
    this.location = location;
    this.clock = clock;
  }

  /** Whether a forget purges before it returns. */
  boolean immediate() {
    return delay.isZero();
  }

  /**
   * {@code policy}, recording the merges a purge's forced expunge starts, so that {@link #close()}
   * can abort them; every decision is {@code policy}'s.
   */
  MergePolicy policy(MergePolicy policy) {
    return new FilterMergePolicy(policy) {
      @Override
      public MergeSpecification findForcedDeletesMerges(SegmentInfos infos, MergeContext context)
          throws IOException {
        MergeSpecification spec = super.findForcedDeletesMerges(infos, context);
        if (spec != null && collecting) {
          started.addAll(spec.merges);
        }
        return spec;
      }
    };
  }

  /**
   * Reads what the last commit left to do ({@code userData}): destroys the keys it names, and
   * schedules the purge it names, at once if it is overdue. Call on open, before any write.
   */
  void recover(Map<String, String> userData, RecordKeys keys) throws IOException {
    String ids = userData.get(KEYS_TO_DESTROY);
    if (ids != null && !ids.isEmpty()) {
      Set<MemoryId> named =
          ids.lines().filter(s -> !s.isEmpty()).map(MemoryId::of).collect(Collectors.toSet());
      int destroyed = keys.destroy(named);
      LOG.info(
          "{}: a forget cut short by a crash destroyed {} record keys of {} on open",
          location,
          destroyed,
          named.size());
    }
    String by = userData.get(PURGE_BY);
    if (by != null) {
      long recorded;
      try {
        recorded = Long.parseLong(by);
      } catch (NumberFormatException e) {
        recorded = clock.millis(); // damaged: purge at once rather than never
      }
      synchronized (this) {
        // by the recorded deadline, or sooner if this store is configured with a shorter delay
        purgeBy = Math.min(recorded, clock.millis() + delay.toMillis());
      }
    }
  }

  /**
   * Under the write lock, before the commit of a forget of {@code ids}: records in the writer's
   * commit data the keys to destroy and, unless {@link #immediate()}, when the purge is due.
   */
  synchronized void forgetting(IndexWriter writer, Collection<MemoryId> ids) {
    ids.forEach(id -> keysToDestroy.add(id.value()));
    forgets++;
    if (forgets > purgeCovers && firstUncoveredAt < 0) {
      firstUncoveredAt = clock.millis(); // came while a purge runs: its deadline counts from now
    }
    if (!immediate() && purgeBy < 0) {
      purgeBy = clock.millis() + delay.toMillis();
    }
    writeCommitData(writer);
  }

  /**
   * Under the write lock, after the forget's commit: destroys the keys of {@code ids}; once they
   * are gone, the next commit no longer names them.
   *
   * @throws MemoryStoreException if a key could not be destroyed (the forget is committed, and the
   *     next open destroys the keys)
   */
  void destroyKeys(IndexWriter writer, RecordKeys keys, Collection<MemoryId> ids) {
    try {
      keys.destroy(ids);
    } catch (IOException | RuntimeException e) {
      throw new MemoryStoreException(
          "the forget is committed in the "
              + location
              + " but the record keys could not be destroyed ("
              + e.getMessage()
              + "); the forgotten memories cannot be read through the store, and the next open"
              + " destroys their keys: check disk space and permissions, then close and reopen the"
              + " store",
          e);
    }
    synchronized (this) {
      ids.forEach(id -> keysToDestroy.remove(id.value()));
      writeCommitData(writer);
    }
  }

  /** The writer's commit data with this class's entries as they stand; under the write lock. */
  private void writeCommitData(IndexWriter writer) {
    Map<String, String> data = new HashMap<>();
    Iterable<Map.Entry<String, String>> live = writer.getLiveCommitData();
    if (live != null) {
      live.forEach(e -> data.put(e.getKey(), e.getValue()));
    }
    if (keysToDestroy.isEmpty()) {
      data.remove(KEYS_TO_DESTROY);
    } else {
      data.put(KEYS_TO_DESTROY, String.join("\n", keysToDestroy));
    }
    if (purgeBy < 0) {
      data.remove(PURGE_BY);
    } else {
      data.put(PURGE_BY, Long.toString(purgeBy));
    }
    writer.setLiveCommitData(data.entrySet());
  }

  /** Starts checking for due purges; nothing to do for a read-only store. */
  void start(IndexWriter writer, WritePath writes) {
    if (writer == null) {
      return;
    }
    this.writer = writer;
    this.writes = writes;
    if (immediate()) {
      synchronized (this) {
        if (purgeBy < 0) {
          return;
        }
      }
    }
    // immediate: only a purge an earlier lifetime left is ever due, once
    long tick =
        immediate()
            ? MAX_TICK_MILLIS
            : Math.max(10, Math.min(MAX_TICK_MILLIS, delay.toMillis() / 8));
    timer =
        Executors.newSingleThreadScheduledExecutor(
            new ThreadFactoryBuilder()
                .setNameFormat("memhook-lucene-purge")
                .setDaemon(true)
                .build());
    timer.scheduleWithFixedDelay(this::check, 0, tick, TimeUnit.MILLISECONDS);
  }

  /** When the pending purge must be done, in epoch milliseconds; -1 if none is pending. */
  synchronized long purgeBy() {
    return purgeBy;
  }

  /** One check on the timer thread; never throws (that would end the schedule). */
  private void check() {
    long startAt;
    synchronized (this) {
      if (purgeBy < 0) {
        return;
      }
      // a quarter of the delay after the first forget: three quarters before it is due
      startAt = purgeBy - delay.toMillis() * 3 / 4;
    }
    if (clock.millis() < startAt || closed) {
      return;
    }
    try {
      purge(false, false);
    } catch (RuntimeException e) {
      if (closed || writes.isClosed()) {
        return;
      }
      LOG.warn("purging the {} failed; the next check tries again: {}", location, e.toString());
    }
  }

  /**
   * Runs a purge now, on the calling thread, waiting for one already running; see {@link
   * LuceneMemoryStore#purge()}.
   */
  void purgeNow() {
    purge(true, true);
  }

  /**
   * @param wait whether to wait for a purge already running (else return at once)
   * @param always whether to purge when no forget is pending (else return at once)
   */
  private void purge(boolean wait, boolean always) {
    if (wait) {
      running.lock();
    } else if (!running.tryLock()) {
      return;
    }
    try {
      long covered;
      synchronized (this) {
        if (purgeBy < 0 && !always) {
          return;
        }
        covered = forgets;
        purgeCovers = covered;
        firstUncoveredAt = -1;
      }
      long began = clock.millis();
      boolean[] residue = new boolean[1];
      // a caller who waits gets the deletes a concurrent merge carried over purged too
      for (int attempt = 0;
          attempt == 0 || (wait && residue[0] && attempt < WAITED_ATTEMPTS);
          attempt++) {
        expunge();
        writes.commitPurge(w -> residue[0] = finished(w, covered));
      }
      if (residue[0]) {
        LOG.debug("{}: a deleted document outlived the purge; the next purge takes it", location);
      }
      LOG.debug("{}: purged in {} ms", location, clock.millis() - began);
    } finally {
      synchronized (this) {
        purgeCovers = Long.MAX_VALUE;
        firstUncoveredAt = -1;
      }
      running.unlock();
    }
  }

  /**
   * Under the write lock, just before the purge's commit: the purge is done unless forgets came
   * after it began, or a segment still holds a deleted document. Forgets that came while it ran are
   * due {@code delay} after the first of them, as if no purge had run, so the next purge starts as
   * soon as the check sees this one ended if a quarter of the delay has passed since that forget; a
   * deleted document left behind alone is due {@code delay} from now. A deleted document survives
   * the purge when a merge that was running as its rounds of expunging ended (a natural or idle
   * merge that took a segment with a delete) carried the delete into its result, or when a write
   * replaced a memory while it ran.
   *
   * @return whether a segment still holds a deleted document
   */
  private synchronized boolean finished(IndexWriter writer, long covered) {
    boolean residue = !immediate() && writer.hasDeletions();
    if (forgets != covered) {
      purgeBy = (firstUncoveredAt < 0 ? clock.millis() : firstUncoveredAt) + delay.toMillis();
    } else {
      purgeBy = residue ? clock.millis() + delay.toMillis() : -1;
    }
    writeCommitData(writer);
    return residue;
  }

  /** Rewrites every segment with deleted documents, outside the write lock. */
  private void expunge() {
    try {
      for (int round = 0; round < Expunge.MAX_ROUNDS && writer.hasDeletions(); round++) {
        Expunge.awaitMergesWithDeletes(writer);
        collecting = true;
        try {
          writer.forceMergeDeletes(true);
        } finally {
          collecting = false;
          started.clear();
        }
        if (closed) {
          throw new AlreadyClosedException("the store closed during the purge");
        }
      }
    } catch (InterruptedIOException e) {
      Thread.currentThread().interrupt();
      throw new MemoryStoreException("interrupted while purging the " + location, e);
    } catch (IOException e) {
      throw new MemoryStoreException(
          "purging the "
              + location
              + " failed: "
              + e.getMessage()
              + "; the forgotten memories stay unreadable, and the next purge tries again to"
              + " rewrite their segments: check free disk space",
          e);
    }
  }

  /**
   * Stops checking; completes a purge that is past its deadline (a short-lived process, such as a
   * command-line run, would otherwise never stay open long enough for it), waiting for it; and
   * aborts the merges of a purge not yet due (it is redone after the store reopens: the commit
   * still says it is due). Idempotent.
   */
  void close() {
    if (timer != null) {
      // never by interrupting: an interrupt during Lucene's file I/O fails the writer
      timer.shutdown();
    }
    boolean overdue;
    synchronized (this) {
      overdue = purgeBy >= 0 && clock.millis() >= purgeBy;
    }
    if (overdue && !closed && writer != null && !writes.isClosed()) {
      try {
        purge(true, false);
      } catch (RuntimeException e) {
        LOG.warn(
            "the overdue purge of the {} failed at close; the next open tries again: {}",
            location,
            e.toString());
      }
    }
    closed = true;
    for (MergePolicy.OneMerge merge : started) {
      merge.setAborted();
    }
    if (timer != null) {
      try {
        timer.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
