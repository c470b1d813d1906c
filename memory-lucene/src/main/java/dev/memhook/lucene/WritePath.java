package dev.memhook.lucene;

import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How changes reach the index and become durable: one writer behind one write lock, a commit per
 * write or a group commit, and the order in which the store closes.
 *
 * <h2>Design note</h2>
 *
 * Writes are serialized by the lock, so a commit never holds half of a batch. By default every
 * write to an index on disk is committed (fsync'ed) before it returns (in memory, where a commit
 * makes nothing durable, writes commit only when asked); with group commit a named daemon thread
 * commits at most an interval later and {@link #close()} commits what is pending. Before a write
 * returns it is counted for the searchers ({@link FreshSearchers#countWrite()}), so every later
 * read sees it, and its ids are dropped from the record cache; it does not refresh a searcher
 * itself. A forget ({@link #erase}) always commits, and then destroys the forgotten memories'
 * record keys ({@link RecordKeys}), so that their records cannot be read from the files once it
 * returns; their segments are rewritten later by the purge ({@link Purges}), or before it returns
 * when the purge delay is zero. Every commit first forces the record keys appended since the last
 * one, so that no committed record is without its key. A write that fails half-way may leave
 * partial changes in the writer: the failure is latched, every later write is refused, and close
 * rolls back instead of committing, so nothing uncommitted is ever committed.
 *
 * <p>Thread-safe. Owns the writer and its directory from construction to {@link #close()}, which is
 * idempotent; afterwards every method throws {@link IllegalStateException}.
 */
final class WritePath {
  private static final Logger LOG = LoggerFactory.getLogger(WritePath.class);

  /** A change to the index, applied under the write lock. */
  @FunctionalInterface
  interface IndexAction {
    /** Applies the change; returns false if there was nothing to change. */
    boolean apply(IndexWriter writer) throws IOException;
  }

  private final IndexWriter writer;
  private final Directory directory;
  private final FreshSearchers searchers;
  private final RecordCache records;
  private final RecordKeys keys;
  private final Purges purges;
  private final String location;
  private final boolean commitEachWrite;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final AtomicBoolean closed = new AtomicBoolean();

  /** The group-commit thread; null when writes commit one by one, or not at all (in memory). */
  private final GroupCommit committer;

  /** Guarded by writeLock: applied writes the group commit has not committed yet. */
  private boolean dirty;

  /**
   * Guarded by writeLock; set when a write failed half-way: the writer may hold partial changes.
   */
  private Exception writeFailure;

  /**
   * Takes over {@code writer} and its {@code directory}, and starts the group-commit thread if
   * {@code groupCommit} is present (and the index is on disk and writable). A null {@code writer}
   * makes a read-only store: every write throws {@link IllegalStateException}. An index not {@code
   * onDisk} commits only when asked to (a forget, a merge, {@link #flush}, close): nothing outlives
   * it, and its writes are visible without a commit, through the near-real-time searchers.
   */
  WritePath(
      IndexWriter writer,
      Directory directory,
      FreshSearchers searchers,
      RecordCache records,
      RecordKeys keys,
      Purges purges,
      String location,
      Optional<Duration> groupCommit,
      boolean onDisk) {
    this.keys = keys;
    this.purges = purges;
    this.writer = writer;
    this.directory = directory;
    this.searchers = searchers;
    this.records = records;
    this.location = location;
    this.commitEachWrite = groupCommit.isEmpty() && onDisk;
    this.committer =
        groupCommit.isEmpty() || writer == null || !onDisk
            ? null
            : GroupCommit.every(groupCommit.get(), () -> commitQuietly(false, "group commit"));
  }

  /**
   * @throws IllegalStateException if the store is closed
   */
  void ensureOpen() {
    if (closed.get()) {
      throw new IllegalStateException("the LuceneMemoryStore (" + location + ") is closed");
    }
  }

  boolean isClosed() {
    return closed.get();
  }

  /** Whether the store was opened read-only (no writer). */
  boolean isReadOnly() {
    return writer == null;
  }

  /**
   * @throws IllegalStateException if the store is read-only
   */
  private void checkNotReadOnly() {
    if (writer == null) {
      throw new IllegalStateException(
          "the LuceneMemoryStore ("
              + location
              + ") is open read-only; reads, searches and export work, writes do not:"
              + " open it without readOnly() to write");
    }
  }

  /**
   * Applies a write of the memories {@code ids} under the write lock, commits it (or leaves it to
   * the group commit), counts it for the searchers and drops its ids from the record cache.
   *
   * @return what {@code action} returned: false if it changed nothing (then nothing is committed)
   * @throws MemoryStoreException if applying or committing failed, or an earlier write did
   */
  boolean write(Collection<MemoryId> ids, IndexAction action) {
    return apply(ids, action, false);
  }

  /**
   * Applies a write that deletes the memories {@code ids} and must erase them: as {@link #write},
   * and then, whatever the commit policy, records in the commit what is left to do ({@link
   * Purges#forgetting}), commits (with group commit, together with the writes pending) and destroys
   * the memories' record keys, so that when it returns no file holds their records in a readable
   * form. With a zero purge delay every segment holding a deleted document is also rewritten
   * without it ({@link Expunge}) before the commit, and the searchers are refreshed, so that the
   * old segments' files, no longer referenced by the commit or by a searcher, are deleted before it
   * returns (a searcher that a read in progress holds keeps its files until that read releases it);
   * otherwise the purge does that within its delay.
   *
   * @return what {@code action} returned: false if it changed nothing (then nothing is committed)
   * @throws MemoryStoreException if applying, expunging or committing failed (then nothing of this
   *     write is committed and the store refuses further writes: close and reopen it), if the keys
   *     could not be destroyed (then the forget is committed and the next open destroys them), or
   *     if the searchers could not be refreshed after the commit (then the write is committed and
   *     the next read retries the refresh)
   */
  boolean erase(Collection<MemoryId> ids, IndexAction action) {
    return apply(ids, action, true);
  }

  private boolean apply(Collection<MemoryId> ids, IndexAction action, boolean erase) {
    writeLock.lock();
    try {
      ensureOpen();
      checkNotReadOnly();
      checkWritable();
      boolean changed;
      try {
        changed = action.apply(writer);
        if (changed && erase && purges.immediate()) {
          Expunge.deletes(writer);
        }
      } catch (IOException | AlreadyClosedException e) {
        writeFailure = e;
        throw new MemoryStoreException(
            "writing to the "
                + location
                + " failed: "
                + e.getMessage()
                + "; nothing was committed; check disk space and permissions, then close and reopen the store"
                + (erase ? " and repeat the forget" : ""),
            e);
      }
      if (!changed) {
        return false;
      }
      if (erase) {
        purges.forgetting(writer, ids); // journaled in the commit: keys to destroy, purge due
      }
      if (commitEachWrite || erase) {
        commitNow(erase ? "commit a forget" : "commit a write");
      } else {
        dirty = true;
      }
      // Counted after the commit: a write whose commit failed is not counted, so no read
      // refreshes to show it. Invalidated after it is counted: see RecordCache.
      searchers.countWrite();
      records.invalidate(ids);
      if (erase) {
        purges.destroyKeys(writer, keys, ids);
        if (purges.immediate()) {
          refreshAfter("forgotten");
        }
      }
      return true;
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Refreshes the searchers after a committed change that counted itself, so that they release the
   * segments it replaced; a failure is reported, and the next read retries the refresh.
   */
  private void refreshAfter(String what) {
    try {
      searchers.refreshIfStale();
    } catch (IOException e) {
      throw new MemoryStoreException(
          "the "
              + location
              + " was "
              + what
              + " and committed but the searcher could not"
              + " be refreshed: "
              + e.getMessage()
              + "; the next read retries the refresh",
          e);
    }
  }

  /**
   * Runs {@code action} with the writer under the write lock, on an open store: for changes that
   * are not writes of memories, such as the commit user data. It may commit with {@link
   * #commitNow}.
   */
  void locked(Consumer<IndexWriter> action) {
    writeLock.lock();
    try {
      ensureOpen();
      checkNotReadOnly();
      action.accept(writer);
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Commits; under the write lock. A failure marks the store failed.
   *
   * @param what what the commit is for, as the error message says it ("commit a write")
   */
  void commitNow(String what) {
    try {
      keys.sync(); // no committed record without its key
      writer.commit();
      dirty = false;
    } catch (IOException | AlreadyClosedException e) {
      writeFailure = e;
      throw new MemoryStoreException(
          "could not "
              + what
              + " to the "
              + location
              + ": "
              + e.getMessage()
              + "; the write is not durable; check disk space and permissions, then close and reopen the store",
          e);
    }
  }

  /**
   * Commits the writes the group commit has not committed yet, now; nothing to do when every write
   * commits, or when nothing is pending. See {@link LuceneMemoryStore#flush()}.
   */
  void flush() {
    writeLock.lock();
    try {
      ensureOpen();
      if (writer == null) {
        return;
      }
      checkWritable();
      if (dirty) {
        commitNow("commit the pending writes");
      }
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Merges down to at most {@code maxSegments} segments, commits, and refreshes the searcher; see
   * {@link LuceneMemoryStore#forceMerge}. Writes and commits wait meanwhile; reads do not.
   */
  void forceMerge(int maxSegments) {
    writeLock.lock();
    try {
      ensureOpen();
      checkNotReadOnly();
      checkWritable();
      try {
        writer.forceMerge(maxSegments);
      } catch (IOException | AlreadyClosedException e) {
        if (e instanceof AlreadyClosedException || writer.getTragicException() != null) {
          writeFailure = e;
          throw new MemoryStoreException(
              "merging the segments of the "
                  + location
                  + " failed: "
                  + e.getMessage()
                  + "; the index writer gave up; close and reopen the store (committed memories are intact)",
              e);
        }
        throw new MemoryStoreException(
            "merging the segments of the "
                + location
                + " failed: "
                + e.getMessage()
                + "; no memory was changed; check free disk space (a merge may need twice the index's size), then"
                + " retry",
            e);
      }
      commitNow("commit the merged segments");
      // Counted like a write, so that if this refresh fails the next read refreshes instead.
      searchers.countWrite();
      refreshAfter("merged");
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Closes the store, in this order: stops the group commit; commits what is pending unless a write
   * failed; closes the searchers; closes the writer, which waits for running merges and commits
   * them, or rolls it back after a failure; closes the directory; clears the record cache.
   * Idempotent.
   *
   * @return whether this call closed it (false if it was closed already)
   * @throws MemoryStoreException if the final commit or a release failed
   */
  boolean close() {
    if (!closed.compareAndSet(false, true)) {
      return false;
    }
    if (committer != null) {
      committer.stop();
    }
    IOException failure = null;
    writeLock.lock();
    try {
      if (writer != null && writeFailure == null && (dirty || writer.hasUncommittedChanges())) {
        keys.sync();
        writer.commit();
      }
    } catch (IOException | RuntimeException e) {
      failure = e instanceof IOException io ? io : new IOException(e);
    } finally {
      writeLock.unlock();
    }
    try {
      searchers.close();
    } catch (IOException e) {
      failure = failure == null ? e : failure;
    }
    try {
      if (writer == null) {
        // read-only: nothing to commit or release but the searchers and the directory
      } else if (writeFailure == null && failure == null) {
        writer.close(); // waits for running merges, then commits them
      } else {
        writer.rollback();
      }
    } catch (IOException e) {
      failure = failure == null ? e : failure;
    }
    try {
      keys.close();
    } catch (IOException e) {
      failure = failure == null ? e : failure;
    }
    try {
      directory.close();
    } catch (IOException e) {
      failure = failure == null ? e : failure;
    }
    records.clear();
    if (failure != null) {
      throw new MemoryStoreException(
          "closing the "
              + location
              + " failed: "
              + failure.getMessage()
              + "; writes since the last commit may be lost; reopen the store to check",
          failure);
    }
    return true;
  }

  /** Under the write lock: refuses to write after a failed write. */
  private void checkWritable() {
    if (writeFailure != null) {
      throw new MemoryStoreException(
          "an earlier write to the "
              + location
              + " failed ("
              + writeFailure.getMessage()
              + "); close and reopen the store before writing again",
          writeFailure);
    }
  }

  /**
   * Commits what an idle merge changed (and any write pending) and refreshes the searchers to the
   * merged segments; a failure is logged, not kept: the next commit covers the merge. See {@link
   * IdleMerges}.
   */
  void commitMerged() {
    if (commitQuietly(true, "commit after an idle merge")) {
      searchers.countWrite();
      try {
        searchers.refreshIfStale();
      } catch (IOException | AlreadyClosedException e) {
        LOG.debug("refreshing the {} after an idle merge failed; the next read retries", location);
      }
    }
  }

  /**
   * Commits a purge's rewritten segments, {@code beforeCommit} first updating the commit data, and
   * refreshes the searchers so that the old segments' files are deleted; see {@link Purges}.
   *
   * @throws MemoryStoreException if the store is closed, an earlier write failed, or the commit
   *     failed
   */
  void commitPurge(Consumer<IndexWriter> beforeCommit) {
    writeLock.lock();
    try {
      ensureOpen();
      checkWritable();
      beforeCommit.accept(writer);
      commitNow("commit a purge");
      searchers.countWrite(); // like a write, so that if this refresh fails the next read does it
      refreshAfter("purged");
    } finally {
      writeLock.unlock();
    }
  }

  /** Commits unless closed or failed (or clean, unless {@code evenIfClean}); never throws. */
  private boolean commitQuietly(boolean evenIfClean, String what) {
    writeLock.lock();
    try {
      if ((!dirty && !evenIfClean) || writeFailure != null || closed.get() || writer == null) {
        return false;
      }
      keys.sync();
      writer.commit();
      dirty = false;
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.warn("{} of the {} failed; will retry: {}", what, location, e.toString());
      return false;
    } finally {
      writeLock.unlock();
    }
  }
}
