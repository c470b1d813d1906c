package dev.memhook.core.lucene;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.core.internal.index.CodeAwareAnalyzer;
import dev.memhook.core.internal.index.DerivedText;
import dev.memhook.core.internal.index.SimpleTokens;
import dev.memhook.core.internal.index.CodeAwareAnalyzer.PositionedTerm;
import dev.memhook.core.internal.index.CodeAwareAnalyzer.Variant;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.DelegatingAnalyzerWrapper;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.tokenattributes.TermFrequencyAttribute;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.PerFieldSimilarityWrapper;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.CollectionTerminatedException;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.FilterLeafCollector;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.LRUQueryCache;
import org.apache.lucene.search.QueryCachingPolicy;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.TopDocsCollector;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.BytesRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default {@link MemoryStore}: one Lucene index on disk (or in memory, for tests)
 * holding the records as JSON, code-aware BM25 text fields, keyword fields for the entity graph and
 * an HNSW vector field. The index layout, the durability policy and the analysis chain are described
 * in the {@linkplain dev.memhook.core.lucene package documentation}.
 *
 * <pre>{@code
 * try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(Path.of("memhook-index")).build()) {
 *   store.attach(embedder.space());
 *   store.put(memory, embedder.embed(memory.content()));
 *   List<StoreHit> hits = store.searchText(scope, "why does AuthMiddleware reject tokens?", 10);
 * }
 * }</pre>
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Thread safety:</b> thread-safe; every method may be called from any thread. Writes are
 *       serialized by an internal lock (so a commit never sees half of a {@link #putAll}); reads and
 *       searches never wait for that lock. A write does not refresh the near-real-time searcher; the
 *       first read or search after it does (one refresh, which concurrent readers wait for and share,
 *       rather than each refreshing). Do not synchronize on instances.
 *   <li><b>Durability:</b> by default every write is committed (fsync'ed) before it returns. With
 *       {@link Builder#groupCommit(Duration)} writes return once applied and a background thread
 *       commits them within the interval; a crash loses at most that window. Either way a write is
 *       visible to every read and search as soon as it returns.
 *   <li><b>Nulls:</b> every argument must be non-null ({@link NullPointerException} otherwise).
 *   <li><b>Errors:</b> caller mistakes (a non-positive {@code k}, an embedding of the wrong dimension,
 *       a write before {@link #attach}) throw {@link IllegalArgumentException} or
 *       {@link IllegalStateException}; I/O failures throw {@link MemoryStoreException} saying what
 *       to do; a space mismatch throws {@link IncompatibleStoreException}. After a failed write the
 *       store refuses further writes: close and reopen it (nothing uncommitted is kept).
 *   <li><b>Lifecycle:</b> {@link #close()} commits pending writes, releases the index lock and is
 *       idempotent; afterwards every other method throws {@link IllegalStateException}. One
 *       directory can be open in one store at a time; a second store (in this or another process)
 *       fails with a {@link MemoryStoreException} naming the lock.
 *   <li><b>Scores:</b> {@link #searchText} returns raw BM25 sums, bounded by
 *       the ceiling it returns with them; {@link #searchVector} returns cosine
 *       similarity in [-1, 1]; {@link #searchRelated} returns the number of shared concepts and files.
 *   <li><b>Empty inputs:</b> a text query that analyzes to no terms, a zero query vector and empty
 *       concept and file sets all return an empty list. A memory put with a zero embedding is stored
 *       and text-searchable but never returned by {@link #searchVector}.
 * </ul>
 */
public final class LuceneMemoryStore implements MemoryStore {

  /**
   * The parts of a memory that {@link #searchText} searches, each with its default weight. Beside
   * title, summary and content, a memory is findable by what it carries: who said it, the session,
   * its attributes and the date it happened.
   *
   * <p>The parts are indexed together as one weighted text field (BM25F): each occurrence of a term
   * in a part counts {@code weight} times towards the term's frequency and the document's length, so
   * a query costs one term lookup per query term, not one per term and part. Weights are therefore
   * fixed when a memory is indexed; the index records them and refuses to open with others.
   */
  public enum SearchField {
    /** The title; boost 2: a short, deliberate description. */
    TITLE("title", 2.0f),
    /** The summary; boost 1.5. */
    SUMMARY("summary", 1.5f),
    /** The full content; boost 1. */
    CONTENT("content", 1.0f),
    /** The concept tags; boost 1.5: chosen words. */
    CONCEPTS("concepts", 1.5f),
    /** The file paths and source pin paths; boost 1.5. */
    FILES("files", 1.5f),
    /**
     * The origin's name: the speaker, agent or tool (who said it); boost 2, because a question that
     * names a person is usually about what that person said (see benchmarks/RESULTS.md).
     */
    SPEAKER("speaker", 2.0f),
    /** The source session id; boost 0.5: rarely what a question names. */
    SESSION("session", 0.5f),
    /**
     * What came just before the memory (such as the previous turn); boost 0.5, weaker evidence than
     * its own words: an answer is often found through the question it answers.
     */
    CONTEXT("context", 0.5f),
    /** Attribute keys and values; boost 1. */
    ATTRIBUTES("attributes", 1.0f),
    /** When it happened, as text ({@code Monday 8 May 2023 2023-05-08}, UTC); boost 1. */
    DATE("date", 1.0f);

    private final String fieldName;
    private final float defaultBoost;

    SearchField(String fieldName, float defaultBoost) {
      this.fieldName = fieldName;
      this.defaultBoost = defaultBoost;
    }

    /** The default boost of this field. */
    public float defaultBoost() {
      return defaultBoost;
    }

    String fieldName() {
      return fieldName;
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(LuceneMemoryStore.class);

  static final String F_KIND = "kind";
  static final String KIND_MEMORY = "memory";
  static final String KIND_AUDIT = "audit";
  static final String F_ID = "id";
  /** The scope of a latest memory (keyword and sorted doc values); absent on other documents. */
  static final String F_LIVE = "live";
  static final String F_JSON = "json";
  static final String F_VECTOR = "vector";
  static final String F_CONCEPT_KEY = "concept_key";
  static final String F_FILE_KEY = "file_key";
  static final String F_SHA = "sha";
  static final String F_AUDIT_ID = "audit_id";
  static final String F_AUDIT_SCOPE = "audit_scope";
  /** The weighted catch-all text field of every searchable part, code-aware analysis. */
  static final String F_TEXT = "text";
  /** The same parts with the exact (unsplit, unstemmed) analysis. */
  static final String F_TEXT_EXACT = "text_exact";
  /** The content, exact analysis, with positions: carries phrase matches. */
  static final String F_PHRASE = "phrase";
  /**
   * Weight units per 1.0 of field weight: a field of weight 1 adds this to a term's frequency per
   * occurrence. BM25's k1 is scaled by the same factor, so a lone field of weight 1 scores exactly as
   * plain BM25 would, and weights resolve to steps of 1/{@value}.
   */
  static final int WEIGHT_UNITS = 4;
  /** BM25 for the weighted fields: k1 scaled to the weight units, overlaps counted as tokens. */
  private static final BM25Similarity WEIGHTED_BM25 = new BM25Similarity(1.2f * WEIGHT_UNITS, 0.75f, false);
  /** Lucene's default BM25 for every other field. */
  private static final BM25Similarity PLAIN_BM25 = new BM25Similarity();
  private static final FieldType WEIGHTED_TEXT_TYPE = weightedTextType();
  /** Scopes whose filters are cached at once. */
  private static final int SCOPE_FILTER_CACHE_ENTRIES = 64;
  /** At most 32 MB of cached filters: each is a bit per document of its segment. */
  private static final long SCOPE_FILTER_CACHE_BYTES = 32L << 20;
  /** Lucene caches only what this says: the scope filters, at first use. */
  private static final QueryCachingPolicy SCOPE_FILTERS_ONLY = new QueryCachingPolicy() {
    @Override
    public void onUse(Query query) {}

    @Override
    public boolean shouldCache(Query query) {
      return query instanceof TermQuery t && t.getTerm().field().equals(F_LIVE);
    }
  };
  /** The token of an empty text field; query analysis never produces control characters. */
  static final String PLACEHOLDER = "\u0001";
  static final String USER_DATA_MODEL = "memhook.space.model";
  static final String USER_DATA_DIMENSION = "memhook.space.dimension";
  static final String USER_DATA_FORMAT = "memhook.index.format";
  static final String USER_DATA_WEIGHTS = "memhook.text.weights";
  /**
   * The index format this version writes and reads (recorded in the commit user data): an index of
   * another format fails to open with {@link IncompatibleStoreException}. Format 2: weighted text
   * fields (BM25F), dot-product vectors, ids and live scopes in doc values.
   */
  public static final String INDEX_FORMAT = "2";

  /**
   * The most distinct terms per analysis variant a text query uses; the rest of a very long query
   * is ignored. Keeps the expanded query under Lucene's default limit of 1024 clauses.
   */
  static final int MAX_QUERY_TERMS = 48;
  /** The longest query (in exact tokens) also searched as a phrase. */
  static final int MAX_PHRASE_TERMS = 16;
  /** The most concepts plus files {@link #searchRelated} accepts. */
  public static final int MAX_RELATED_TERMS = 512;

  private static final DateTimeFormatter LONG_DATE = DateTimeFormatter.ofPattern("EEEE d MMMM yyyy", Locale.ENGLISH);

  private final String location;
  private final Set<StoreCapability> capabilities;
  private final Directory directory;
  private final IndexWriter writer;
  private final SearcherManager searchers;
  private final CodeAwareAnalyzer codeAnalyzer = CodeAwareAnalyzer.of(Variant.CODE);
  private final CodeAwareAnalyzer exactAnalyzer = CodeAwareAnalyzer.of(Variant.EXACT);
  private final CodeAwareAnalyzer hexIndexAnalyzer = CodeAwareAnalyzer.of(Variant.HEX_INDEX);
  private final CodeAwareAnalyzer hexQueryAnalyzer = CodeAwareAnalyzer.of(Variant.HEX_QUERY);
  /** Function words as each analysis variant spells them (the code variant stems them). */
  private final Set<String> codeStopTerms = analyzedStopWords(codeAnalyzer);
  private final Set<String> exactStopTerms = analyzedStopWords(exactAnalyzer);
  private final MemoryJson json = new MemoryJson();
  private final Cache<MemoryId, Memory> cache;

  /**
   * Per-segment bit sets of the scope filters ({@link #inScope}), for segments of every size:
   * a vector search needs its filter as a bit set per segment, which without the cache is built
   * again for every query. Entries die with their segments. Shared by this store's searchers.
   */
  private final LRUQueryCache scopeFilters = new LRUQueryCache(
      SCOPE_FILTER_CACHE_ENTRIES, SCOPE_FILTER_CACHE_BYTES, leaf -> true, Float.POSITIVE_INFINITY);
  private final ReentrantLock writeLock = new ReentrantLock();
  /**
   * Bumped after every applied write (and {@link #forceMerge}), before it returns. A read caches
   * only if no write happened meanwhile, and every read first brings the searcher up to this
   * generation.
   */
  private final AtomicLong writeGeneration = new AtomicLong();
  /**
   * The write generation the current searcher reflects at least. Only raised, under refreshLock;
   * volatile so that readers can see without locking that no refresh is needed.
   */
  private volatile long searcherGeneration;
  /** Serializes refreshes, so readers that find the searcher stale together refresh it once. */
  private final ReentrantLock refreshLock = new ReentrantLock();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Each field's weight in {@link #WEIGHT_UNITS}; 0 leaves the field out of the text fields. */
  private final Map<SearchField, Integer> weightUnits;
  private final float exactWeight;
  private final float phraseWeight;
  private final float shaBoost;
  private final int efSearch;
  private final ScheduledExecutorService committer;
  /** Guarded by writeLock. */
  private boolean dirty;
  /** Guarded by writeLock; set when a write failed half-way: the writer may hold partial changes. */
  private Exception writeFailure;
  /** The space recorded in the index, or attached; null until either. */
  private volatile EmbeddingSpace space;
  private volatile boolean attached;

  private LuceneMemoryStore(Builder b) {
    this.location = b.path == null ? "in-memory index" : "index at " + b.path.toAbsolutePath();
    this.capabilities = b.path == null
        ? Set.of(StoreCapability.ATOMIC_BATCH)
        : Set.of(StoreCapability.DURABLE, StoreCapability.ATOMIC_BATCH);
    this.weightUnits = new EnumMap<>(SearchField.class);
    b.boosts.forEach((f, boost) -> weightUnits.put(f, Math.round(boost * WEIGHT_UNITS)));
    this.exactWeight = b.exactWeight;
    this.phraseWeight = b.phraseWeight;
    this.shaBoost = b.shaBoost;
    this.efSearch = b.efSearch;
    this.cache = Caffeine.newBuilder().maximumSize(b.cacheSize).build();
    Directory dir = null;
    IndexWriter w = null;
    try {
      dir = b.path == null ? new ByteBuffersDirectory() : FSDirectory.open(b.path);
      KnnVectorsFormat vectors = b.scalarQuantization
          ? new Lucene99HnswScalarQuantizedVectorsFormat(b.hnswMaxConn, b.hnswBeamWidth)
          : new Lucene99HnswVectorsFormat(b.hnswMaxConn, b.hnswBeamWidth);
      IndexWriterConfig config = new IndexWriterConfig(new FieldAnalyzer())
          .setSimilarity(SIMILARITY)
          .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
          // close() waits for running merges and commits them (their work is kept); after a failed
          // write or commit, close() rolls back instead, so nothing uncommitted is committed
          .setCommitOnClose(true)
          .setMergePolicy(mergePolicy())
          .setRAMBufferSizeMB(RAM_BUFFER_MB)
          .setCodec(new Lucene912Codec() {
            @Override
            public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
              return vectors;
            }
          });
      w = new IndexWriter(dir, config);
      Map<String, String> userData = new HashMap<>();
      Iterable<Map.Entry<String, String>> live = w.getLiveCommitData();
      if (live != null) {
        live.forEach(e -> userData.put(e.getKey(), e.getValue()));
      }
      String format = userData.get(USER_DATA_FORMAT);
      if (format != null && !INDEX_FORMAT.equals(format)) {
        throw new IncompatibleStoreException("the " + location + " has index format " + format
            + " but this Memhook reads format " + INDEX_FORMAT + "; upgrade Memhook or rebuild the index");
      }
      this.space = readSpace(userData);
      String weights = weightsKey(weightUnits);
      String recorded = userData.get(USER_DATA_WEIGHTS);
      if (recorded != null && !recorded.equals(weights)) {
        throw new IncompatibleStoreException("the " + location + " was indexed with text field weights ["
            + recorded + "] but the store is configured with [" + weights + "]; field weights are fixed"
            + " when memories are indexed: configure the original weights or rebuild the index in a new directory");
      }
      // Commit only what is new (a new index, or one without these keys): a commit on every open
      // would cost an fsync and start whatever merges the policy finds, competing with searches.
      if (!weights.equals(recorded) || format == null) {
        userData.put(USER_DATA_WEIGHTS, weights);
        userData.put(USER_DATA_FORMAT, INDEX_FORMAT);
        w.setLiveCommitData(userData.entrySet());
        w.commit();
      }
      this.searchers = new SearcherManager(w, new SearcherFactory() {
        @Override
        public IndexSearcher newSearcher(IndexReader reader, IndexReader previousReader) {
          IndexSearcher searcher = new IndexSearcher(reader);
          searcher.setSimilarity(SIMILARITY);
          searcher.setQueryCache(scopeFilters);
          searcher.setQueryCachingPolicy(SCOPE_FILTERS_ONLY);
          return searcher;
        }
      });
    } catch (LockObtainFailedException e) {
      closeQuietly(w, dir);
      throw new MemoryStoreException("the " + location + " is locked (write.lock): another process or another"
          + " LuceneMemoryStore in this JVM has it open; close that store first or use another directory", e);
    } catch (IOException e) {
      closeQuietly(w, dir);
      throw new MemoryStoreException("could not open the " + location + ": " + e.getMessage()
          + "; check that the directory is writable and not corrupt, then retry", e);
    } catch (RuntimeException e) {
      closeQuietly(w, dir);
      throw e;
    }
    this.directory = dir;
    this.writer = w;
    if (b.groupCommit != null) {
      long millis = Math.max(1, b.groupCommit.toMillis());
      this.committer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "memhook-lucene-commit");
        t.setDaemon(true);
        return t;
      });
      committer.scheduleWithFixedDelay(this::commitPending, millis, millis, TimeUnit.MILLISECONDS);
    } else {
      this.committer = null;
    }
    LOG.debug("opened {} (space {})", location, space);
  }

  /** A builder; {@link Builder#build()} opens the store. */
  public static Builder builder() {
    return new Builder();
  }

  /** A store in memory with default settings, for tests: nothing survives {@link #close()}. */
  public static LuceneMemoryStore inMemory() {
    return builder().inMemory().build();
  }

  // ---------------------------------------------------------------------------------------------
  // MemoryStore

  /** {@link StoreCapability#ATOMIC_BATCH} always; {@link StoreCapability#DURABLE} on disk. */
  @Override
  public Set<StoreCapability> capabilities() {
    return capabilities;
  }

  /**
   * Checks {@code space} against the space recorded in the index and records it if none is.
   *
   * @throws IncompatibleStoreException if the index was built with another model or dimension
   */
  @Override
  public void attach(EmbeddingSpace space) {
    Objects.requireNonNull(space, "space");
    writeLock.lock();
    try {
      ensureOpen();
      EmbeddingSpace recorded = this.space;
      if (recorded != null && !recorded.equals(space)) {
        throw new IncompatibleStoreException("the " + location + " holds vectors of model '"
            + recorded.modelId() + "' (dimension " + recorded.dimension() + ") but the configured embedder is '"
            + space.modelId() + "' (dimension " + space.dimension() + "); configure the original model or"
            + " rebuild the store in a new directory (vector spaces are never mixed)");
      }
      if (recorded == null) {
        Map<String, String> userData = new HashMap<>();
        writer.getLiveCommitData().forEach(e -> userData.put(e.getKey(), e.getValue()));
        userData.put(USER_DATA_MODEL, space.modelId());
        userData.put(USER_DATA_DIMENSION, Integer.toString(space.dimension()));
        writer.setLiveCommitData(userData.entrySet());
        commitNow("record the embedding space");
        this.space = space;
      }
      this.attached = true;
    } finally {
      writeLock.unlock();
    }
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
    ensureOpen();
    Document doc = toDocument(memory, embedding);
    write(List.of(memory.id()), () -> {
      writer.updateDocument(idTerm(memory.id()), doc);
      return true;
    });
  }

  /**
   * Stores or replaces all memories atomically: one Lucene update (delete by ids, add a block) and
   * one commit, so either all are visible and durable or, if this throws, none is.
   */
  @Override
  public void putAll(Map<Memory, Embedding> batch) {
    Objects.requireNonNull(batch, "batch");
    ensureOpen();
    if (batch.isEmpty()) {
      return;
    }
    List<Document> docs = new ArrayList<>(batch.size());
    Map<MemoryId, Memory> byId = new LinkedHashMap<>();
    batch.forEach((m, e) -> {
      Objects.requireNonNull(m, "batch key");
      Objects.requireNonNull(e, "batch value for " + m.id());
      if (byId.put(m.id(), m) != null) {
        throw new IllegalArgumentException("batch holds two memories with id " + m.id());
      }
      docs.add(toDocument(m, e));
    });
    List<MemoryId> ids = List.copyOf(byId.keySet());
    write(ids, () -> {
      writer.updateDocuments(idsQuery(ids), docs);
      return true;
    });
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
    MemoryId previousId = next.supersedes();
    if (previousId == null) {
      throw new IllegalArgumentException(next.id() + " supersedes nothing; use put for a first version");
    }
    if (!next.latest()) {
      throw new IllegalArgumentException("the new version " + next.id() + " must be latest");
    }
    ensureOpen();
    Document nextDoc = toDocument(next, embedding);
    List<MemoryId> ids = List.of(next.id(), previousId);
    write(ids, () -> {
      // Under the write lock no write is in flight, and withSearcher first refreshes to every
      // applied one, so what it reads is current.
      Document previousDoc = withSearcher(s -> supersededDocument(s, previousId, next.scope()));
      writer.updateDocuments(idsQuery(ids), List.of(nextDoc, previousDoc));
      return true;
    });
  }

  /** The document of {@code id} rewritten as not latest, with the vector the index holds for it. */
  private Document supersededDocument(IndexSearcher searcher, MemoryId id, Scope scope) throws IOException {
    Query q = new BooleanQuery.Builder()
        .add(new TermQuery(idTerm(id)), Occur.FILTER)
        .add(new TermQuery(new Term(F_KIND, KIND_MEMORY)), Occur.FILTER)
        .build();
    TopDocs top = searcher.search(q, 1);
    if (top.scoreDocs.length == 0) {
      throw new IllegalArgumentException("no memory with id " + id + " to supersede");
    }
    int doc = top.scoreDocs[0].doc;
    Memory previous = decode(searcher.storedFields().document(doc, Set.of(F_JSON)).get(F_JSON));
    if (!previous.latest()) {
      throw new IllegalArgumentException(id + " is already superseded; a new version supersedes the latest one");
    }
    if (!previous.scope().equals(scope)) {
      throw new IllegalArgumentException(id + " is in scope " + previous.scope() + ", not " + scope);
    }
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    FloatVectorValues vectors = leaf.reader().getFloatVectorValues(F_VECTOR);
    float[] vector = null;
    if (vectors != null && vectors.advance(doc - leaf.docBase) == doc - leaf.docBase) {
      vector = vectors.vectorValue().clone();
    }
    EmbeddingSpace s = space;
    Embedding embedding = vector != null ? Embedding.of(vector) : Embedding.of(new float[s.dimension()]);
    return toDocument(previous.withLatest(false), embedding);
  }

  @Override
  public Optional<Memory> get(MemoryId id) {
    Objects.requireNonNull(id, "id");
    return Optional.ofNullable(getAll(List.of(id)).get(id));
  }

  /** The memories with these ids, found with one query for those not cached. */
  @Override
  public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    Objects.requireNonNull(ids, "ids");
    ensureOpen();
    Map<MemoryId, Memory> found = new HashMap<>();
    Set<MemoryId> missing = new LinkedHashSet<>();
    for (MemoryId id : ids) {
      Objects.requireNonNull(id, "ids element");
      Memory cached = cache.getIfPresent(id);
      if (cached != null) {
        found.put(id, cached);
      } else {
        missing.add(id);
      }
    }
    if (!missing.isEmpty()) {
      long generation = writeGeneration.get();
      Map<MemoryId, Memory> loaded = withSearcher(searcher -> {
        Map<MemoryId, Memory> out = new HashMap<>();
        Query q = new BooleanQuery.Builder()
            .add(idsQuery(missing), Occur.FILTER)
            .add(new TermQuery(new Term(F_KIND, KIND_MEMORY)), Occur.FILTER)
            .build();
        TopDocs top = searcher.search(q, missing.size());
        StoredFields stored = searcher.storedFields();
        for (ScoreDoc sd : top.scoreDocs) {
          String text = stored.document(sd.doc, Set.of(F_JSON)).get(F_JSON);
          Memory m = decode(text);
          out.put(m.id(), m);
        }
        return out;
      });
      // A write counted after `generation` may have replaced what we read: then don't cache it.
      // A write counted between this check and the put invalidates its ids after counting, which
      // may land before our put: the second check catches that and drops what we put.
      if (writeGeneration.get() == generation) {
        cache.putAll(loaded);
        if (writeGeneration.get() != generation) {
          cache.invalidateAll(loaded.keySet());
        }
      }
      found.putAll(loaded);
    }
    Map<MemoryId, Memory> out = new LinkedHashMap<>();
    for (MemoryId id : ids) {
      Memory m = found.get(id);
      if (m != null) {
        out.put(id, m);
      }
    }
    return out;
  }

  /**
   * Deletes the memory and, in the same atomic update and commit, stores {@code audit} as an audit
   * document that no search sees. If the memory does not exist nothing is written.
   *
   * @throws IllegalArgumentException if {@code audit} names another id than {@code id}
   */
  @Override
  public boolean delete(MemoryId id, ForgetRecord audit) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(audit, "audit");
    if (!audit.id().equals(id)) {
      throw new IllegalArgumentException("audit record is for " + audit.id() + " but the id deleted is " + id);
    }
    ensureOpen();
    Document auditDoc = new Document();
    auditDoc.add(new StringField(F_KIND, KIND_AUDIT, Field.Store.NO));
    auditDoc.add(new StringField(F_AUDIT_ID, id.value(), Field.Store.NO));
    auditDoc.add(new StringField(F_AUDIT_SCOPE, audit.scope().value(), Field.Store.NO));
    auditDoc.add(new StoredField(F_JSON, json.write(audit)));
    boolean[] existed = new boolean[1];
    write(List.of(id), () -> {
      // Under the write lock no write is in flight, and withSearcher first refreshes to every
      // applied one, so this count is current.
      existed[0] = withSearcher(s -> s.count(new TermQuery(idTerm(id)))) > 0;
      if (existed[0]) {
        writer.updateDocuments(idTerm(id), List.of(auditDoc));
      }
      return existed[0];
    });
    return existed[0];
  }

  @Override
  public List<ForgetRecord> forgotten(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    ensureOpen();
    List<ForgetRecord> out = withSearcher(searcher -> {
      Query q = new BooleanQuery.Builder()
          .add(new TermQuery(new Term(F_KIND, KIND_AUDIT)), Occur.FILTER)
          .add(new TermQuery(new Term(F_AUDIT_SCOPE, scope.value())), Occur.FILTER)
          .build();
      int n = searcher.count(q);
      List<ForgetRecord> records = new ArrayList<>(n);
      if (n == 0) {
        return records;
      }
      StoredFields stored = searcher.storedFields();
      for (ScoreDoc sd : searcher.search(q, n).scoreDocs) {
        String text = stored.document(sd.doc, Set.of(F_JSON)).get(F_JSON);
        try {
          records.add(json.readForget(text));
        } catch (RuntimeException e) {
          throw unreadable("an audit record", e);
        }
      }
      return records;
    });
    out.sort(Comparator.comparing(ForgetRecord::at).thenComparing(r -> r.id().value()));
    return List.copyOf(out);
  }

  /**
   * BM25F over the {@linkplain SearchField parts} of each memory with their weights, plus
   * exact-token matches on the unstemmed variant, optional phrase matches on the content and SHA
   * prefix matches, filtered by scope and latest.
   * {@code query} is plain text: it is analyzed, never parsed as query syntax.
   */
  @Override
  public TextHits searchText(Scope scope, String query, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(query, "query");
    checkK(k);
    ensureOpen();
    Query text = textQuery(query);
    if (text == null) {
      return TextHits.none();
    }
    return withSearcher(s -> {
      List<StoreHit> hits = hits(s, topInScope(s, text, scope, k), k, false);
      // The ceiling: the sum, over the leaf clauses of the query, of boost * idf. Lucene's BM25
      // scores a term as boost * idf * tf / (tf + k1 * norm), which approaches but never reaches
      // boost * idf, so no text score exceeds it. A phrase counts the sum of its terms' idf, as
      // Lucene scores it. Statistics are store-wide (all scopes); a term absent from the store
      // counts 0, so a query of unknown words has ceiling 0 (and no hits).
      double ceiling = hits.isEmpty() ? 0 : ceiling(s, text, 1.0);
      return new TextHits(hits, ceiling);
    });
  }

  private static double ceiling(IndexSearcher searcher, Query q, double boost) throws IOException {
    // Lucene's BM25 scores a term at most boost * idf (as tf grows), whatever k1 and the weights.
    if (q instanceof BoostQuery b) {
      return ceiling(searcher, b.getQuery(), boost * b.getBoost());
    }
    if (q instanceof BooleanQuery bq) {
      double sum = 0;
      for (BooleanClause c : bq.clauses()) {
        if (c.getOccur() == Occur.SHOULD || c.getOccur() == Occur.MUST) {
          sum += ceiling(searcher, c.getQuery(), boost);
        }
      }
      return sum;
    }
    if (q instanceof TermQuery tq) {
      return boost * idf(searcher, tq.getTerm());
    }
    if (q instanceof PhraseQuery pq) {
      double sum = 0;
      for (Term t : pq.getTerms()) {
        double idf = idf(searcher, t);
        if (idf == 0) {
          return 0; // a phrase with an unknown term matches nothing
        }
        sum += idf;
      }
      return boost * sum;
    }
    throw new IllegalStateException("unexpected query in a text query: " + q.getClass().getName());
  }

  /** BM25's idf as Lucene computes it, or 0 for a term no document holds. */
  private static double idf(IndexSearcher searcher, Term term) throws IOException {
    int docFreq = searcher.getIndexReader().docFreq(term);
    if (docFreq == 0) {
      return 0;
    }
    CollectionStatistics stats = searcher.collectionStatistics(term.field());
    long docCount = stats == null ? docFreq : stats.docCount();
    return (float) Math.log(1 + (docCount - docFreq + 0.5D) / (docFreq + 0.5D));
  }

  /**
   * Approximate nearest neighbours by HNSW with the scope and latest filter applied during the
   * graph search; {@code max(k, efSearch)} candidates are gathered and the best {@code k} returned.
   *
   * @throws IllegalArgumentException if {@code query}'s dimension is not the attached space's
   */
  @Override
  public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(query, "query");
    checkK(k);
    ensureOpen();
    EmbeddingSpace s = space;
    if (s == null) {
      return List.of();
    }
    checkDimension(query, s);
    if (query.norm() == 0) {
      return List.of();
    }
    float[] target = unit(query);
    return withSearcher(searcher -> {
      int candidates = cap(searcher, Math.max(k, efSearch));
      Query q = new KnnFloatVectorQuery(F_VECTOR, target, candidates, inScope(scope));
      return hits(searcher, searcher.search(q, cap(searcher, k)), k, true);
    });
  }

  /**
   * Scores each latest memory of {@code scope} by the number of given concepts (compared
   * lower-cased) and files (compared exactly) it has.
   *
   * @throws IllegalArgumentException if more than {@value #MAX_RELATED_TERMS} concepts and files are given
   */
  @Override
  public List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(concepts, "concepts");
    Objects.requireNonNull(files, "files");
    checkK(k);
    ensureOpen();
    if (concepts.size() + files.size() > MAX_RELATED_TERMS) {
      throw new IllegalArgumentException("searchRelated takes at most " + MAX_RELATED_TERMS
          + " concepts and files, got " + (concepts.size() + files.size()));
    }
    Set<Term> terms = new LinkedHashSet<>();
    for (String c : concepts) {
      Objects.requireNonNull(c, "concepts element");
      terms.add(new Term(F_CONCEPT_KEY, c.toLowerCase(Locale.ROOT)));
    }
    for (String f : files) {
      Objects.requireNonNull(f, "files element");
      terms.add(new Term(F_FILE_KEY, f));
    }
    if (terms.isEmpty()) {
      return List.of();
    }
    BooleanQuery.Builder shared = new BooleanQuery.Builder();
    for (Term t : terms) {
      shared.add(new ConstantScoreQuery(new TermQuery(t)), Occur.SHOULD); // each share scores exactly 1
    }
    Query q = shared.build();
    return withSearcher(s -> hits(s, topInScope(s, q, scope, k), k, false));
  }

  @Override
  public long count(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    ensureOpen();
    return withSearcher(s -> s.count(inScope(scope)));
  }

  /**
   * Merges the index down to at most {@code maxSegments} segments, commits, and refreshes the
   * searcher. Every search visits every segment (a term lookup per query term, an HNSW graph
   * descent per vector search), so fewer segments mean fewer lookups per search; {@code forceMerge(1)}
   * leaves the fewest.
   *
   * <p>The merge policy (see the {@linkplain dev.memhook.core.lucene package documentation})
   * already keeps the segment count low as the store grows, so this is for the end of a bulk
   * import (a migration, a backfill of many {@link #putAll} batches) or a quiet moment after many
   * forgets, never for each write: it may rewrite the whole index, which takes long on a large index
   * and needs up to twice the index's size in free disk space while it runs.
   *
   * <p>Thread-safe. Writes, group commits and {@link #close()} wait until it returns; reads and
   * searches go on meanwhile on the segments as they were. Durable when it returns, in either
   * durability mode.
   *
   * @throws IllegalArgumentException if {@code maxSegments} is less than 1
   * @throws IllegalStateException if the store is closed
   * @throws MemoryStoreException if merging or the commit failed; the message says whether to
   *     retry or to reopen the store. No memory is lost or changed by a failed merge.
   */
  public void forceMerge(int maxSegments) {
    if (maxSegments < 1) {
      throw new IllegalArgumentException("maxSegments must be at least 1, got " + maxSegments);
    }
    writeLock.lock();
    try {
      ensureOpen();
      checkWritable();
      try {
        writer.forceMerge(maxSegments);
      } catch (IOException | AlreadyClosedException e) {
        if (e instanceof AlreadyClosedException || writer.getTragicException() != null) {
          writeFailure = e;
          throw new MemoryStoreException("merging the segments of the " + location + " failed: " + e.getMessage()
              + "; the index writer gave up; close and reopen the store (committed memories are intact)", e);
        }
        throw new MemoryStoreException("merging the segments of the " + location + " failed: " + e.getMessage()
            + "; no memory was changed; check free disk space (a merge may need twice the index's size), then"
            + " retry", e);
      }
      commitNow("commit the merged segments");
      // Counted like a write, so that if this refresh fails the next read refreshes instead.
      writeGeneration.incrementAndGet();
      try {
        refreshIfStale();
      } catch (IOException e) {
        throw new MemoryStoreException("the " + location + " was merged and committed but the searcher could not"
            + " be refreshed: " + e.getMessage() + "; the next read retries the refresh", e);
      }
    } finally {
      writeLock.unlock();
    }
    LOG.debug("merged the {} down to at most {} segments", location, maxSegments);
  }

  /** The number of segments the current searcher sees, after refreshing it to every write. */
  int segmentCount() {
    ensureOpen();
    return withSearcher(s -> s.getIndexReader().leaves().size());
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
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (committer != null) {
      committer.shutdown();
      try {
        committer.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    IOException failure = null;
    writeLock.lock();
    try {
      if (writeFailure == null && (dirty || writer.hasUncommittedChanges())) {
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
      if (writeFailure == null && failure == null) {
        writer.close(); // waits for running merges, then commits them
      } else {
        writer.rollback();
      }
    } catch (IOException e) {
      failure = failure == null ? e : failure;
    }
    try {
      directory.close();
    } catch (IOException e) {
      failure = failure == null ? e : failure;
    }
    cache.invalidateAll();
    if (failure != null) {
      throw new MemoryStoreException("closing the " + location + " failed: " + failure.getMessage()
          + "; writes since the last commit may be lost; reopen the store to check", failure);
    }
    LOG.debug("closed {}", location);
  }

  @Override
  public String toString() {
    return "LuceneMemoryStore[" + location + (closed.get() ? ", closed" : "") + "]";
  }

  // ---------------------------------------------------------------------------------------------
  // writing

  @FunctionalInterface
  private interface IndexAction {
    /** Applies the change; returns false if there was nothing to change. */
    boolean run() throws IOException;
  }

  @FunctionalInterface
  private interface SearchAction<T> {
    T apply(IndexSearcher searcher) throws IOException;
  }

  /**
   * Segments allowed per tier by the {@link TieredMergePolicy}; Lucene's default is 10. Every search
   * visits every segment (a term lookup per query term, an HNSW graph descent per vector search),
   * and a memory store is searched far more often than written, so it pays for more merging with
   * fewer segments, and so fewer lookups per search, at every size.
   */
  static final double SEGMENTS_PER_TIER = 4;
  /**
   * Segments smaller than this count as this size when the merge policy picks merges; Lucene's
   * default is 2 MB. Memories arrive a few at a time and each commit (or refresh) flushes a small
   * segment; a floor that many such segments fit under merges them together early rather than
   * letting them fill tiers of their own.
   */
  static final double FLOOR_SEGMENT_MB = 16;
  /**
   * Heap the writer may fill with added memories before it flushes a segment; Lucene's default is
   * 16 MB. Only a burst of writes with no read or commit between them (a large {@link #putAll}, an
   * import with group commit) gets near it, and then larger flushes leave fewer segments to merge.
   */
  static final double RAM_BUFFER_MB = 64;

  private static TieredMergePolicy mergePolicy() {
    TieredMergePolicy policy = new TieredMergePolicy();
    policy.setSegmentsPerTier(SEGMENTS_PER_TIER);
    policy.setFloorSegmentMB(FLOOR_SEGMENT_MB);
    return policy;
  }

  /**
   * Applies a write under the write lock, commits it (or marks it for the group commit), and
   * counts it in {@link #writeGeneration}. It does not refresh the searcher: the next read does
   * (see {@link #refreshIfStale}), so writes with no read between them are flushed together
   * rather than one segment per write, and a write does not pay for opening a searcher.
   */
  private void write(List<MemoryId> ids, IndexAction action) {
    writeLock.lock();
    try {
      ensureOpen();
      checkWritable();
      boolean changed;
      try {
        changed = action.run();
      } catch (IOException | AlreadyClosedException e) {
        writeFailure = e;
        throw new MemoryStoreException("writing to the " + location + " failed: " + e.getMessage()
            + "; nothing was committed; check disk space and permissions, then close and reopen the store", e);
      }
      if (!changed) {
        return;
      }
      if (committer == null) {
        commitNow("commit a write");
      } else {
        dirty = true;
      }
      // Counted before it returns, so every read that starts after it refreshes to include it.
      // The count comes after the commit: a write whose commit failed is not counted, so no read
      // refreshes to show it.
      writeGeneration.incrementAndGet();
      cache.invalidateAll(ids);
    } finally {
      writeLock.unlock();
    }
  }

  /** Under the write lock: refuses to write after a failed write. */
  private void checkWritable() {
    if (writeFailure != null) {
      throw new MemoryStoreException("an earlier write to the " + location + " failed ("
          + writeFailure.getMessage() + "); close and reopen the store before writing again", writeFailure);
    }
  }

  /** Commits under the write lock; a failure marks the store failed. */
  private void commitNow(String what) {
    try {
      writer.commit();
      dirty = false;
    } catch (IOException | AlreadyClosedException e) {
      writeFailure = e;
      throw new MemoryStoreException("could not " + what + " to the " + location + ": " + e.getMessage()
          + "; the write is not durable; check disk space and permissions, then close and reopen the store", e);
    }
  }

  /** The group-commit task. */
  private void commitPending() {
    writeLock.lock();
    try {
      if (!dirty || writeFailure != null || closed.get()) {
        return;
      }
      writer.commit();
      dirty = false;
    } catch (IOException | RuntimeException e) {
      LOG.warn("group commit of the {} failed; will retry: {}", location, e.toString());
    } finally {
      writeLock.unlock();
    }
  }

  private Document toDocument(Memory m, Embedding embedding) {
    EmbeddingSpace s = space;
    if (!attached || s == null) {
      throw new IllegalStateException("attach(EmbeddingSpace) must be called before writing to the " + location);
    }
    checkDimension(embedding, s);
    Document doc = new Document();
    doc.add(new StringField(F_KIND, KIND_MEMORY, Field.Store.NO));
    doc.add(new StringField(F_ID, m.id().value(), Field.Store.NO)); // upserts, deletes and getAll look it up
    doc.add(new BinaryDocValuesField(F_ID, new BytesRef(m.id().value()))); // what hits() reads
    if (m.latest()) {
      // what text and related searches filter on: the scope of a searchable memory
      doc.add(new StringField(F_LIVE, m.scope().value(), Field.Store.NO));
      doc.add(new SortedDocValuesField(F_LIVE, new BytesRef(m.scope().value())));
    }
    doc.add(new StoredField(F_JSON, json.write(m)));
    StringBuilder all = new StringBuilder();
    for (SearchField f : SearchField.values()) {
      String text = fieldText(f, m);
      if (text.isBlank()) {
        continue;
      }
      all.append(text).append('\n');
      int units = weightUnits.get(f);
      if (units > 0) {
        doc.add(new WeightedText(F_TEXT, text, codeAnalyzer, units));
        doc.add(new WeightedText(F_TEXT_EXACT, text, exactAnalyzer, units));
      }
    }
    doc.add(new TextField(F_PHRASE, m.content(), Field.Store.NO));
    doc.add(new TextField(F_SHA, all.toString(), Field.Store.NO));
    doc.add(new TextField(F_SHA, placeholder())); // most texts hold no SHA: keep its idf honest
    for (String c : new LinkedHashSet<>(m.concepts())) {
      doc.add(new StringField(F_CONCEPT_KEY, c.toLowerCase(Locale.ROOT), Field.Store.NO));
    }
    for (String f : new LinkedHashSet<>(m.files())) {
      doc.add(new StringField(F_FILE_KEY, f, Field.Store.NO));
    }
    if (embedding.norm() > 0) {
      doc.add(new KnnFloatVectorField(F_VECTOR, unit(embedding), VectorSimilarityFunction.DOT_PRODUCT));
    }
    return doc;
  }

  private static TokenStream placeholder() {
    Tokenizer t = new KeywordTokenizer();
    t.setReader(new StringReader(PLACEHOLDER));
    return t;
  }

  static String fieldText(SearchField f, Memory m) {
    return switch (f) {
      // a title or summary cut from the content would count the content's words twice
      case TITLE -> DerivedText.addsTo(m.title(), m.content()) ? m.title() : "";
      case SUMMARY -> DerivedText.addsTo(m.summary(), m.content()) ? m.summary() : "";
      case CONTENT -> m.content();
      case CONCEPTS -> String.join("\n", m.concepts());
      case FILES -> {
        Set<String> paths = new LinkedHashSet<>(m.files());
        m.sourcePins().forEach(p -> paths.add(p.path()));
        yield String.join("\n", paths);
      }
      case SPEAKER -> m.origin().name() == null ? "" : m.origin().name();
      case SESSION -> m.sourceSession() == null ? "" : m.sourceSession();
      case CONTEXT -> m.context();
      case ATTRIBUTES -> m.attributes().entrySet().stream()
          .map(e -> e.getKey() + " " + e.getValue())
          .collect(Collectors.joining("\n"));
      case DATE -> dateText(m);
    };
  }

  private static String dateText(Memory m) {
    ZonedDateTime t = m.occurredAt().atZone(ZoneOffset.UTC);
    return LONG_DATE.format(t) + " " + DateTimeFormatter.ISO_LOCAL_DATE.format(t);
  }

  // ---------------------------------------------------------------------------------------------
  // searching

  /**
   * The text query, or null if {@code text} analyzes to nothing: one flat disjunction of term
   * queries on the weighted fields (the field weights are in the index), exact terms at
   * {@code exactWeight}, SHA terms at {@code shaBoost} and, when {@code phraseWeight > 0}, the whole
   * query as a phrase on the content.
   */
  Query textQuery(String text) {
    List<String> codeTerms = withoutStopTerms(distinct(codeAnalyzer.positionedTerms(F_TEXT, text)), codeStopTerms);
    List<PositionedTerm> exactTerms = exactAnalyzer.positionedTerms(F_TEXT_EXACT, text);
    List<String> exactDistinct = withoutStopTerms(distinct(exactTerms), exactStopTerms);
    List<String> hexTerms = distinct(hexQueryAnalyzer.positionedTerms(F_SHA, text));
    if (codeTerms.isEmpty() && exactDistinct.isEmpty() && hexTerms.isEmpty()) {
      return null;
    }
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    addTerms(any, F_TEXT, codeTerms, 1.0f);
    addTerms(any, F_TEXT_EXACT, exactDistinct, exactWeight);
    if (phraseWeight > 0 && exactTerms.size() >= 2 && exactTerms.size() <= MAX_PHRASE_TERMS) {
      PhraseQuery.Builder phrase = new PhraseQuery.Builder();
      for (PositionedTerm t : exactTerms) {
        phrase.add(new Term(F_PHRASE, t.term()), t.position());
      }
      any.add(new BoostQuery(phrase.build(), phraseWeight), Occur.SHOULD);
    }
    addTerms(any, F_SHA, hexTerms, shaBoost);
    BooleanQuery q = any.build();
    return q.clauses().isEmpty() ? null : q;
  }

  /**
   * The terms without function words ("what", "did", "the"): they match nearly every memory, add
   * almost nothing to BM25 and make the disjunction score every document. Phrases keep them. A
   * query of function words only keeps them all, so it still matches something.
   */
  private static List<String> withoutStopTerms(List<String> terms, Set<String> stopTerms) {
    List<String> kept = new ArrayList<>(terms.size());
    for (String t : terms) {
      if (!stopTerms.contains(t)) {
        kept.add(t);
      }
    }
    return kept.isEmpty() ? terms : List.copyOf(kept);
  }

  private static Set<String> analyzedStopWords(CodeAwareAnalyzer analyzer) {
    Set<String> out = new HashSet<>();
    for (String word : SimpleTokens.STOP_WORDS) {
      for (PositionedTerm t : analyzer.positionedTerms(F_TEXT, word)) {
        out.add(t.term());
      }
    }
    return Set.copyOf(out);
  }

  /** Adds one SHOULD clause per term: a flat disjunction that Lucene's MaxScore/WAND can skip in. */
  private static void addTerms(BooleanQuery.Builder into, String field, List<String> terms, float boost) {
    if (boost == 0) {
      return;
    }
    for (String t : terms) {
      Query term = new TermQuery(new Term(field, t));
      into.add(boost == 1.0f ? term : new BoostQuery(term, boost), Occur.SHOULD);
    }
  }

  private static List<String> distinct(List<PositionedTerm> terms) {
    Set<String> out = new LinkedHashSet<>();
    for (PositionedTerm t : terms) {
      if (out.size() == MAX_QUERY_TERMS) {
        break;
      }
      out.add(t.term());
    }
    return List.copyOf(out);
  }

  /**
   * The best {@code k} hits of a scoring {@code query} among the latest memories of {@code scope}.
   * The plan depends on how much of the index the scope is: when it holds at least half of the
   * documents, the query runs unfiltered and a collector drops other documents by their doc
   * values, which keeps Lucene's fast pure-disjunction scoring (MaxScore); a smaller scope is
   * intersected with the query as a filter instead, so the scorer skips what is outside it. Both
   * return the same hits. Dynamic pruning starts once {@code k} hits are collected (not Lucene's
   * default of 1,000): no total hit count is needed.
   */
  private static TopDocs topInScope(IndexSearcher searcher, Query query, Scope scope, int k) throws IOException {
    int n = cap(searcher, k);
    Term live = new Term(F_LIVE, scope.value());
    int inScope = searcher.getIndexReader().docFreq(live); // counts deleted documents until merged
    if (inScope == 0) {
      return TopDocsCollector.EMPTY_TOPDOCS;
    }
    if (2L * inScope >= searcher.getIndexReader().numDocs()) {
      return searcher.search(query, new TopInScope(searcher, n, new BytesRef(scope.value())));
    }
    Query filtered = new BooleanQuery.Builder()
        .add(query, Occur.MUST)
        .add(inScope(scope), Occur.FILTER)
        .build();
    return searcher.search(filtered, new TopInScope(searcher, n, null));
  }

  /**
   * The best {@code n} hits, behind the scope check by doc values when {@code scope} is set (null:
   * the query filters by scope itself). Each slice of the index gets a {@link TopScoreDocCollector}
   * that prunes once it holds {@code n} hits; their pruning state is shared only when the searcher
   * searches several slices at once, as Lucene's own {@code IndexSearcher.search(Query, int)} does.
   */
  private static final class TopInScope implements CollectorManager<InScopeCollector, TopDocs> {
    private final TopScoreDocCollectorManager tops;
    private final BytesRef scope;

    TopInScope(IndexSearcher searcher, int n, BytesRef scope) {
      this.tops = new TopScoreDocCollectorManager(n, null, n, searcher.getSlices().length > 1);
      this.scope = scope;
    }

    @Override
    public InScopeCollector newCollector() {
      return new InScopeCollector(tops.newCollector(), scope);
    }

    @Override
    public TopDocs reduce(Collection<InScopeCollector> collectors) throws IOException {
      if (collectors.size() == 1) {
        // One slice, as on this store's searchers (they have no executor): nothing to merge.
        return collectors.iterator().next().top.topDocs();
      }
      List<TopScoreDocCollector> slices = new ArrayList<>(collectors.size());
      for (InScopeCollector c : collectors) {
        slices.add(c.top);
      }
      return tops.reduce(slices);
    }
  }

  /**
   * One slice's collector: passes on to {@code top} only the documents whose {@link #F_LIVE} doc
   * value is {@code scope}, or every document if {@code scope} is null.
   */
  private static final class InScopeCollector implements Collector {
    final TopScoreDocCollector top;
    private final BytesRef scope;

    InScopeCollector(TopScoreDocCollector top, BytesRef scope) {
      this.top = top;
      this.scope = scope;
    }

    @Override
    public LeafCollector getLeafCollector(LeafReaderContext context) throws IOException {
      if (scope == null) {
        return top.getLeafCollector(context);
      }
      SortedDocValues live = DocValues.getSorted(context.reader(), F_LIVE);
      int ord = live.lookupTerm(scope);
      if (ord < 0) {
        throw new CollectionTerminatedException(); // nothing of this scope in the segment
      }
      return new FilterLeafCollector(top.getLeafCollector(context)) {
        @Override
        public void collect(int doc) throws IOException {
          if (live.advanceExact(doc) && live.ordValue() == ord) {
            in.collect(doc);
          }
        }
      };
    }

    @Override
    public ScoreMode scoreMode() {
      return top.scoreMode();
    }
  }

  /** The latest memories of {@code scope}: a filter whose per-segment bit sets are cached. */
  private static Query inScope(Scope scope) {
    return new TermQuery(new Term(F_LIVE, scope.value()));
  }

  /** {@code k} bounded by the number of documents, so a huge {@code k} allocates nothing huge. */
  private static int cap(IndexSearcher searcher, int k) {
    return Math.max(1, Math.min(k, searcher.getIndexReader().maxDoc()));
  }

  private static List<StoreHit> hits(IndexSearcher searcher, TopDocs top, int k, boolean cosine) throws IOException {
    int n = Math.min(k, top.scoreDocs.length);
    String[] ids = ids(searcher, top.scoreDocs, n);
    List<StoreHit> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      // Lucene scores DOT_PRODUCT as (1 + dot) / 2, and the dot product of unit vectors is their
      // cosine; undo it so callers see the cosine itself.
      float raw = top.scoreDocs[i].score;
      double score = cosine ? Math.max(-1.0, Math.min(1.0, 2.0 * raw - 1.0)) : raw;
      out.add(new StoreHit(MemoryId.of(ids[i]), score));
    }
    return List.copyOf(out);
  }

  /**
   * The ids of the first {@code n} hits, from the id's doc values: a stored-fields read would
   * decompress a whole block of stored records per hit. Doc-values iterators only go forward, so
   * the hits are visited in doc order, with one iterator per segment.
   */
  private static String[] ids(IndexSearcher searcher, ScoreDoc[] hits, int n) throws IOException {
    long[] byDoc = new long[n]; // doc in the high half, the hit's rank in the low half
    for (int i = 0; i < n; i++) {
      byDoc[i] = ((long) hits[i].doc << 32) | i;
    }
    Arrays.sort(byDoc);
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    String[] ids = new String[n];
    LeafReaderContext leaf = null;
    BinaryDocValues values = null;
    for (long key : byDoc) {
      int doc = (int) (key >>> 32);
      if (leaf == null || doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
        values = leaf.reader().getBinaryDocValues(F_ID);
      }
      if (values == null || !values.advanceExact(doc - leaf.docBase)) {
        throw new IOException("memory document " + doc + " has no id doc value");
      }
      ids[(int) key] = values.binaryValue().utf8ToString();
    }
    return ids;
  }

  /**
   * {@code e} scaled to unit length, as the vector field holds it: the dot product of unit vectors
   * is their cosine, and costs less per comparison than Lucene's COSINE, which divides by both
   * norms every time.
   */
  private static float[] unit(Embedding e) {
    return e.normalized().toArray();
  }

  /**
   * Runs {@code action} on a searcher that reflects every write that returned before this call:
   * the read-your-writes half of the write path.
   */
  private <T> T withSearcher(SearchAction<T> action) {
    IndexSearcher searcher;
    try {
      refreshIfStale();
      searcher = searchers.acquire();
    } catch (AlreadyClosedException e) {
      throw new IllegalStateException("the LuceneMemoryStore (" + location + ") is closed", e);
    } catch (IOException e) {
      throw new MemoryStoreException("could not open a searcher on the " + location + ": " + e.getMessage()
          + "; retry, or reopen the store", e);
    }
    try {
      return action.apply(searcher);
    } catch (IOException e) {
      throw new MemoryStoreException("reading the " + location + " failed: " + e.getMessage()
          + "; retry; if it persists the index may be corrupt: reopen or rebuild it", e);
    } catch (AlreadyClosedException e) {
      throw new IllegalStateException("the LuceneMemoryStore (" + location + ") is closed", e);
    } finally {
      try {
        searchers.release(searcher);
      } catch (IOException | AlreadyClosedException e) {
        LOG.debug("releasing a searcher of the {} failed", location, e);
      }
    }
  }

  /**
   * Refreshes the searcher if a write was counted since its last refresh. Readers that find it
   * stale together queue on refreshLock; the first refreshes, the rest find it done and return.
   */
  private void refreshIfStale() throws IOException {
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

  // ---------------------------------------------------------------------------------------------
  // helpers

  private Memory decode(String text) {
    try {
      return json.readMemory(text);
    } catch (RuntimeException e) {
      throw unreadable("a memory record", e);
    }
  }

  private MemoryStoreException unreadable(String what, RuntimeException e) {
    return new MemoryStoreException(what + " in the " + location + " is unreadable (" + e.getMessage()
        + "); the index is corrupt or was written by a newer Memhook: upgrade, or rebuild the index", e);
  }

  private static Term idTerm(MemoryId id) {
    return new Term(F_ID, id.value());
  }

  private static Query idsQuery(Collection<MemoryId> ids) {
    List<BytesRef> refs = new ArrayList<>(ids.size());
    for (MemoryId id : ids) {
      refs.add(new BytesRef(id.value()));
    }
    return new TermInSetQuery(F_ID, refs);
  }

  private static EmbeddingSpace readSpace(Map<String, String> userData) {
    String model = userData.get(USER_DATA_MODEL);
    String dimension = userData.get(USER_DATA_DIMENSION);
    if (model == null || dimension == null) {
      return null;
    }
    return new EmbeddingSpace(model, Integer.parseInt(dimension));
  }

  private static void checkDimension(Embedding e, EmbeddingSpace s) {
    if (e.dimension() != s.dimension()) {
      throw new IllegalArgumentException("embedding has dimension " + e.dimension() + " but the attached space '"
          + s.modelId() + "' has dimension " + s.dimension());
    }
  }

  private static void checkK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be positive, got " + k);
    }
  }

  private void ensureOpen() {
    if (closed.get()) {
      throw new IllegalStateException("the LuceneMemoryStore (" + location + ") is closed");
    }
  }

  private static void closeQuietly(IndexWriter w, Directory dir) {
    try {
      if (w != null) {
        w.rollback();
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("rollback after a failed open failed", e);
    }
    try {
      if (dir != null) {
        dir.close();
      }
    } catch (IOException e) {
      LOG.debug("closing the directory after a failed open failed", e);
    }
  }

  private static FieldType weightedTextType() {
    FieldType t = new FieldType();
    t.setTokenized(true);
    t.setStored(false);
    t.setOmitNorms(false);
    // custom term frequencies (the weights) exclude positions
    t.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
    t.freeze();
    return t;
  }

  /** The weights as recorded in the commit user data, such as {@code title=8,summary=6,...}. */
  private static String weightsKey(Map<SearchField, Integer> units) {
    return units.entrySet().stream()
        .map(e -> e.getKey().fieldName() + "=" + e.getValue())
        .collect(Collectors.joining(","));
  }

  private static final Similarity SIMILARITY = new PerFieldSimilarityWrapper() {
    @Override
    public Similarity get(String name) {
      return name.equals(F_TEXT) || name.equals(F_TEXT_EXACT) ? WEIGHTED_BM25 : PLAIN_BM25;
    }
  };

  /**
   * One part of a memory in a weighted text field: analyzed by {@code chain}, every token counted
   * {@code units} times (Lucene adds custom term frequencies to the term's frequency and to the
   * field's length, which makes the field BM25F over the parts).
   */
  private static final class WeightedText extends Field {
    private final Analyzer chain;
    private final int units;

    WeightedText(String name, String text, Analyzer chain, int units) {
      super(name, text, WEIGHTED_TEXT_TYPE);
      this.chain = chain;
      this.units = units;
    }

    @Override
    public TokenStream tokenStream(Analyzer analyzer, TokenStream reuse) {
      return new WeightFilter(chain.tokenStream(name(), stringValue()), units);
    }
  }

  private static final class WeightFilter extends TokenFilter {
    private final TermFrequencyAttribute frequency = addAttribute(TermFrequencyAttribute.class);
    private final int units;

    WeightFilter(TokenStream input, int units) {
      super(input);
      this.units = units;
    }

    @Override
    public boolean incrementToken() throws IOException {
      if (!input.incrementToken()) {
        return false;
      }
      frequency.setTermFrequency(units);
      return true;
    }
  }

  /** Routes each field to its analysis variant. */
  private final class FieldAnalyzer extends DelegatingAnalyzerWrapper {
    FieldAnalyzer() {
      super(PER_FIELD_REUSE_STRATEGY);
    }

    @Override
    protected Analyzer getWrappedAnalyzer(String fieldName) {
      if (fieldName.equals(F_SHA)) {
        return hexIndexAnalyzer;
      }
      // F_TEXT and F_TEXT_EXACT bring their own token streams (WeightedText)
      return fieldName.equals(F_PHRASE) ? exactAnalyzer : codeAnalyzer;
    }
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * Configures and opens a {@link LuceneMemoryStore}. Exactly one of {@link #directory(Path)} and
   * {@link #inMemory()} must be chosen; every other setting has a stated default. Setters reject
   * invalid values at once ({@link IllegalArgumentException}, or {@link NullPointerException} for
   * null). Not thread-safe.
   */
  public static final class Builder {
    /** Lucene's default HNSW max connections per node; a good trade of recall and memory. */
    public static final int DEFAULT_HNSW_MAX_CONN = 16;
    /** Lucene's default HNSW beam width at build time. */
    public static final int DEFAULT_HNSW_BEAM_WIDTH = 100;
    /**
     * Candidates gathered per vector search before the cut to {@code k}: with the defaults above,
     * enough for the graph search to find nearly all of an exact search's top {@code k} on corpora
     * of memory-store size (measured in benchmarks/RESULTS.md).
     */
    public static final int DEFAULT_EF_SEARCH = 100;
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

    private Path path;
    private boolean inMemory;
    private Duration groupCommit;
    private long cacheSize = DEFAULT_CACHE_SIZE;
    private int hnswMaxConn = DEFAULT_HNSW_MAX_CONN;
    private int hnswBeamWidth = DEFAULT_HNSW_BEAM_WIDTH;
    private int efSearch = DEFAULT_EF_SEARCH;
    private boolean scalarQuantization;
    private float exactWeight = DEFAULT_EXACT_WEIGHT;
    private float phraseWeight = DEFAULT_PHRASE_WEIGHT;
    private float shaBoost = DEFAULT_SHA_BOOST;
    private final Map<SearchField, Float> boosts = new EnumMap<>(SearchField.class);

    private Builder() {
      for (SearchField f : SearchField.values()) {
        boosts.put(f, f.defaultBoost());
      }
    }

    /** Keeps the index on disk in {@code path} (created if absent). */
    public Builder directory(Path path) {
      this.path = Objects.requireNonNull(path, "path");
      return this;
    }

    /** Keeps the index in memory: for tests; nothing survives {@link LuceneMemoryStore#close()}. */
    public Builder inMemory() {
      this.inMemory = true;
      return this;
    }

    /**
     * Commits in the background at most {@code interval} after a write instead of before each
     * write returns. Writes stay immediately visible; a crash loses at most the interval's writes.
     * Default: off (commit per write).
     *
     * @throws IllegalArgumentException if {@code interval} is not between 1 ms and 1 minute
     */
    public Builder groupCommit(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      if (interval.compareTo(Duration.ofMillis(1)) < 0 || interval.compareTo(Duration.ofMinutes(1)) > 0) {
        throw new IllegalArgumentException("groupCommit interval must be between 1 ms and 1 minute, got " + interval);
      }
      this.groupCommit = interval;
      return this;
    }

    /** The most records kept in the read cache; 0 disables it. Default {@value #DEFAULT_CACHE_SIZE}. */
    public Builder cacheSize(long entries) {
      if (entries < 0) {
        throw new IllegalArgumentException("cacheSize must be >= 0, got " + entries);
      }
      this.cacheSize = entries;
      return this;
    }

    /** HNSW max connections per node, 2 to 512. Default {@value #DEFAULT_HNSW_MAX_CONN}. */
    public Builder hnswMaxConn(int maxConn) {
      if (maxConn < 2 || maxConn > 512) {
        throw new IllegalArgumentException("hnswMaxConn must be in [2, 512], got " + maxConn);
      }
      this.hnswMaxConn = maxConn;
      return this;
    }

    /** HNSW beam width at build time, 2 to 3200. Default {@value #DEFAULT_HNSW_BEAM_WIDTH}. */
    public Builder hnswBeamWidth(int beamWidth) {
      if (beamWidth < 2 || beamWidth > 3200) {
        throw new IllegalArgumentException("hnswBeamWidth must be in [2, 3200], got " + beamWidth);
      }
      this.hnswBeamWidth = beamWidth;
      return this;
    }

    /**
     * Candidates gathered per vector search, 1 to 10,000 (more: better recall, slower). Default
     * {@value #DEFAULT_EF_SEARCH}.
     */
    public Builder efSearch(int candidates) {
      if (candidates < 1 || candidates > 10_000) {
        throw new IllegalArgumentException("efSearch must be in [1, 10000], got " + candidates);
      }
      this.efSearch = candidates;
      return this;
    }

    /**
     * Stores vectors scalar-quantized to 7 bits (a byte per dimension instead of a float, slightly
     * lower precision), for large corpora. Affects segments written from now on. Default off.
     */
    public Builder scalarQuantization(boolean enabled) {
      this.scalarQuantization = enabled;
      return this;
    }

    /**
     * The weight of {@code field} in text search, in steps of 0.25 (rounded to the nearest); 0
     * leaves it out. Defaults are on {@link SearchField}. Weights apply when memories are indexed:
     * the index records them, and opening it with other weights throws
     * {@link IncompatibleStoreException} (rebuild the index to change them).
     *
     * @throws IllegalArgumentException if {@code boost} is not 0 and not in [0.25, {@value #MAX_FIELD_BOOST}]
     */
    public Builder fieldBoost(SearchField field, float boost) {
      Objects.requireNonNull(field, "field");
      if (!(boost == 0 || (boost >= 0.25f && boost <= MAX_FIELD_BOOST))) {
        throw new IllegalArgumentException("fieldBoost(" + field + ") must be 0 or in [0.25, "
            + MAX_FIELD_BOOST + "], got " + boost);
      }
      this.boosts.put(field, boost);
      return this;
    }

    /** Weight of exact-token matches (see {@link #DEFAULT_EXACT_WEIGHT}); 0 disables them. */
    public Builder exactMatchWeight(float weight) {
      this.exactWeight = checkWeight("exactMatchWeight", weight);
      return this;
    }

    /** Weight of whole-query phrase matches (see {@link #DEFAULT_PHRASE_WEIGHT}); 0 disables them. */
    public Builder phraseWeight(float weight) {
      this.phraseWeight = checkWeight("phraseWeight", weight);
      return this;
    }

    /** Boost of commit-SHA matches (see {@link #DEFAULT_SHA_BOOST}); 0 disables them. */
    public Builder shaBoost(float boost) {
      this.shaBoost = checkWeight("shaBoost", boost);
      return this;
    }

    private static float checkWeight(String name, float value) {
      if (!Float.isFinite(value) || value < 0) {
        throw new IllegalArgumentException(name + " must be finite and >= 0, got " + value);
      }
      return value;
    }

    /**
     * Opens the store.
     *
     * @throws IllegalStateException if neither or both of {@link #directory(Path)} and
     *     {@link #inMemory()} were chosen
     * @throws MemoryStoreException if the index cannot be opened or is locked
     * @throws IncompatibleStoreException if the index was written in an unknown format
     */
    public LuceneMemoryStore build() {
      if (path == null && !inMemory) {
        throw new IllegalStateException("choose directory(Path) or inMemory()");
      }
      if (path != null && inMemory) {
        throw new IllegalStateException("choose either directory(" + path + ") or inMemory(), not both");
      }
      if (boosts.values().stream().allMatch(b -> b == 0) && shaBoost == 0) {
        throw new IllegalStateException("every field boost is 0: text search would find nothing");
      }
      return new LuceneMemoryStore(this);
    }
  }
}
