package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_LIVE;

import dev.memhook.api.MemoryStoreException;
import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LRUQueryCache;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryCachingPolicy;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.AlreadyClosedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's searchers: near-real-time searchers over its writer that reflect every write which
 * returned before a read began (read-your-writes), and the cache of scope filters they share.
 *
 * <h2>Design note</h2>
 *
 * Every write counts itself ({@link #countWrite()}) before it returns, after it was applied to the
 * writer. Every read runs {@link #withSearcher}, which first refreshes the searcher if it reflects
 * fewer writes than were counted; readers that find it stale together wait for one refresh. Writes
 * never refresh: writes with no read between them share one refresh and one flushed segment, and a
 * write does not pay for opening a searcher. The searchers come from Lucene's {@link
 * SearcherManager}.
 *
 * <p>Lucene's {@code ControlledRealTimeReopenThread} gives the same guarantee with the writer's
 * sequence numbers (a reader waits until the generation of the last write is searchable), but it
 * refreshes on a background thread of its own: periodically, which flushes a segment per period
 * whether or not anyone reads, and on request, which hands every read after a write to that thread
 * and back. Refreshing on demand, on the reader's thread and only when a read needs it, keeps
 * batches of writes in one segment and needs no thread per store. The count also covers what has no
 * sequence number but changes what a searcher should see: {@code forceMerge}.
 *
 * <p>Thread-safe. The write path closes it ({@link #close()}) after its last commit; reads after
 * that throw {@link IllegalStateException}.
 */
final class FreshSearchers implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(FreshSearchers.class);

  /** Scopes whose filters are cached at once. */
  private static final int SCOPE_FILTER_CACHE_ENTRIES = 64;

  /** At most 32 MB of cached filters: each is a bit per document of its segment. */
  private static final long SCOPE_FILTER_CACHE_BYTES = 32L << 20;

  /** Lucene caches only what this says: the scope filters, at first use. */
  private static final QueryCachingPolicy SCOPE_FILTERS_ONLY =
      new QueryCachingPolicy() {
        @Override
        public void onUse(Query query) {}

        @Override
        public boolean shouldCache(Query query) {
          return query instanceof TermQuery t && t.getTerm().field().equals(F_LIVE);
        }
      };

  /** What a read does with a searcher. */
  @FunctionalInterface
  interface SearchAction<T> {
    T apply(IndexSearcher searcher) throws IOException;
  }

  private final String location;
  private final SearcherManager searchers;

  /** Bumped by every write (and merge) before it returns. */
  private final AtomicLong writeGeneration = new AtomicLong();

  /**
   * The write generation the current searcher reflects at least. Only raised, under refreshLock;
   * volatile so that readers can see without locking that no refresh is needed.
   */
  private volatile long searcherGeneration;

  /** Serializes refreshes, so readers that find the searcher stale together refresh it once. */
  private final ReentrantLock refreshLock = new ReentrantLock();

  /**
   * Opens the first searcher on {@code writer}.
   *
   * @throws IOException if it cannot be opened
   */
  FreshSearchers(IndexWriter writer, String location) throws IOException {
    this.location = location;
    this.searchers = new SearcherManager(writer, new ScopeFilterCaching());
  }

  /** Searchers on {@code reader}, for a read-only store: no write is ever counted. */
  FreshSearchers(DirectoryReader reader, String location) throws IOException {
    this.location = location;
    this.searchers = new SearcherManager(reader, new ScopeFilterCaching());
  }

  /**
   * Counts a write that was applied to the writer: every read that starts after this returns
   * refreshes to include it.
   */
  void countWrite() {
    writeGeneration.incrementAndGet();
  }

  /** How many writes (and merges) were counted: a number that changes when the index does. */
  long writesCounted() {
    return writeGeneration.get();
  }

  /**
   * Runs {@code action} on a searcher that reflects every write counted before this call.
   *
   * @throws IllegalStateException if the store is closed
   * @throws MemoryStoreException if the searcher cannot be refreshed or reading it fails
   */
  <T> T withSearcher(SearchAction<T> action) {
    IndexSearcher searcher;
    try {
      refreshIfStale();
      searcher = searchers.acquire();
    } catch (AlreadyClosedException e) {
      throw closed(e);
    } catch (IOException e) {
      throw new MemoryStoreException(
          "could not open a searcher on the "
              + location
              + ": "
              + e.getMessage()
              + "; retry, or reopen the store",
          e);
    }
    try {
      return action.apply(searcher);
    } catch (IOException e) {
      throw new MemoryStoreException(
          "reading the "
              + location
              + " failed: "
              + e.getMessage()
              + "; retry; if it persists the index may be corrupt: reopen or rebuild it",
          e);
    } catch (AlreadyClosedException e) {
      throw closed(e);
    } catch (IndexOutOfBoundsException | AssertionError | NullPointerException e) {
      // what Lucene's decoders throw on damaged bytes that no checksum caught (the assertion with
      // -ea, an index out of bounds without, a null where a damaged segment lost its norms): the
      // index is damaged, not the caller's input. A null pointer of our own is a bug, not damage.
      if (e instanceof NullPointerException && !thrownByLucene(e)) {
        throw (NullPointerException) e;
      }
      throw new MemoryStoreException(
          "reading the "
              + location
              + " failed on damaged data ("
              + e
              + "); open it with readOnly() to export what is readable, or restore it from a"
              + " backup",
          e);
    } finally {
      try {
        searchers.release(searcher);
      } catch (IOException | AlreadyClosedException e) {
        LOG.debug("releasing a searcher of the {} failed", location, e);
      }
    }
  }

  /** A change to the writer that may throw. */
  @FunctionalInterface
  interface WriterAction {
    void run() throws IOException;
  }

  /**
   * Runs {@code action} while no searcher refreshes: for a write that several threads apply in
   * parts ({@link IndexWrites#putAll}), of which a refresh in between could show some parts and not
   * the others. A read that needs a refresh meanwhile waits until {@code action} returns; a read
   * whose searcher is current does not wait. Reentrant, like the refreshes it holds off.
   *
   * @throws IOException as thrown by {@code action}
   */
  void holdingRefreshes(WriterAction action) throws IOException {
    refreshLock.lock();
    try {
      action.run();
    } finally {
      refreshLock.unlock();
    }
  }

  /**
   * Refreshes the searcher if a write was counted since its last refresh. Readers that find it
   * stale together queue on refreshLock; the first refreshes, the rest find it done and return.
   */
  void refreshIfStale() throws IOException {
    if (searcherGeneration >= writeGeneration.get()) {
      return;
    }
    refreshLock.lock();
    try {
      // Read before the refresh begins: every write it counts was applied to the writer before it
      // was counted, so the refreshed searcher holds them all.
      long target = writeGeneration.get();
      if (searcherGeneration >= target) {
        return;
      }
      searchers.maybeRefreshBlocking();
      searcherGeneration = target;
    } finally {
      refreshLock.unlock();
    }
  }

  /**
   * Reads every file of the current searcher's segments once and checks its checksum: what a store
   * does when it opens, so that damage anywhere in the index fails the open rather than making
   * memories silently unfindable later (Lucene checks only the small metadata files when it opens a
   * segment, not the postings, doc values, vectors and stored records read on each search).
   *
   * @throws org.apache.lucene.index.CorruptIndexException if a file does not match its checksum
   * @throws IOException if a file cannot be read
   */
  void checkIntegrity() throws IOException {
    IndexSearcher searcher = searchers.acquire();
    try {
      ReadOnlyIndex.checkIntegrity(searcher.getIndexReader());
    } finally {
      searchers.release(searcher);
    }
  }

  /** Closes the searchers; a searcher still in use stays readable until released. */
  @Override
  public void close() throws IOException {
    searchers.close();
  }

  private IllegalStateException closed(AlreadyClosedException e) {
    return new IllegalStateException("the LuceneMemoryStore (" + location + ") is closed", e);
  }

  /**
   * Makes each searcher score with the schema's similarity and cache the scope filters, in one
   * cache for all of the store's searchers: a vector search needs its filter as a bit set per
   * segment, which without the cache is built again for every query. Entries die with their
   * segments.
   */
  private static final class ScopeFilterCaching extends SearcherFactory {
    private final LRUQueryCache scopeFilters =
        new LRUQueryCache(
            SCOPE_FILTER_CACHE_ENTRIES,
            SCOPE_FILTER_CACHE_BYTES,
            leaf -> true,
            Float.POSITIVE_INFINITY);

    @Override
    public IndexSearcher newSearcher(IndexReader reader, IndexReader previousReader) {
      IndexSearcher searcher = new IndexSearcher(reader);
      searcher.setSimilarity(IndexSchema.SIMILARITY);
      searcher.setQueryCache(scopeFilters);
      searcher.setQueryCachingPolicy(SCOPE_FILTERS_ONLY);
      return searcher;
    }
  }

  /** Whether the first frame of {@code e} outside the JDK is Lucene's. */
  private static boolean thrownByLucene(Throwable e) {
    for (StackTraceElement frame : e.getStackTrace()) {
      String type = frame.getClassName();
      if (!type.startsWith("java.")) {
        return type.startsWith("org.apache.lucene.");
      }
    }
    return false;
  }
}
