package dev.memhook.postgres;

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
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * A {@link MemoryStore} kept in PostgreSQL, so that several JVMs share one memory: a memory written
 * through one instance is found through every other, and one forgotten through any is gone from
 * all.
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li><b>Connections</b> come from the host's {@link DataSource} (a pool such as HikariCP), one
 *       per call, given back before the call returns, and one held by the change feed's follower
 *       from {@link #attach} to {@link #close()}; the store never closes the data source.
 *   <li><b>Schema</b>: {@link Builder#build()} creates or migrates the store's tables in its
 *       PostgreSQL schema, under an advisory lock, so any number of instances may start at once on
 *       an empty database. Several stores may share a database in different schemas.
 *   <li><b>Threads</b>: thread-safe; do not synchronize on it (it does not either). Each write is
 *       one transaction. Once attached, one daemon thread follows the change feed.
 *   <li><b>Durability</b>: a write is committed when it returns, as durable as the server's own
 *       settings make a commit. {@link #putAll} is one transaction ({@link
 *       StoreCapability#ATOMIC_BATCH}).
 *   <li><b>Passage vectors</b> ({@link StoreCapability#PASSAGE_VECTORS}): a memory's passages are
 *       kept in a column of its row, a signed byte per dimension of each unit-normalised passage,
 *       so every write of the row writes, replaces or drops them in its transaction (a put without
 *       passages clears them). {@link #passageCosines} reads them in PostgreSQL by id; the replicas
 *       keep none. A database written before they existed opens with its memories without passages.
 *   <li><b>Where searches run</b>: reads by id, counts and exports run in PostgreSQL. Searches and
 *       listings by type ({@link #listByType}) and session windows ({@link #sessionWindows}) run in
 *       this instance's <em>replica</em> of the scope: its latest memories copied into an embedded
 *       Lucene store in memory, loaded on the scope's first search, so they rank exactly as the
 *       embedded store does (with {@link TextSearch#DATABASE}, text and related searches run in
 *       PostgreSQL instead).
 *   <li><b>Consistency between instances</b>: every write appends to a change feed and notifies the
 *       other instances ({@code LISTEN/NOTIFY}), whose follower threads catch their replicas up;
 *       each also checks every held scope's position every {@link
 *       Builder#pollInterval(java.time.Duration) poll interval}. A write is searchable through the
 *       instance that made it when it returns; through another instance once that instance has
 *       caught up, normally within milliseconds and at most about one poll interval later while
 *       PostgreSQL is reachable ({@code benchmarks/RESULTS.md} has measured figures). While
 *       PostgreSQL is reachable, a memory forgotten through any instance is never returned by a
 *       read once the forget has returned, and no longer found by another instance's searches
 *       within that same bound.
 *   <li><b>PostgreSQL unreachable</b>: searches of held scopes go on from the replicas as they
 *       were, reads by id are answered from them, and the store says so ({@link #replicaStatus()},
 *       {@link Builder#statusListener}); writes, counts, exports and the first search of a scope
 *       not held fail with a {@link MemoryStoreException#retriable() retriable} {@link
 *       MemoryStoreException}. The follower reconnects with a backoff and catches every held scope
 *       up from the feed before it reports following again: nothing is lost or applied twice.
 *   <li><b>Scopes</b>: every search and count filters by scope in its SQL. {@link #delete} deletes
 *       a memory only in the scope of its audit record.
 *   <li><b>Forgetting</b>: when {@link #delete} returns, the memory's row (record, search terms,
 *       vector, passage vectors) is deleted: no read returns it, nor a search through this instance
 *       (others: see above). PostgreSQL keeps the deleted row's bytes in the table's pages until
 *       {@code VACUUM} lets them be reused (or {@code VACUUM FULL} rewrites the table), and in its
 *       write-ahead log and backups as long as those are kept; the store does not run {@code
 *       VACUUM} itself (it cannot run in a transaction, needs the table's owner, and would stall
 *       writers), so an operator who must erase text from disk runs {@code VACUUM FULL} on {@code
 *       memhook_memory} as the database's own procedures prescribe.
 *   <li><b>Text search in PostgreSQL</b> ({@link TextSearch#DATABASE}) ranks with {@code ts_rank}
 *       over the code-aware terms the Lucene store uses; scores are not BM25.
 *   <li><b>Errors</b>: a database failure is a {@link dev.memhook.api.MemoryStoreException} whose
 *       message says whether to retry; nothing is half-written. After {@link #close()} every method
 *       but {@link #capabilities()} throws {@link IllegalStateException}; null arguments are
 *       rejected with {@link NullPointerException}, as {@link MemoryStore} says.
 * </ul>
 */
public final class PostgresMemoryStore implements MemoryStore {
  private static final Set<StoreCapability> CAPABILITIES =
      Set.copyOf(
          EnumSet.of(
              StoreCapability.DURABLE,
              StoreCapability.ATOMIC_BATCH,
              StoreCapability.PASSAGE_VECTORS));

  private final PostgresStoreConfig config;
  private final Jdbc jdbc;
  private final Schema schema;
  private final RecordCodec codec = new RecordCodec();
  private final ChangeFeed feed;
  private final RowWrites writes;
  private final MemoryReads reads;
  private final DatabaseSearch inDatabase;
  private final FeedHealth health;
  private volatile EmbeddingSpace space;
  private volatile Replication replication;
  private volatile boolean closed;

  /** Serialises attach and close, so that one set of replicas is made and closed. */
  private final Object lifecycle = new Object();

  private PostgresMemoryStore(PostgresStoreConfig config) {
    this.config = config;
    this.jdbc = new Jdbc(config.dataSource());
    this.schema = new Schema(config.schema());
    this.feed = new ChangeFeed(schema);
    this.writes = new RowWrites(schema, codec, feed);
    this.reads = new MemoryReads(schema, codec);
    this.inDatabase = new DatabaseSearch(jdbc, reads);
    this.health = new FeedHealth(Clock.systemUTC(), config.statusListener(), toString());
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A new {@link PostgresSessionStore} over this store's data source and schema, for {@code
   * Memhook.builder().sessionStore(..)}: capture's sessions are then shared by every instance over
   * the database, as the memories are. Each call returns a new view; closing it, or this store,
   * leaves the other open.
   */
  public PostgresSessionStore sessionStore() {
    return new PostgresSessionStore(jdbc, schema);
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public void attach(EmbeddingSpace space) {
    Objects.requireNonNull(space, "space");
    synchronized (lifecycle) {
      attachLocked(space);
    }
  }

  private void attachLocked(EmbeddingSpace space) {
    checkOpen();
    jdbc.inTransaction(
        "record the embedding space",
        c -> {
          writes.recordSpace(c, space);
          return null;
        });
    if (this.space == null) {
      this.replication = Replication.start(config, jdbc, schema, feed, codec, health, space);
      this.space = space;
    }
  }

  /** Stores {@code memory} without passages: a replaced memory's passages are dropped. */
  @Override
  public void put(Memory memory, Embedding embedding) {
    put(memory, embedding, List.of());
  }

  @Override
  public void put(Memory memory, Embedding embedding, List<Embedding> passages) {
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(embedding, "embedding");
    RowWrites.Row row = writes.row(memory, embedding, passages, attached().dimension());
    write(
        "store memory " + memory.id().value(),
        (c, changes) -> writes.put(c, List.of(row), changes));
  }

  @Override
  public void putAll(Map<Memory, Embedding> batch) {
    putAll(batch, Map.of());
  }

  @Override
  public void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
    Objects.requireNonNull(batch, "batch");
    List<RowWrites.Row> rows = writes.rows(batch, passages, attached().dimension());
    if (rows.isEmpty()) {
      return;
    }
    write(
        "store a batch of " + rows.size() + " memories",
        (c, changes) -> writes.put(c, rows, changes));
  }

  @Override
  public void putNewVersion(Memory next, Embedding embedding) {
    putNewVersion(next, embedding, List.of());
  }

  @Override
  public void putNewVersion(Memory next, Embedding embedding, List<Embedding> passages) {
    Objects.requireNonNull(next, "next");
    Objects.requireNonNull(embedding, "embedding");
    RowWrites.Row row = writes.newVersionRow(next, embedding, passages, attached().dimension());
    write(
        "store new version " + next.id().value(),
        (c, changes) -> writes.putNewVersion(c, row, changes));
  }

  @Override
  public Optional<Memory> get(MemoryId id) {
    Objects.requireNonNull(id, "id");
    checkOpen();
    return Optional.ofNullable(readAll(List.of(id)).get(id));
  }

  @Override
  public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    List<MemoryId> asked = List.copyOf(Objects.requireNonNull(ids, "ids"));
    checkOpen();
    return asked.isEmpty() ? Map.of() : readAll(asked);
  }

  @Override
  public boolean delete(MemoryId id, ForgetRecord audit) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(audit, "audit");
    if (!audit.id().equals(id)) {
      throw new IllegalArgumentException(
          "the audit record names " + audit.id().value() + ", not " + id.value());
    }
    return deleteAll(List.of(audit)) == 1;
  }

  @Override
  public int deleteAll(List<ForgetRecord> audits) {
    List<ForgetRecord> records = List.copyOf(Objects.requireNonNull(audits, "audits"));
    checkOpen();
    RowWrites.checkAudits(records);
    if (records.isEmpty()) {
      return 0;
    }
    int[] deleted = new int[1];
    write(
        "forget " + records.size() + " memories",
        (c, changes) -> deleted[0] = writes.delete(c, records, changes));
    return deleted[0];
  }

  @Override
  public List<ForgetRecord> forgotten(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    checkOpen();
    return jdbc.read(
        "read the forget records of scope " + scope.value(), c -> reads.forgotten(c, scope));
  }

  @Override
  public TextHits searchText(Scope scope, String query, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(query, "query");
    checkK(k);
    checkOpen();
    Replication replicas = replication;
    if (replicas != null && config.textSearch() == TextSearch.REPLICA) {
      return replicas.search(scope, copy -> copy.searchText(scope, query, k));
    }
    return inDatabase.text(scope, query, k);
  }

  @Override
  public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(query, "query");
    checkK(k);
    int dimension = attached().dimension();
    if (query.dimension() != dimension) {
      throw new IllegalArgumentException(
          "the query has " + query.dimension() + " dimensions, the store's space " + dimension);
    }
    if (query.norm() == 0) {
      return List.of();
    }
    return replication.search(scope, copy -> copy.searchVector(scope, query, k));
  }

  @Override
  public List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(concepts, "concepts");
    Objects.requireNonNull(files, "files");
    checkK(k);
    checkOpen();
    Replication replicas = replication;
    if (replicas != null && config.textSearch() == TextSearch.REPLICA) {
      return replicas.search(scope, copy -> copy.searchRelated(scope, concepts, files, k));
    }
    return inDatabase.related(scope, concepts, files, k);
  }

  /**
   * Runs on this instance's replica of {@code scope}, as searches do, whatever {@link TextSearch}
   * says: the replica's embedded index keeps each session's order, so no SQL is run.
   */
  @Override
  public Map<MemoryId, SessionWindow> sessionWindows(
      Scope scope, Collection<MemoryId> ids, int span) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(ids, "ids");
    ids.forEach(id -> Objects.requireNonNull(id, "id"));
    if (span < 1) {
      throw new IllegalArgumentException("span must be at least 1, got " + span);
    }
    attached();
    return replication.search(scope, copy -> copy.sessionWindows(scope, ids, span));
  }

  /**
   * Runs in PostgreSQL, whatever {@link TextSearch} says: one statement by primary key over the
   * memories' {@code passages} column, decoded and compared here, so the work is bounded by {@code
   * ids}. While PostgreSQL is unreachable it answers an empty map, as a store without passages
   * would (the replicas keep none): recall goes on by whole vectors, and {@link #replicaStatus()}
   * says why.
   *
   * @throws IllegalStateException if the store is not attached yet (it knows no dimension), or
   *     closed
   */
  @Override
  public Map<MemoryId, Double> passageCosines(
      Scope scope, Collection<MemoryId> ids, Embedding query) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(ids, "ids");
    ids.forEach(id -> Objects.requireNonNull(id, "id"));
    Objects.requireNonNull(query, "query");
    int dimension = attached().dimension();
    if (query.dimension() != dimension) {
      throw new IllegalArgumentException(
          "the query has " + query.dimension() + " dimensions, the store's space " + dimension);
    }
    List<MemoryId> asked = List.copyOf(ids);
    if (asked.isEmpty()) {
      return Map.of();
    }
    float[] unitQuery = PassageBytes.unit(query);
    return replication.passageCosines(
        () ->
            jdbc.read(
                "read the passages of " + asked.size() + " memories",
                c -> reads.passageCosines(c, scope, asked, unitQuery)));
  }

  @Override
  public long count(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    checkOpen();
    return jdbc.read("count the memories of scope " + scope.value(), c -> reads.count(c, scope));
  }

  /**
   * Runs on this instance's replica of {@code scope}, as searches do (loaded on first use, kept
   * current by the change feed): one query per type in the embedded store's index, so a scope of
   * many observations costs only the memories listed. While PostgreSQL is unreachable it lists what
   * the replica held, like searches.
   *
   * @throws IllegalStateException if the store is not attached yet (it has no replicas), or closed
   */
  @Override
  public TypeListing listByType(Scope scope, List<MemoryType> types, int limit) {
    Objects.requireNonNull(scope, "scope");
    List<MemoryType> listed = TypeListing.checkTypes(types);
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
    attached();
    return replication.search(scope, copy -> copy.listByType(scope, listed, limit));
  }

  @Override
  public ExportResult export(Consumer<? super Memory> sink) {
    Objects.requireNonNull(sink, "sink");
    checkOpen();
    long[] counts = jdbc.inTransaction("export the memories", c -> reads.export(c, sink));
    return new ExportResult(counts[0], counts[1]);
  }

  @Override
  public long exportForgotten(Consumer<? super ForgetRecord> sink) {
    Objects.requireNonNull(sink, "sink");
    checkOpen();
    return jdbc.inTransaction("export the forget records", c -> reads.exportForgotten(c, sink));
  }

  @Override
  public long unreadableRecords() {
    return reads.unreadable();
  }

  /** Nothing to do: every write is committed when it returns. */
  @Override
  public void flush() {
    checkOpen();
  }

  /**
   * Stops following the change feed and drops the replicas held in this JVM; the data source stays
   * open (it is the host's). Idempotent.
   */
  @Override
  public void close() {
    synchronized (lifecycle) {
      closed = true;
      Replication replicas = replication;
      if (replicas != null) {
        replicas.close();
      }
    }
  }

  /**
   * Whether this instance's replicas are following PostgreSQL, or answering from what they held
   * when it became unreachable. Callable after {@link #close()}.
   */
  public ReplicaStatus replicaStatus() {
    return health.status();
  }

  @Override
  public String toString() {
    return "PostgresMemoryStore[schema=" + schema.name() + "]";
  }

  /** One write's work, which adds what it changed to the feed's {@code changes}. */
  @FunctionalInterface
  private interface WriteWork {
    void run(Connection c, ChangeFeed.Changes changes) throws SQLException;
  }

  /**
   * Runs {@code work} in one transaction, then catches this instance's replicas of the scopes it
   * changed up, so that the write is searchable here when this returns.
   */
  private void write(String what, WriteWork work) {
    ChangeFeed.Changes changes = new ChangeFeed.Changes();
    try {
      jdbc.inTransaction(
          what,
          c -> {
            work.run(c, changes);
            return null;
          });
    } catch (MemoryStoreException e) {
      health.noteIfUnreachable(e);
      throw e;
    }
    Replication replicas = replication;
    if (replicas != null) {
      replicas.afterWrite(changes);
    }
  }

  /** The memories of {@code ids} that exist, from PostgreSQL or, while it is away, the replicas. */
  private Map<MemoryId, Memory> readAll(List<MemoryId> ids) {
    Supplier<Map<MemoryId, Memory>> fromDatabase =
        () -> jdbc.read("read memories", c -> reads.getAll(c, ids));
    Replication replicas = replication;
    return replicas == null ? fromDatabase.get() : replicas.readAll(ids, fromDatabase);
  }

  private EmbeddingSpace attached() {
    checkOpen();
    EmbeddingSpace s = space;
    if (s == null) {
      throw new IllegalStateException(
          "attach(space) must be called before the first write or " + "vector search");
    }
    return s;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the store is closed");
    }
  }

  private static void checkK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, got " + k);
    }
  }

  /**
   * Configures and opens a {@link PostgresMemoryStore}: the one place that collects its settings,
   * states their defaults (the {@code DEFAULT_*} constants) and validates them. Set the {@linkplain
   * #dataSource data source}, optionally the rest, then {@link #build()}.
   *
   * <ul>
   *   <li><b>Strict:</b> setters only record; nothing connects before {@link #build()}. Each setter
   *       rejects an invalid value at once with an {@link IllegalArgumentException} naming it, and
   *       a rejected value sets nothing.
   *   <li><b>Nulls:</b> every argument must be non-null; null throws {@link NullPointerException}
   *       naming the setting, and sets nothing.
   *   <li><b>Thread safety:</b> not thread-safe; confine a builder to one thread. The store it
   *       builds is thread-safe and does not change when the builder is used afterwards.
   * </ul>
   */
  public static final class Builder {
    /**
     * The default PostgreSQL schema, {@value}: a schema of the store's own keeps its tables apart
     * from the host's, and PostgreSQL 15 no longer lets every user create tables in {@code public}.
     */
    public static final String DEFAULT_SCHEMA = "memhook";

    /**
     * The default number of scopes whose replicas one instance holds, {@value}: a chat service
     * serves a bounded set of active tenants at a time; a scope evicted is loaded again on its next
     * search.
     */
    public static final int DEFAULT_MAX_CACHED_SCOPES = 256;

    /**
     * The default poll interval: how often the follower checks every held scope's position even
     * without a notification. It bounds how late a change made through another instance is seen
     * when its notification is lost (or never sent, behind a pooler that drops {@code LISTEN}).
     */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

    /**
     * The default feed retention: a replica disconnected for longer reloads each scope it holds
     * instead of catching up.
     */
    public static final Duration DEFAULT_FEED_RETENTION = Duration.ofHours(1);

    /** The host's data source; null until {@link #dataSource} is called, which is required. */
    private DataSource dataSource;

    private String schema = DEFAULT_SCHEMA;
    private int maxCachedScopes = DEFAULT_MAX_CACHED_SCOPES;
    private Duration pollInterval = DEFAULT_POLL_INTERVAL;
    private Duration feedRetention = DEFAULT_FEED_RETENTION;
    private TextSearch textSearch = TextSearch.REPLICA;
    private Consumer<? super ReplicaStatus> statusListener = status -> {};

    private Builder() {}

    /**
     * The host's data source (a pool such as HikariCP), required; the store never closes it. Once
     * attached, the store holds one of its connections for the change feed, so give the pool at
     * least two.
     */
    public Builder dataSource(DataSource value) {
      this.dataSource = Objects.requireNonNull(value, "dataSource");
      return this;
    }

    /**
     * The PostgreSQL schema the store keeps its tables in, created if missing: an unquoted
     * lower-case identifier ({@code [a-z_][a-z0-9_]*}, at most 63 characters). Default {@link
     * #DEFAULT_SCHEMA}.
     *
     * @throws IllegalArgumentException if {@code value} is not such an identifier
     */
    public Builder schema(String value) {
      Objects.requireNonNull(value, "schema");
      if (!Schema.VALID_NAME.matcher(value).matches()) {
        throw new IllegalArgumentException(
            "schema must match " + Schema.VALID_NAME.pattern() + ", got '" + value + "'");
      }
      this.schema = value;
      return this;
    }

    /**
     * How many scopes' replicas this instance holds at most. Default {@link
     * #DEFAULT_MAX_CACHED_SCOPES}.
     *
     * @throws IllegalArgumentException if {@code value} is less than 1
     */
    public Builder maxCachedScopes(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("maxCachedScopes must be at least 1, got " + value);
      }
      this.maxCachedScopes = value;
      return this;
    }

    /**
     * How often every held scope's position is checked without a notification, from 10 ms to 10
     * minutes. Default {@link #DEFAULT_POLL_INTERVAL}.
     *
     * @throws IllegalArgumentException if out of range
     */
    public Builder pollInterval(Duration value) {
      this.pollInterval =
          inRange("pollInterval", value, Duration.ofMillis(10), Duration.ofMinutes(10));
      return this;
    }

    /**
     * How long change feed rows are kept, from 1 minute to 30 days. Default {@link
     * #DEFAULT_FEED_RETENTION}.
     *
     * @throws IllegalArgumentException if out of range
     */
    public Builder feedRetention(Duration value) {
      this.feedRetention =
          inRange("feedRetention", value, Duration.ofMinutes(1), Duration.ofDays(30));
      return this;
    }

    /** Where text and related searches run. Default {@link TextSearch#REPLICA}. */
    public Builder textSearch(TextSearch value) {
      this.textSearch = Objects.requireNonNull(value, "textSearch");
      return this;
    }

    /**
     * Told each time the replicas stop or resume following PostgreSQL, on the thread that noticed
     * (the feed's, or a caller's); it must return quickly and may throw (logged, ignored). Default:
     * none.
     */
    public Builder statusListener(Consumer<? super ReplicaStatus> value) {
      this.statusListener = Objects.requireNonNull(value, "statusListener");
      return this;
    }

    /**
     * Connects, creates or migrates the schema, and returns the store, unattached. Holds nothing
     * when it throws.
     *
     * @throws IllegalStateException if no data source was set
     * @throws MemoryStoreException if the database cannot be reached or the schema cannot be
     *     created; the message names the data source's URL (without a password)
     * @throws IncompatibleStoreException if the schema was written by a newer Memhook
     */
    public PostgresMemoryStore build() {
      PostgresStoreConfig config = config();
      PostgresMemoryStore store = new PostgresMemoryStore(config);
      try (Connection c = config.dataSource().getConnection()) {
        store.schema.migrate(c);
      } catch (SQLException e) {
        throw DataSources.openFailure(config.dataSource(), config.schema(), e);
      }
      return store;
    }

    /**
     * The settings resolved: what {@link #build()} opens. Connects to nothing and leaves this
     * builder as it was.
     *
     * @throws IllegalStateException if no data source was set
     */
    PostgresStoreConfig config() {
      if (dataSource == null) {
        throw new IllegalStateException("dataSource(...) is required");
      }
      return new PostgresStoreConfig(
          dataSource,
          schema,
          maxCachedScopes,
          pollInterval,
          feedRetention,
          textSearch,
          statusListener);
    }

    private static Duration inRange(String name, Duration value, Duration min, Duration max) {
      Objects.requireNonNull(value, name);
      if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
        throw new IllegalArgumentException(
            name + " must be between " + min + " and " + max + ", got " + value);
      }
      return value;
    }
  }
}
