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
import dev.memhook.api.spi.SessionWindow;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.api.spi.TypeListing;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default {@link MemoryStore}: one Lucene index on disk (or in memory, for tests)
 * holding the records as JSON, code-aware BM25 text fields, keyword fields for the entity graph, an
 * HNSW vector field and each memory's passage vectors ({@link StoreCapability#PASSAGE_VECTORS}).
 * The index layout, the durability policy and the analysis chain are described in the {@linkplain
 * dev.memhook.lucene package documentation}.
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
 *       and searches never wait for that lock, and never see half of a {@code putAll} either (one
 *       that several {@linkplain Builder#workers workers} add holds off the refresh a read may need
 *       until its last part is in). A write does not refresh the near-real-time searcher; the first
 *       read or search after it does (one refresh, which concurrent readers wait for and share,
 *       rather than each refreshing). Do not synchronize on instances.
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

  private LuceneMemoryStore(LuceneStoreConfig config) {
    this.parts = StoreParts.open(config);
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

  /**
   * {@link StoreCapability#ATOMIC_BATCH} and {@link StoreCapability#PASSAGE_VECTORS} always; {@link
   * StoreCapability#DURABLE} on disk.
   */
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
   * Stores or replaces {@code memory} (upsert by id) with its embedding and no passages: {@link
   * #put(Memory, Embedding, List)} with none, so a memory put again this way loses the passages it
   * had.
   *
   * @throws IllegalStateException if {@link #attach} was not called
   * @throws IllegalArgumentException if the embedding's dimension is not the attached space's
   */
  @Override
  public void put(Memory memory, Embedding embedding) {
    put(memory, embedding, List.of());
  }

  /**
   * Stores or replaces {@code memory} (upsert by id) with its embedding and its passages' vectors,
   * on one document and in one Lucene update: the passages are replaced or deleted with the memory.
   * They are kept at one byte per dimension (see the {@linkplain dev.memhook.lucene package
   * documentation}).
   *
   * @throws IllegalStateException if {@link #attach} was not called
   * @throws IllegalArgumentException if the embedding's dimension is not the attached space's, or
   *     the passages break {@link MemoryStore#checkPassages(Embedding, List)}; nothing is written
   */
  @Override
  public void put(Memory memory, Embedding embedding, List<Embedding> passages) {
    Objects.requireNonNull(memory, "memory");
    MemoryStore.checkPassages(embedding, passages);
    parts.memoryWrites().put(memory, embedding, passages);
  }

  /**
   * Stores or replaces all memories atomically: one Lucene update (delete by ids, add a block) and
   * one commit, so either all are visible and durable or, if this throws, none is.
   *
   * <p>A batch of at least 16 memories, on a store that merges while idle ({@link
   * Builder#idleMerge}), counts as a bulk load: until the store is next quiet, the segments it
   * starts hold their vectors without an HNSW graph, and a vector search compares the query with
   * each of their vectors (exact, and slower than a graph for a large segment); the idle merge then
   * builds the graph once for the whole load, and {@link #compact()} does so at once.
   *
   * <p>{@link #putAll(Map, Map)} with no passages: a memory of the batch loses the passages it had.
   */
  @Override
  public void putAll(Map<Memory, Embedding> batch) {
    putAll(batch, Map.of());
  }

  /**
   * {@link #putAll(Map)}, each memory with the passages {@code passages} has for its id, on its
   * document: the same one update and commit.
   *
   * @throws IllegalArgumentException as {@link MemoryStore#checkPassages(Map, Map)} says, or if two
   *     memories have the same id; nothing is written then
   */
  @Override
  public void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
    MemoryStore.checkPassages(batch, passages);
    parts.memoryWrites().putAll(batch, passages);
  }

  /**
   * Stores {@code next} and rewrites the version it supersedes as not latest, in one Lucene update
   * (delete both ids, add both documents as a block) and one commit. The old version's vector is
   * read back from the index, so nothing is embedded again; so are its passages, which it keeps
   * unanswered. {@link #putNewVersion(Memory, Embedding, List)} with no passages for the new
   * version.
   */
  @Override
  public void putNewVersion(Memory next, Embedding embedding) {
    putNewVersion(next, embedding, List.of());
  }

  /**
   * {@link #putNewVersion(Memory, Embedding)}, the new version with its passages' vectors on its
   * document: the same one update and commit.
   *
   * @throws IllegalArgumentException as {@link #putNewVersion(Memory, Embedding)} does, or if the
   *     passages break {@link MemoryStore#checkPassages(Embedding, List)}; nothing is written then
   */
  @Override
  public void putNewVersion(Memory next, Embedding embedding, List<Embedding> passages) {
    Objects.requireNonNull(next, "next");
    MemoryStore.checkPassages(embedding, passages);
    checkArgument(
        next.supersedes() != null, "%s supersedes nothing; use put for a first version", next.id());
    checkArgument(next.latest(), "the new version %s must be latest", next.id());
    parts.memoryWrites().putNewVersion(next, embedding, passages);
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
   * <p><b>Erases, in two stages:</b> when this returns, the deletion and the audit document are
   * committed (with group commit too) and the memory's record key is destroyed, so no file of the
   * index holds its record in a readable form, also after a crash. Until the purge rewrites the
   * segments it was in ({@link Builder#purgeDelay}, ten minutes by default, or {@link #purge()}
   * now), those segments still hold its record's ciphertext, its vector, its doc values and the
   * lower-cased, stemmed words of its text as terms; see the {@linkplain dev.memhook.lucene package
   * documentation}. A zero purge delay purges before this returns. A {@link Builder#mirror()
   * mirror} only marks the memory deleted and keeps no audit document.
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
   * {@link #delete} for each record, in one atomic update and commit; their keys are destroyed
   * before it returns, and one purge rewrites the affected segments.
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
   * returned. Each of the index's segments is searched on its own, first for its share of the
   * candidates and again for all of them if it may hold more.
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

  /**
   * One query finds the asked memories' sessions, then one query per distinct session lists its
   * latest memories sorted in the index by when they happened and were stored; no record is read.
   * Memories indexed by a version without the session field are in no session until written again.
   *
   * @throws IllegalArgumentException if {@code span} is below 1
   */
  @Override
  public Map<MemoryId, SessionWindow> sessionWindows(
      Scope scope, Collection<MemoryId> ids, int span) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(ids, "ids");
    ids.forEach(id -> Objects.requireNonNull(id, "id"));
    checkArgument(span >= 1, "span must be at least 1, got %s", span);
    parts.writes().ensureOpen();
    return parts.searches().sessionWindows(scope, ids, span);
  }

  /**
   * The asked ids are found in each segment's postings, as {@link #sessionWindows} finds them, and
   * their passages read from the segment's doc values: no record is read, and the work is bounded
   * by the ids. The passages are kept at one byte per dimension, so a cosine may differ from the
   * exact one by a few thousandths. A memory indexed before this store kept passages has none.
   *
   * @throws IllegalArgumentException if {@code query}'s dimension is not the attached space's
   */
  @Override
  public Map<MemoryId, Double> passageCosines(
      Scope scope, Collection<MemoryId> ids, Embedding query) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(ids, "ids");
    ids.forEach(id -> Objects.requireNonNull(id, "id"));
    Objects.requireNonNull(query, "query");
    parts.writes().ensureOpen();
    return parts.searches().passageCosines(scope, ids, query);
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

  /**
   * Rewrites now every segment that holds a deleted document, forgotten or replaced, without it,
   * and commits: when it returns, no file of the store holds anything of a memory forgotten before
   * the call (see {@link Builder#purgeDelay}). A purge that is already running is waited for, and
   * then this one runs. Reads and writes go on meanwhile; a forget during the call is purged by the
   * next purge. A read that holds a searcher opened before the purge keeps the old segment files
   * until it ends.
   *
   * @throws IllegalStateException if the store is closed or read-only
   * @throws MemoryStoreException if the rewrite or its commit failed; the forgotten memories stay
   *     unreadable, and the next purge tries again
   */
  @Override
  public void purge() {
    parts.writes().ensureOpen();
    if (parts.writes().isReadOnly()) {
      throw new IllegalStateException(
          "the LuceneMemoryStore (" + parts.location() + ") is open read-only: it cannot purge");
    }
    parts.purges().purgeNow();
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
   * segments it builds are not capped by {@link Builder#maxSegmentMB}, and the purge after a forget
   * rewrites the segment the forgotten memory was in: merging a large store you forget from into
   * one segment makes each purge rewrite the whole index. Every segment it leaves has its vector
   * graph: a segment a bulk load wrote without one ({@link #putAll}) is rewritten, alone if need
   * be, unless another bulk load starts meanwhile.
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
    parts.graphs().settle(); // what it merges gets its graph, a bulk load's segments included
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

  /**
   * {@link #export} with each memory's vector as the index holds it (unit length; zeros for a
   * memory stored with a zero embedding), read segment by segment as the documents go by. An index
   * that records no space yet holds no vector, and hands every memory with an empty one.
   */
  @Override
  public ExportResult exportWithVectors(
      BiConsumer<? super Memory, ? super Optional<Embedding>> sink) {
    Objects.requireNonNull(sink, "sink");
    parts.writes().ensureOpen();
    EmbeddingSpace space = parts.metadata().space();
    return parts.searches().exportWithVectors(space == null ? 0 : space.dimension(), sink);
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
    parts.purges().close();
    try {
      if (parts.writes().close()) {
        LOG.debug("closed {}", parts.location());
      }
    } finally {
      parts.graphs().close(); // the writer has finished its merges, or given them up
      parts.searches().close();
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
   * Configures and opens a {@link LuceneMemoryStore}: the one place that collects its settings,
   * states their defaults (the {@code DEFAULT_*} constants) and validates them. Exactly one of
   * {@link #directory(Path)} and {@link #inMemory()} must be chosen; every other setting has a
   * stated default.
   *
   * <ul>
   *   <li><b>Strict:</b> setters only record; nothing is opened before {@link #build()}. Each
   *       setting may be set once (a second call throws {@link IllegalStateException}); setters
   *       reject invalid values at once ({@link IllegalArgumentException} naming the value), and a
   *       rejected value sets nothing. {@link #build()} checks the settings against each other.
   *   <li><b>Nulls:</b> every argument must be non-null; null throws {@link NullPointerException}
   *       naming the parameter, and sets nothing.
   *   <li><b>Thread safety:</b> not thread-safe; confine a builder to one thread. The store it
   *       builds is thread-safe and does not change when the builder is used afterwards.
   * </ul>
   */
  public static final class Builder {
    /** Lucene's default HNSW max connections per node; a good trade of recall and memory. */
    public static final int DEFAULT_HNSW_MAX_CONN = 16;

    /** Lucene's default HNSW beam width at build time. */
    public static final int DEFAULT_HNSW_BEAM_WIDTH = 100;

    /**
     * Candidates gathered per vector search in each segment before the cut to {@code k}: with the
     * defaults above, enough for the graph search to find nearly all of an exact search's top
     * {@code k} on corpora of memory-store size (measured in benchmarks/RESULTS.md).
     */
    public static final int DEFAULT_EF_SEARCH = 100;

    /**
     * The largest segment the store's own merges build, in MB of index files: the natural merges
     * while it is written and the merges of a quiet store ({@link #DEFAULT_IDLE_MERGE}), which
     * leave a store smaller than this in one segment and a larger one in about {@code size / 512
     * MB} of them. Every search visits every segment, so fewer are faster; but a merge, and the
     * rewrite that erases a forgotten memory from its segment, write a whole segment again, and the
     * larger one segment's vector graph, the fewer of its true nearest neighbours a walk of it with
     * the default {@link #efSearch} finds. 512 MB holds about a quarter of a million memories with
     * 384-dimension vectors: stores of that size search a single segment, a rewrite takes seconds,
     * and a vector search of a settled store of any size finds nearly every neighbour an exact scan
     * finds. A larger limit searches a store of a million memories faster but finds fewer of them
     * unless {@link #efSearch} is raised with it. The figures behind it are in
     * benchmarks/RESULTS.md.
     */
    public static final double DEFAULT_MAX_SEGMENT_MB = 512;

    /** The most threads one of the store's heavy jobs uses by default: see {@link #workers}. */
    public static final int DEFAULT_MAX_WORKERS = 4;

    /**
     * How long a writable store must see no write before it merges its segments down to as few as
     * {@link #DEFAULT_MAX_SEGMENT_MB maxSegmentMB} allows (see {@code IdleMerges}): short enough
     * that a store left alone for a minute has merged, long enough that a conversation's writes a
     * few seconds apart do not each start one.
     */
    public static final Duration DEFAULT_IDLE_MERGE = Duration.ofSeconds(15);

    /**
     * How long after a forget the segments that held the forgotten memory are rewritten at the
     * latest (see {@link #purgeDelay}): long enough for the rewrite of a large segment, whose
     * vector graph is rebuilt, and for the forgets of a few minutes to share one rewrite.
     */
    public static final Duration DEFAULT_PURGE_DELAY = Duration.ofMinutes(10);

    /** Memory records kept decoded in the read cache. */
    public static final long DEFAULT_CACHE_SIZE = 10_000;

    /** Weight of exact-token matches on the unstemmed variants, relative to the field's boost. */
    public static final float DEFAULT_EXACT_WEIGHT = 0.5f;

    /**
     * Weight of whole-query phrase matches on the unstemmed variants, relative to the field's
     * boost: 0, off, because a phrase rarely changes which memories rank first while it adds a
     * positional match to every text search (see benchmarks/RESULTS.md); set a positive weight
     * where queries are often verbatim quotes of stored text.
     */
    public static final float DEFAULT_PHRASE_WEIGHT = 0.0f;

    /** The largest {@link #fieldBoost}. */
    public static final float MAX_FIELD_BOOST = 64f;

    /** Boost of commit-SHA (and 7+ character SHA prefix) matches: rare, deliberate tokens. */
    public static final float DEFAULT_SHA_BOOST = 3.0f;

    /** The index directory; null until {@link #directory} is called. */
    private Path path;

    private boolean inMemory;
    private boolean readOnly;

    /** The group-commit interval; null until {@link #groupCommit} is called (commit per write). */
    private Duration groupCommit;

    private long cacheSize = DEFAULT_CACHE_SIZE;
    private int hnswMaxConn = DEFAULT_HNSW_MAX_CONN;
    private int hnswBeamWidth = DEFAULT_HNSW_BEAM_WIDTH;
    private int efSearch = DEFAULT_EF_SEARCH;
    private boolean scalarQuantization;
    private double maxSegmentMB = DEFAULT_MAX_SEGMENT_MB;
    private int workers; // 0: defaultWorkers()
    private Duration idleMerge = DEFAULT_IDLE_MERGE;
    private Duration purgeDelay = DEFAULT_PURGE_DELAY;
    private boolean mirror;
    private float exactWeight = DEFAULT_EXACT_WEIGHT;
    private float phraseWeight = DEFAULT_PHRASE_WEIGHT;
    private float shaBoost = DEFAULT_SHA_BOOST;
    private final Map<SearchField, Float> boosts = new EnumMap<>(SearchField.class);

    /** The settings already set on this builder. */
    private final Set<String> set = new HashSet<>();

    private Builder() {
      for (SearchField f : SearchField.values()) {
        boosts.put(f, f.defaultBoost());
      }
    }

    /** Keeps the index on disk in {@code path} (created if absent). */
    public Builder directory(Path path) {
      checkUnset("where the index lives");
      this.path = Objects.requireNonNull(path, "path");
      return recorded("where the index lives");
    }

    /** Keeps the index in memory: for tests; nothing survives {@link LuceneMemoryStore#close()}. */
    public Builder inMemory() {
      checkUnset("where the index lives");
      this.inMemory = true;
      return recorded("where the index lives");
    }

    /**
     * Opens the index read-only: with a reader only, taking no write lock, so it works on a
     * read-only directory or file system and beside a process that has it open for writing (seeing
     * its last commit). Every write ({@code attach} recording a space included) throws {@link
     * IllegalStateException}; reads, searches and {@link LuceneMemoryStore#export} work. If
     * segments of the index are damaged, it opens the segments that are readable and reports the
     * rest (see {@link LuceneMemoryStore#export}): the way to rescue a damaged index. Needs {@link
     * #directory(Path)} holding an index. Default: off.
     */
    public Builder readOnly() {
      checkUnset("readOnly");
      this.readOnly = true;
      return recorded("readOnly");
    }

    /**
     * Commits in the background at most {@code interval} after a write instead of before each write
     * returns. Writes stay immediately visible; a crash loses at most the interval's writes.
     * Default: off (commit per write).
     *
     * @throws IllegalArgumentException if {@code interval} is not between 1 ms and 1 minute
     */
    public Builder groupCommit(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      checkUnset("groupCommit");
      if (interval.compareTo(Duration.ofMillis(1)) < 0
          || interval.compareTo(Duration.ofMinutes(1)) > 0) {
        throw new IllegalArgumentException(
            "groupCommit interval must be between 1 ms and 1 minute, got " + interval);
      }
      this.groupCommit = interval;
      return recorded("groupCommit");
    }

    /**
     * The most records kept in the read cache; 0 disables it. Default {@value #DEFAULT_CACHE_SIZE}.
     */
    public Builder cacheSize(long entries) {
      checkUnset("cacheSize");
      if (entries < 0) {
        throw new IllegalArgumentException("cacheSize must be >= 0, got " + entries);
      }
      this.cacheSize = entries;
      return recorded("cacheSize");
    }

    /** HNSW max connections per node, 2 to 512. Default {@value #DEFAULT_HNSW_MAX_CONN}. */
    public Builder hnswMaxConn(int maxConn) {
      checkUnset("hnswMaxConn");
      this.hnswMaxConn = checkRange("hnswMaxConn", maxConn, 2, 512);
      return recorded("hnswMaxConn");
    }

    /** HNSW beam width at build time, 2 to 3200. Default {@value #DEFAULT_HNSW_BEAM_WIDTH}. */
    public Builder hnswBeamWidth(int beamWidth) {
      checkUnset("hnswBeamWidth");
      this.hnswBeamWidth = checkRange("hnswBeamWidth", beamWidth, 2, 3200);
      return recorded("hnswBeamWidth");
    }

    /**
     * Candidates gathered per vector search, 1 to 10,000 (more: better recall, slower); each
     * segment of the index is searched for its share of them, as {@link #searchVector} says.
     * Default {@value #DEFAULT_EF_SEARCH}.
     */
    public Builder efSearch(int candidates) {
      checkUnset("efSearch");
      this.efSearch = checkRange("efSearch", candidates, 1, 10_000);
      return recorded("efSearch");
    }

    /**
     * Stores vectors scalar-quantized to 7 bits (a byte per dimension instead of a float, slightly
     * lower precision), for large corpora. Affects segments written from now on. Default off.
     */
    public Builder scalarQuantization(boolean enabled) {
      checkUnset("scalarQuantization");
      this.scalarQuantization = enabled;
      return recorded("scalarQuantization");
    }

    /**
     * Makes the index a mirror of memories kept elsewhere, such as a shared store's replica in
     * memory: a delete only removes the memories from searches and reads, at once, as Lucene marks
     * documents deleted. It neither rewrites their segments (their bytes stay until a merge
     * rewrites them; see {@link LuceneMemoryStore#delete} for what a store that is not a mirror
     * does) nor keeps forget records ({@link LuceneMemoryStore#forgotten} returns none): erasing
     * and the audit trail are the job of the store the mirror copies. Default: not a mirror.
     */
    public Builder mirror() {
      checkUnset("mirror");
      this.mirror = true;
      return recorded("mirror");
    }

    /**
     * The largest segment the store's own merges build, in MB, from 1 to 5120 (Lucene's own
     * default): natural merges and idle merges alike; see {@link #DEFAULT_MAX_SEGMENT_MB}. A
     * smaller value keeps each merge and each rewrite that erases a forgotten memory short at the
     * price of more segments for each search to visit. A larger one makes a large store's searches
     * faster, each rewrite longer (a purge ends within its {@link #purgeDelay} only while a rewrite
     * takes less than half of the delay) and each segment's vector graph larger, which a walk with
     * the same {@link #efSearch} searches less completely: raise {@code efSearch} with it (the
     * times and recall per segment size are in benchmarks/RESULTS.md). An explicit {@link
     * LuceneMemoryStore#forceMerge forceMerge} is not limited by it.
     */
    public Builder maxSegmentMB(double mb) {
      checkUnset("maxSegmentMB");
      if (!(mb >= 1 && mb <= 5120)) {
        throw new IllegalArgumentException("maxSegmentMB must be in [1, 5120], got " + mb);
      }
      this.maxSegmentMB = mb;
      return recorded("maxSegmentMB");
    }

    /**
     * How many threads share one of the store's heavy jobs, the thread that runs it included, 1 to
     * 64. Default: the number of processors the JVM has, at most {@value #DEFAULT_MAX_WORKERS}.
     *
     * <p>The jobs are two. Building the vector graph of a merged segment is most of what a merge
     * costs, and the merges that build the largest graphs are the ones a store waits for: the idle
     * merge that settles a store after a load ({@link #idleMerge}) and the rewrite that purges a
     * forgotten memory ({@link #purgeDelay}). And a {@link LuceneMemoryStore#putAll putAll} of at
     * least 128 memories is added in parts, up to one per worker, at once: most of what it costs is
     * the analysis of its text, which runs on the thread that adds each memory. Reads never see
     * part of such a batch: a read that must refresh its searcher while the parts are added waits
     * for them.
     *
     * <p>More workers finish these jobs sooner, and while they run they take that many cores from
     * the host; 1 keeps every merge and every batch on its one thread. The helper threads ({@code
     * memhook-store-worker-N}, daemon) exist only while a job uses them. The same number bounds how
     * many threads a vector search of an index of several segments walks their graphs on, its own
     * included: a walk is queued for a helper ({@code memhook-store-walker-N}, daemon, ended after
     * a few idle seconds), and the searching thread walks every segment no helper has started, so a
     * search never waits for one. Flushes and text searches are not affected.
     *
     * @throws IllegalArgumentException if {@code workers} is out of range
     */
    public Builder workers(int workers) {
      checkUnset("workers");
      this.workers = checkRange("workers", workers, 1, 64);
      return recorded("workers");
    }

    private static int defaultWorkers() {
      return Math.max(1, Math.min(DEFAULT_MAX_WORKERS, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * How long the store must see no write before it merges its segments into as few of at most
     * {@link #maxSegmentMB} as it can pack them (first-fit decreasing, by the live size of each):
     * one for a store smaller than that, about {@code size / maxSegmentMB} for a larger one; a
     * segment that cannot join another is rewritten alone if a tenth of its memories are deleted.
     * Merges that writes set off finish first. Every search visits every segment, so a store that
     * has settled searches faster; the merges run in the background (reads and writes go on), are
     * committed when done, and are aborted by {@link LuceneMemoryStore#close()} (the next quiet
     * period redoes them). Default {@link #DEFAULT_IDLE_MERGE}; {@link Duration#ZERO} turns it off.
     * A read-only store never merges.
     *
     * @throws NullPointerException if {@code delay} is null
     * @throws IllegalArgumentException if {@code delay} is negative or longer than a day
     */
    public Builder idleMerge(Duration delay) {
      Objects.requireNonNull(delay, "delay");
      checkUnset("idleMerge");
      if (delay.isNegative() || delay.compareTo(Duration.ofDays(1)) > 0) {
        throw new IllegalArgumentException(
            "idleMerge delay must be between 0 (off) and one day, got " + delay);
      }
      this.idleMerge = delay;
      return recorded("idleMerge");
    }

    /**
     * How long after a forget the store's files may still hold residue of the forgotten memory.
     * When {@link LuceneMemoryStore#delete} returns, the memory's record (everything a read
     * returns) is unreadable in every file: its key is destroyed. What its documents leave in their
     * segments (the words of its text in the term dictionaries, its vector, its encrypted record)
     * goes when those segments are rewritten: the purge, which runs in the background, starts a
     * quarter of the delay after the first forget it covers, and is done within the delay as long
     * as the rewrite of the segments it touches takes less than half of it (a forget that arrives
     * during a purge waits for the next one, which starts when that one ends). A purge past its
     * deadline when the store closes is completed by {@link LuceneMemoryStore#close()} (a
     * short-lived process would otherwise never stay open long enough); one not yet due, or cut
     * short by a crash, runs after the store reopens, by its original deadline (or this delay, if
     * sooner), at once if that has passed. {@link LuceneMemoryStore#purge()} runs one now. Default
     * {@link #DEFAULT_PURGE_DELAY}; {@link Duration#ZERO} rewrites the segments before a forget
     * returns, under the write lock (each forget then costs a rewrite of its segment, and writes
     * wait for it).
     *
     * @throws NullPointerException if {@code delay} is null
     * @throws IllegalArgumentException if {@code delay} is negative or longer than a day
     */
    public Builder purgeDelay(Duration delay) {
      Objects.requireNonNull(delay, "delay");
      checkUnset("purgeDelay");
      if (delay.isNegative() || delay.compareTo(Duration.ofDays(1)) > 0) {
        throw new IllegalArgumentException(
            "purgeDelay must be between 0 (purge before a forget returns) and one day, got "
                + delay);
      }
      this.purgeDelay = delay;
      return recorded("purgeDelay");
    }

    /**
     * The weight of {@code field} in text search, in steps of 0.25 (rounded to the nearest); 0
     * leaves it out. Defaults are on {@link SearchField}. Weights apply when memories are indexed:
     * the index records them, and opening it with other weights throws {@link
     * IncompatibleStoreException} (rebuild the index to change them).
     *
     * @throws IllegalArgumentException if {@code boost} is not 0 and not in [0.25, {@value
     *     #MAX_FIELD_BOOST}]
     */
    public Builder fieldBoost(SearchField field, float boost) {
      Objects.requireNonNull(field, "field");
      checkUnset("fieldBoost(" + field + ")");
      if (!(boost == 0 || (boost >= 0.25f && boost <= MAX_FIELD_BOOST))) {
        throw new IllegalArgumentException(
            "fieldBoost("
                + field
                + ") must be 0 or in [0.25, "
                + MAX_FIELD_BOOST
                + "], got "
                + boost);
      }
      this.boosts.put(field, boost);
      return recorded("fieldBoost(" + field + ")");
    }

    /** Weight of exact-token matches (see {@link #DEFAULT_EXACT_WEIGHT}); 0 disables them. */
    public Builder exactMatchWeight(float weight) {
      checkUnset("exactMatchWeight");
      this.exactWeight = checkWeight("exactMatchWeight", weight);
      return recorded("exactMatchWeight");
    }

    /**
     * Weight of whole-query phrase matches (see {@link #DEFAULT_PHRASE_WEIGHT}); 0 disables them.
     */
    public Builder phraseWeight(float weight) {
      checkUnset("phraseWeight");
      this.phraseWeight = checkWeight("phraseWeight", weight);
      return recorded("phraseWeight");
    }

    /** Boost of commit-SHA matches (see {@link #DEFAULT_SHA_BOOST}); 0 disables them. */
    public Builder shaBoost(float boost) {
      checkUnset("shaBoost");
      this.shaBoost = checkWeight("shaBoost", boost);
      return recorded("shaBoost");
    }

    /**
     * Opens the store.
     *
     * @throws IllegalStateException if neither {@link #directory(Path)} nor {@link #inMemory()} was
     *     chosen (choosing both fails at the second setter), if {@link #readOnly()} was chosen
     *     without a directory, or if no text field and no SHA match has weight
     * @throws MemoryStoreException if the index cannot be opened or is locked
     * @throws IncompatibleStoreException if the index was written in an unknown format
     */
    public LuceneMemoryStore build() {
      return new LuceneMemoryStore(config());
    }

    /**
     * The settings checked against each other and resolved: what {@link #build()} opens. Opens
     * nothing and leaves this builder as it was.
     *
     * @throws IllegalStateException as {@link #build()} says
     */
    LuceneStoreConfig config() {
      if (path == null && !inMemory) {
        throw new IllegalStateException("choose directory(Path) or inMemory()");
      }
      if (readOnly && path == null) {
        throw new IllegalStateException(
            "readOnly() opens an index on disk: choose directory(Path)");
      }
      if (boosts.values().stream().allMatch(b -> b == 0) && shaBoost == 0) {
        throw new IllegalStateException("every field boost is 0: text search would find nothing");
      }
      Map<SearchField, Integer> weightUnits = new EnumMap<>(SearchField.class);
      boosts.forEach(
          (f, boost) -> weightUnits.put(f, Math.round(boost * IndexSchema.WEIGHT_UNITS)));
      return new LuceneStoreConfig(
          Optional.ofNullable(path),
          readOnly,
          Optional.ofNullable(groupCommit),
          cacheSize,
          hnswMaxConn,
          hnswBeamWidth,
          efSearch,
          scalarQuantization,
          maxSegmentMB,
          workers == 0 ? defaultWorkers() : workers,
          idleMerge,
          purgeDelay,
          mirror,
          exactWeight,
          phraseWeight,
          shaBoost,
          weightUnits);
    }

    /** Each setting may be set once, as in every Memhook builder; a rejected value sets nothing. */
    private void checkUnset(String setting) {
      if (set.contains(setting)) {
        throw new IllegalStateException(
            setting + " was already set on this builder; each setting may be set once");
      }
    }

    private Builder recorded(String setting) {
      set.add(setting);
      return this;
    }

    private static int checkRange(String name, int value, int min, int max) {
      if (value < min || value > max) {
        throw new IllegalArgumentException(
            name + " must be in [" + min + ", " + max + "], got " + value);
      }
      return value;
    }

    private static float checkWeight(String name, float value) {
      if (!Float.isFinite(value) || value < 0) {
        throw new IllegalArgumentException(name + " must be finite and >= 0, got " + value);
      }
      return value;
    }
  }
}
