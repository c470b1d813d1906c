package dev.memhook.lucene;

import static com.google.common.base.Preconditions.checkArgument;

import dev.memhook.api.ExportResult;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.api.spi.TypeListing;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default {@link MemoryStore}: one Lucene index on disk (or in memory, for tests)
 * holding the records as JSON, code-aware BM25 text fields, keyword fields for the entity graph and
 * an HNSW vector field. The index layout, the durability policy and the analysis chain are
 * described in the {@linkplain dev.memhook.lucene package documentation}.
 *
 * <pre>{@code
 * try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(Path.of("memhook-index")).build()) {
 *   store.attach(embedder.space());
 *   store.put(memory, embedder.embed(memory.content()));
 *   List<StoreHit> hits = store.searchText(scope, "why does AuthMiddleware reject tokens?", 10).hits();
 * }
 * }</pre>
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li><b>Thread safety:</b> thread-safe; every method may be called from any thread. Writes are
 *       serialized by an internal lock (so a commit never sees half of a {@link #putAll}); reads
 *       and searches never wait for that lock. A write does not refresh the near-real-time
 *       searcher; the first read or search after it does (one refresh, which concurrent readers
 *       wait for and share, rather than each refreshing). Do not synchronize on instances.
 *   <li><b>Durability:</b> by default every write is committed (fsync'ed) before it returns. With
 *       {@link Builder#groupCommit(Duration)} writes return once applied and a background thread
 *       commits them within the interval; a crash loses at most that window. Either way a write is
 *       visible to every read and search as soon as it returns.
 *   <li><b>Nulls:</b> every argument must be non-null ({@link NullPointerException} otherwise).
 *   <li><b>Errors:</b> caller mistakes (a non-positive {@code k}, an embedding of the wrong
 *       dimension, a write before {@link #attach}) throw {@link IllegalArgumentException} or {@link
 *       IllegalStateException}; I/O failures throw {@link MemoryStoreException} saying what to do;
 *       a space mismatch throws {@link IncompatibleStoreException}. After a failed write the store
 *       refuses further writes: close and reopen it (nothing uncommitted is kept).
 *   <li><b>Lifecycle:</b> {@link Builder#build()} opens the index and reads each of its files once
 *       to check its checksum, so opening takes time proportional to the index's size; a damaged
 *       index fails to open for writing (see the {@linkplain dev.memhook.lucene package
 *       documentation}). {@link #close()} commits pending writes, releases the index lock and is
 *       idempotent; afterwards every other method throws {@link IllegalStateException}. One
 *       directory can be open in one store at a time; a second store (in this or another process)
 *       fails with a {@link MemoryStoreException} naming the lock.
 *   <li><b>Scores:</b> {@link #searchText} returns raw BM25 sums, bounded by the ceiling it returns
 *       with them; {@link #searchVector} returns cosine similarity in [-1, 1]; {@link
 *       #searchRelated} returns the number of shared concepts and files.
 *   <li><b>Text:</b> a memory or forget record holding an unpaired UTF-16 surrogate is refused with
 *       {@link IllegalArgumentException} and nothing is written: the index stores text as UTF-8,
 *       which cannot carry one ({@code MemoryService} replaces them with U+FFFD first).
 *   <li><b>Empty inputs:</b> a text query that analyzes to no terms, a zero query vector and empty
 *       concept and file sets all return an empty list. A memory put with a zero embedding is
 *       stored and text-searchable but never returned by {@link #searchVector}.
 * </ul>
 */
public final class LuceneMemoryStore implements MemoryStore {

  /**
   * The index format this version writes and reads (recorded in the commit user data): an index of
   * another format fails to open with {@link IncompatibleStoreException}.
   */
  public static final String INDEX_FORMAT = IndexSchema.FORMAT;

  /** The most concepts plus files {@link #searchRelated} accepts. */
  public static final int MAX_RELATED_TERMS = 512;

  private static final Logger LOG = LoggerFactory.getLogger(LuceneMemoryStore.class);

  /** The parts, each with one job; their opening notes say how they work and why. */
  private final StoreParts parts;

  private LuceneMemoryStore(StoreSettings s) {
    this.parts = StoreParts.open(s);
    LOG.debug("opened {} (space {})", parts.location(), parts.metadata().space());
  }

  /** A builder; {@link Builder#build()} opens the store. */
  public static Builder builder() {
    return new Builder();
  }

  /** A store in memory with default settings, for tests: nothing survives {@link #close()}. */
  public static LuceneMemoryStore inMemory() {
    return builder().inMemory().build();
  }

  /** {@link StoreCapability#ATOMIC_BATCH} always; {@link StoreCapability#DURABLE} on disk. */
  @Override
  public Set<StoreCapability> capabilities() {
    return parts.capabilities();
  }

  /**
   * Checks {@code space} against the space recorded in the index and records it if none is.
   *
   * @throws IncompatibleStoreException if the index was built with another model or dimension
   */
  @Override
  public void attach(EmbeddingSpace space) {
    Objects.requireNonNull(space, "space");
    parts.metadata().attach(space, parts.writes());
  }

  /**
   * Stores or replaces {@code memory} (upsert by id) with its embedding.
   *
   * @throws IllegalStateException if {@link #attach} was not called
   * @throws IllegalArgumentException if the embedding's dimension is not the attached space's
   */
  @Override
  public void put(Memory memory, Embedding embedding) {
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(embedding, "embedding");
    parts.memoryWrites().put(memory, embedding);
  }

  /**
   * Stores or replaces all memories atomically: one Lucene update (delete by ids, add a block) and
   * one commit, so either all are visible and durable or, if this throws, none is.
   */
  @Override
  public void putAll(Map<Memory, Embedding> batch) {
    Objects.requireNonNull(batch, "batch");
    parts.memoryWrites().putAll(batch);
  }

  /**
   * Stores {@code next} and rewrites the version it supersedes as not latest, in one Lucene update
   * (delete both ids, add both documents as a block) and one commit. The old version's vector is
   * read back from the index, so nothing is embedded again.
   */
  @Override
  public void putNewVersion(Memory next, Embedding embedding) {
    Objects.requireNonNull(next, "next");
    Objects.requireNonNull(embedding, "embedding");
    checkArgument(
        next.supersedes() != null, "%s supersedes nothing; use put for a first version", next.id());
    checkArgument(next.latest(), "the new version %s must be latest", next.id());
    parts.memoryWrites().putNewVersion(next, embedding);
  }

  /**
   * @throws MemoryStoreException naming the id if its stored record is unreadable (damaged)
   */
  @Override
  public Optional<Memory> get(MemoryId id) {
    Objects.requireNonNull(id, "id");
    Memory m = getAll(List.of(id)).get(id);
    if (m == null && parts.unreadable().isUnreadable(id)) {
      throw parts.unreadable().error(id);
    }
    return Optional.ofNullable(m);
  }

  /**
   * The memories with these ids, found with one query for those not cached. A memory whose stored
   * record is unreadable (damaged) is left out, logged once at WARN and counted ({@link
   * #unreadableRecords()}), so one damaged record never fails a recall.
   */
  @Override
  public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    Objects.requireNonNull(ids, "ids");
    parts.writes().ensureOpen();
    return parts.records().getAll(ids);
  }

  /**
   * Deletes the memory and, in the same atomic update and commit, stores {@code audit} as an audit
   * document that no search sees. If the memory does not exist nothing is written.
   *
   * <p><b>Erases:</b> when this returns, no file of the index holds the memory's text, also after a
   * crash: the segments it was in are rewritten, committed (with group commit too) and the old
   * files deleted; see the {@linkplain dev.memhook.lucene package documentation}. A {@link
   * StoreSettings#mirror mirror} only marks the memory deleted and keeps no audit document.
   *
   * @throws IllegalArgumentException if {@code audit} names another id than {@code id}
   */
  @Override
  public boolean delete(MemoryId id, ForgetRecord audit) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(audit, "audit");
    checkArgument(
        audit.id().equals(id), "audit record is for %s but the id deleted is %s", audit.id(), id);
    return parts.memoryWrites().delete(id, audit);
  }

  /**
   * {@link #delete} for each record, in one atomic update and one rewrite of the affected segments.
   */
  @Override
  public int deleteAll(List<ForgetRecord> audits) {
    Objects.requireNonNull(audits, "audits");
    Set<MemoryId> seen = new HashSet<>();
    for (ForgetRecord audit : audits) {
      checkArgument(
          seen.add(Objects.requireNonNull(audit, "audit").id()),
          "two audit records name %s",
          audit.id());
    }
    return audits.isEmpty() ? 0 : parts.memoryWrites().deleteAll(audits);
  }

  @Override
  public List<ForgetRecord> forgotten(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    parts.writes().ensureOpen();
    return parts.searches().forgotten(scope);
  }

  /**
   * BM25F over the {@linkplain SearchField parts} of each memory with their weights, plus
   * exact-token matches on the unstemmed variant, optional phrase matches on the content and SHA
   * prefix matches, filtered by scope and latest. {@code query} is plain text: it is analyzed,
   * never parsed as query syntax. The ceiling is the sum of boost times idf over the query's terms
   * that some latest memory of the scope holds, which no BM25 score reaches; what other scopes hold
   * does not move it.
   */
  @Override
  public TextHits searchText(Scope scope, String query, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(query, "query");
    checkK(k);
    parts.writes().ensureOpen();
    return parts.searches().text(scope, query, k);
  }

  /**
   * Nearest neighbours by cosine among the latest memories of the scope: exact for a scope of at
   * most 4,096 documents, else approximate, by HNSW with the scope and latest filter applied during
   * the graph search; {@code max(k, efSearch)} candidates are gathered and the best {@code k}
   * returned.
   *
   * @throws IllegalArgumentException if {@code query}'s dimension is not the attached space's
   */
  @Override
  public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(query, "query");
    checkK(k);
    parts.writes().ensureOpen();
    return parts.searches().vector(scope, query, k);
  }

  /**
   * Scores each latest memory of {@code scope} by the number of given concepts (compared
   * lower-cased) and files (compared exactly) it has.
   *
   * @throws IllegalArgumentException if more than {@value #MAX_RELATED_TERMS} concepts and files
   *     are given
   */
  @Override
  public List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(concepts, "concepts");
    Objects.requireNonNull(files, "files");
    checkK(k);
    parts.writes().ensureOpen();
    checkArgument(
        concepts.size() + files.size() <= MAX_RELATED_TERMS,
        "searchRelated takes at most %s concepts and files, got %s",
        MAX_RELATED_TERMS,
        concepts.size() + files.size());
    return parts.searches().related(scope, concepts, files, k);
  }

  @Override
  public long count(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    parts.writes().ensureOpen();
    return parts.searches().count(scope);
  }

  /**
   * One query per type, the scope and the type as filters, its best hits sorted by importance and
   * time in the index: only the records listed are read, however many memories of other types the
   * scope holds. Memories indexed by a version without the type field are read by their records;
   * see {@link ListByType}. An unreadable record is counted in the total, left out of the list,
   * logged once and counted in {@link #unreadableRecords()}.
   */
  @Override
  public TypeListing listByType(Scope scope, List<MemoryType> types, int limit) {
    Objects.requireNonNull(scope, "scope");
    List<MemoryType> listed = TypeListing.checkTypes(types);
    checkArgument(limit >= 1, "limit must be at least 1, got %s", limit);
    parts.writes().ensureOpen();
    return parts.searches().byType(scope, listed, limit);
  }

  /**
   * Commits what the {@linkplain Builder#groupCommit group commit} has not committed yet, now; with
   * a commit per write there is nothing to do. Writes wait meanwhile; reads do not.
   */
  @Override
  public void flush() {
    parts.writes().flush();
  }

  /** {@link #forceMerge forceMerge(1)}: one segment, the fastest search; see its trade-offs. */
  @Override
  public void compact() {
    forceMerge(1);
  }

  /**
   * Merges the index down to at most {@code maxSegments} segments, commits, and refreshes the
   * searcher: every search visits every segment, so fewer segments mean fewer lookups per search.
   * For the end of a bulk import or a quiet moment after many forgets, never for each write: it may
   * rewrite the whole index and needs up to twice its size in free disk space while it runs (the
   * merge policy keeps the segment count low otherwise; see the package documentation). The
   * segments it builds are not capped by {@link Builder#maxSegmentMB}, and every later {@link
   * #delete} rewrites the segment it deletes from: merging a store you forget from into one segment
   * makes each forget rewrite the whole index.
   *
   * <p>Thread-safe. Writes, group commits and {@link #close()} wait until it returns; reads and
   * searches go on meanwhile. Durable when it returns, in either durability mode.
   *
   * @throws IllegalArgumentException if {@code maxSegments} is less than 1
   * @throws IllegalStateException if the store is closed
   * @throws MemoryStoreException if merging or the commit failed; the message says whether to retry
   *     or to reopen the store. No memory is lost or changed by a failed merge.
   */
  public void forceMerge(int maxSegments) {
    checkArgument(maxSegments >= 1, "maxSegments must be at least 1, got %s", maxSegments);
    parts.writes().forceMerge(maxSegments);
    LOG.debug("merged the {} down to at most {} segments", parts.location(), maxSegments);
  }

  /**
   * Hands every readable memory to {@code sink} (every scope and version) and counts the unreadable
   * records it skips, and the documents of damaged segments a {@linkplain Builder#readOnly()
   * read-only} open left out. To rescue a damaged index: open it read-only, export, put what was
   * exported into a new store.
   */
  @Override
  public ExportResult export(Consumer<? super Memory> sink) {
    Objects.requireNonNull(sink, "sink");
    parts.writes().ensureOpen();
    return parts.searches().export(sink);
  }

  /** Hands every readable forget record, of every scope, to {@code sink}, in no set order. */
  @Override
  public long exportForgotten(Consumer<? super ForgetRecord> sink) {
    Objects.requireNonNull(sink, "sink");
    parts.writes().ensureOpen();
    return parts.searches().exportForgotten(sink);
  }

  /**
   * The stored records found unreadable (damaged) since the store opened, each counted once, with
   * the documents of segments a read-only open left out: a number to monitor, 0 in a healthy index.
   */
  @Override
  public long unreadableRecords() {
    parts.writes().ensureOpen();
    return parts.unreadable().count();
  }

  /** The number of segments the current searcher sees, after refreshing it to every write. */
  int segmentCount() {
    parts.writes().ensureOpen();
    return parts.searches().segmentCount();
  }

  /**
   * Commits pending writes, waits for segment merges that are running (so that their work is kept
   * rather than redone at the next open; after a large import this can take a while), and releases
   * the index and its lock. Idempotent. After a failed write nothing uncommitted is committed.
   *
   * @throws MemoryStoreException if the final commit or the release failed
   */
  @Override
  public void close() {
    parts.idleMerges().close();
    if (parts.writes().close()) {
      LOG.debug("closed {}", parts.location());
    }
  }

  @Override
  public String toString() {
    return "LuceneMemoryStore["
        + parts.location()
        + (parts.writes().isClosed() ? ", closed" : "")
        + "]";
  }

  private static void checkK(int k) {
    checkArgument(k >= 1, "k must be positive, got %s", k);
  }

  /**
   * Configures and opens a {@link LuceneMemoryStore}. Exactly one of {@link #directory(Path)} and
   * {@link #inMemory()} must be chosen; every other setting has a stated default. Setters only
   * record: nothing is opened before {@link #build()}. Each setting may be set once (a second call
   * throws {@link IllegalStateException}); setters reject invalid values at once ({@link
   * IllegalArgumentException}, or {@link NullPointerException} for null), and a rejected value sets
   * nothing. Not thread-safe.
   */
  public static final class Builder extends StoreSettings {
    private Builder() {}

    /**
     * Opens the store.
     *
     * @throws IllegalStateException if neither {@link #directory(Path)} nor {@link #inMemory()} was
     *     chosen
     * @throws MemoryStoreException if the index cannot be opened or is locked
     * @throws IncompatibleStoreException if the index was written in an unknown format
     */
    public LuceneMemoryStore build() {
      check();
      return new LuceneMemoryStore(this);
    }
  }
}
