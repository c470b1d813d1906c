package dev.memhook.postgres;

import dev.memhook.api.ExportResult;
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
import dev.memhook.core.store.MemoryRecordJson;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
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
 *       per call, given back before the call returns; the store never closes the data source.
 *   <li><b>Schema</b>: {@link Builder#build()} creates or migrates the store's tables in its
 *       PostgreSQL schema, under an advisory lock, so any number of instances may start at once on
 *       an empty database. Several stores may share a database in different schemas.
 *   <li><b>Threads</b>: thread-safe; do not synchronize on it (it does not either). Each write is
 *       one transaction.
 *   <li><b>Durability</b>: a write is committed when it returns, as durable as the server's own
 *       settings make a commit. {@link #putAll} is one transaction ({@link
 *       StoreCapability#ATOMIC_BATCH}).
 *   <li><b>Consistency between instances</b>: every read and text or related search runs in
 *       PostgreSQL and sees every write committed before it started. A vector search checks the
 *       scope's change value in PostgreSQL first and reloads the scope's vectors into this JVM when
 *       it changed, so it too sees every write committed before it started.
 *   <li><b>Scopes</b>: every search and count filters by scope in its SQL. {@link #delete} deletes
 *       a memory only in the scope of its audit record.
 *   <li><b>Forgetting</b>: when {@link #delete} returns, the memory's row (record, search terms,
 *       vector) is deleted and no search or read returns it. PostgreSQL keeps the deleted row's
 *       bytes in the table's pages until {@code VACUUM} lets them be reused (or {@code VACUUM FULL}
 *       rewrites the table), and in its write-ahead log and backups as long as those are kept; the
 *       store does not run {@code VACUUM} itself (it cannot run in a transaction, needs the table's
 *       owner, and would stall writers), so an operator who must erase text from disk runs {@code
 *       VACUUM FULL} on {@code memhook_memory} as the database's own procedures prescribe.
 *   <li><b>Text search</b> ranks with {@code ts_rank} over the code-aware terms the Lucene store
 *       uses; scores are not BM25, and the ceiling is the bound described in the module's README.
 *   <li><b>Errors</b>: a database failure is a {@link dev.memhook.api.MemoryStoreException} whose
 *       message says whether to retry; nothing is half-written. After {@link #close()} every method
 *       but {@link #capabilities()} throws {@link IllegalStateException}; null arguments are
 *       rejected with {@link NullPointerException}, as {@link MemoryStore} says.
 * </ul>
 */
public final class PostgresMemoryStore implements MemoryStore {
  private static final Set<StoreCapability> CAPABILITIES =
      Set.copyOf(EnumSet.of(StoreCapability.DURABLE, StoreCapability.ATOMIC_BATCH));

  private final Jdbc jdbc;
  private final Schema schema;
  private final int maxCachedScopes;
  private final RecordCodec codec = new RecordCodec();
  private final MemoryWrites writes;
  private final MemoryReads reads;
  private volatile EmbeddingSpace space;
  private volatile VectorIndex vectors;
  private volatile boolean closed;

  /** Serialises attaches, so that one vector index is created; a private lock, not {@code this}. */
  private final Object attachLock = new Object();

  private PostgresMemoryStore(Builder b) {
    this.jdbc = new Jdbc(b.dataSource);
    this.schema = new Schema(b.schema);
    this.maxCachedScopes = b.maxCachedScopes;
    this.writes = new MemoryWrites(schema, codec);
    this.reads = new MemoryReads(schema, codec);
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
    synchronized (attachLock) {
      attachLocked(space);
    }
  }

  private void attachLocked(EmbeddingSpace space) {
    checkOpen();
    EmbeddingSpace recorded =
        jdbc.inTransaction("record the embedding space", c -> writes.recordSpace(c, space));
    if (!recorded.equals(space)) {
      throw new IncompatibleStoreException(
          "the PostgreSQL store in schema '"
              + schema.name()
              + "' holds vectors of "
              + recorded
              + ", not "
              + space
              + ": use the embedder it was written with, or another schema");
    }
    if (this.space == null) {
      this.vectors = new ScopeVectorCache(jdbc, schema, space.dimension(), maxCachedScopes);
      this.space = space;
    }
  }

  @Override
  public void put(Memory memory, Embedding embedding) {
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(embedding, "embedding");
    MemoryWrites.Row row = writes.row(memory, embedding, attached().dimension());
    jdbc.inTransaction(
        "store memory " + memory.id().value(),
        c -> {
          writes.put(c, List.of(row));
          return null;
        });
  }

  @Override
  public void putAll(Map<Memory, Embedding> batch) {
    Objects.requireNonNull(batch, "batch");
    int dimension = attached().dimension();
    Set<MemoryId> seen = new HashSet<>();
    List<MemoryWrites.Row> rows = new ArrayList<>(batch.size());
    for (Map.Entry<Memory, Embedding> e : batch.entrySet()) {
      if (!seen.add(e.getKey().id())) {
        throw new IllegalArgumentException(
            "batch holds two memories with id "
                + e.getKey().id().value()
                + "; nothing was written");
      }
      rows.add(
          writes.row(e.getKey(), Objects.requireNonNull(e.getValue(), "embedding"), dimension));
    }
    if (rows.isEmpty()) {
      return;
    }
    jdbc.inTransaction(
        "store a batch of " + rows.size() + " memories",
        c -> {
          writes.put(c, rows);
          return null;
        });
  }

  @Override
  public void putNewVersion(Memory next, Embedding embedding) {
    Objects.requireNonNull(next, "next");
    Objects.requireNonNull(embedding, "embedding");
    int dimension = attached().dimension();
    if (next.supersedes() == null) {
      throw new IllegalArgumentException(
          "memory " + next.id().value() + " supersedes nothing; nothing was written");
    }
    if (!next.latest()) {
      throw new IllegalArgumentException(
          "new version " + next.id().value() + " is not latest; nothing was written");
    }
    MemoryWrites.Row row = writes.row(next, embedding, dimension);
    jdbc.inTransaction(
        "store new version " + next.id().value(),
        c -> {
          writes.putNewVersion(c, row);
          return null;
        });
  }

  @Override
  public Optional<Memory> get(MemoryId id) {
    Objects.requireNonNull(id, "id");
    checkOpen();
    return jdbc.read("read memory " + id.value(), c -> reads.get(c, id));
  }

  @Override
  public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    List<MemoryId> asked = List.copyOf(Objects.requireNonNull(ids, "ids"));
    checkOpen();
    return asked.isEmpty() ? Map.of() : jdbc.read("read memories", c -> reads.getAll(c, asked));
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
    Set<MemoryId> seen = new HashSet<>();
    for (ForgetRecord audit : records) {
      if (!seen.add(audit.id())) {
        throw new IllegalArgumentException("two audit records name " + audit.id().value());
      }
      MemoryRecordJson.requireWellFormed(
          audit.actor() + audit.reason(), "forget record of " + audit.id());
    }
    if (records.isEmpty()) {
      return 0;
    }
    return jdbc.inTransaction(
        "forget " + records.size() + " memories", c -> writes.delete(c, records));
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
    List<String> terms = TextTerms.queryTerms(query);
    if (terms.isEmpty()) {
      return TextHits.none();
    }
    return jdbc.read(
        "search the text of scope " + scope.value(), c -> reads.searchText(c, scope, terms, k));
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
    return vectors.search(scope, query.normalized(), k);
  }

  @Override
  public List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(concepts, "concepts");
    Objects.requireNonNull(files, "files");
    checkK(k);
    checkOpen();
    List<String> conceptKeys = MemoryWrites.conceptKeys(concepts);
    List<String> fileKeys = MemoryWrites.fileKeys(files);
    if (conceptKeys.isEmpty() && fileKeys.isEmpty()) {
      return List.of();
    }
    return jdbc.read(
        "search related memories of scope " + scope.value(),
        c -> reads.searchRelated(c, scope, conceptKeys, fileKeys, k));
  }

  @Override
  public long count(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    checkOpen();
    return jdbc.read("count the memories of scope " + scope.value(), c -> reads.count(c, scope));
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

  /** Drops the vectors held in this JVM; the data source stays open (it is the host's). */
  @Override
  public void close() {
    closed = true;
    VectorIndex index = vectors;
    if (index != null) {
      index.clear();
    }
  }

  @Override
  public String toString() {
    return "PostgresMemoryStore[schema=" + schema.name() + "]";
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
   * Builds a {@link PostgresMemoryStore}: set the data source, optionally the schema and the cache
   * size, then {@link #build()}. Not thread-safe; each setter rejects an invalid value at once with
   * a message naming it, and null with {@link NullPointerException}.
   */
  public static final class Builder {
    /**
     * The default PostgreSQL schema, {@value}: a schema of the store's own keeps its tables apart
     * from the host's, and PostgreSQL 15 no longer lets every user create tables in {@code public}.
     */
    public static final String DEFAULT_SCHEMA = "memhook";

    /**
     * The default number of scopes whose vectors one instance keeps in memory, {@value}: a chat
     * service serves a bounded set of active tenants at a time; a scope evicted is loaded again on
     * its next vector search.
     */
    public static final int DEFAULT_MAX_CACHED_SCOPES = 256;

    private DataSource dataSource;
    private String schema = DEFAULT_SCHEMA;
    private int maxCachedScopes = DEFAULT_MAX_CACHED_SCOPES;

    private Builder() {}

    /** The host's data source (a pool), required; the store never closes it. */
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
     * How many scopes' vectors this instance keeps in memory at most. Default {@link
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
     * Connects, creates or migrates the schema, and returns the store, unattached. Holds nothing
     * when it throws.
     *
     * @throws IllegalStateException if no data source was set
     * @throws MemoryStoreException if the database cannot be reached or the schema cannot be
     *     created; the message names the data source's URL (without a password)
     * @throws IncompatibleStoreException if the schema was written by a newer Memhook
     */
    public PostgresMemoryStore build() {
      if (dataSource == null) {
        throw new IllegalStateException("dataSource(...) is required");
      }
      PostgresMemoryStore store = new PostgresMemoryStore(this);
      try (Connection c = dataSource.getConnection()) {
        store.schema.migrate(c);
      } catch (SQLException e) {
        throw DataSources.openFailure(dataSource, schema, e);
      }
      return store;
    }
  }
}
