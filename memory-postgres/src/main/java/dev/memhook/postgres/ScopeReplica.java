package dev.memhook.postgres;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.lucene.LuceneMemoryStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scope's latest memories, copied from PostgreSQL into a {@link LuceneMemoryStore} in memory,
 * and the feed position they reflect: text, vector and related searches of the scope run here, with
 * the Lucene store's own ranking.
 *
 * <h2>Design note</h2>
 *
 * {@link #load} copies the scope in one snapshot and records its position; {@link #catchUp} reads,
 * in one snapshot, what the {@link ChangeFeed} says changed after it and those ids' current rows,
 * and makes the copy agree: an id whose row is latest in this scope is stored (replacing what the
 * copy held), any other is removed. Applying one delta twice changes nothing, so a catch-up that
 * fails half-way (the copy partly updated, the position not moved) is simply repeated. The copy is
 * a {@linkplain LuceneMemoryStore.Builder#mirror mirror}: a removal only marks the document deleted
 * and keeps no forget record (PostgreSQL erases and keeps the audit trail); Lucene's merges reclaim
 * the space. When the feed cannot say what changed, the scope is loaded again.
 *
 * <p>Why a copy per scope rather than one for every held scope: a move of a memory between two
 * scopes would make two catch-ups with snapshots taken in one order write one document in the other
 * order, and keeping them apart costs either a lock over every catch-up of the instance or a
 * version per row; and a scope's BM25 statistics then come from its own memories only, so one
 * tenant's words never weigh another's scores. The price is ranking on thinner statistics in small
 * scopes ({@code benchmarks/RESULTS.md}, section 13).
 *
 * <p>Thread-safe. Catch-ups and loads of one replica run one at a time (its monitor); searches run
 * alongside them, under the read side of a lock whose write side swaps in a reloaded copy and
 * closes the old one, so a search never meets a closed copy. After {@link #close()} a search throws
 * {@link Closed}, and the caller loads the scope again.
 */
final class ScopeReplica implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScopeReplica.class);

  /** Thrown by a search on a closed replica: load the scope again. */
  static final class Closed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Closed() {
      super("the replica was evicted", null, false, false);
    }
  }

  private final Scope scope;
  private final EmbeddingSpace space;
  private final ChangeFeed feed;
  private final ReplicaRows rows;
  private final RecordCodec codec;
  private final ReadWriteLock swap = new ReentrantReadWriteLock();

  private LuceneMemoryStore copy; // guarded by swap
  private boolean closed; // guarded by swap
  private long position; // guarded by this

  private ScopeReplica(
      Scope scope, EmbeddingSpace space, ChangeFeed feed, ReplicaRows rows, RecordCodec codec) {
    this.scope = scope;
    this.space = space;
    this.feed = feed;
    this.rows = rows;
    this.codec = codec;
  }

  /** The replica of {@code scope}, loaded on {@code c}. */
  static ScopeReplica load(
      Connection c,
      Scope scope,
      EmbeddingSpace space,
      ChangeFeed feed,
      ReplicaRows rows,
      RecordCodec codec)
      throws SQLException {
    ScopeReplica replica = new ScopeReplica(scope, space, feed, rows, codec);
    synchronized (replica) {
      replica.reload(c);
    }
    return replica;
  }

  Scope scope() {
    return scope;
  }

  /** The feed position the copy reflects. */
  synchronized long position() {
    return position;
  }

  /**
   * Makes the copy reflect every change of the scope committed before the call, on {@code c}.
   *
   * @return how many ids the catch-up stored or removed (a reload counts the memories loaded)
   */
  synchronized int catchUp(Connection c) throws SQLException {
    long from = position;
    DeltaRows read =
        Jdbc.inSnapshot(
            c,
            cc -> {
              ChangeFeed.Delta d = feed.since(cc, scope.value(), from);
              return new DeltaRows(
                  d, d.complete() ? rows.current(cc, d.ids()) : Map.<String, ReplicaRows.Row>of());
            });
    if (!read.delta().complete()) {
      return reload(c);
    }
    int applied = read.delta().ids().isEmpty() ? 0 : apply(read.delta().ids(), read.rows());
    position = read.delta().changed();
    return applied;
  }

  /** A search of the copy. @throws Closed if the replica was closed */
  <T> T withCopy(Function<MemoryStore, T> search) {
    swap.readLock().lock();
    try {
      if (closed) {
        throw new Closed();
      }
      return search.apply(copy);
    } finally {
      swap.readLock().unlock();
    }
  }

  /** Drops the copy; later searches throw {@link Closed}. Idempotent. */
  @Override
  public void close() {
    swap.writeLock().lock();
    try {
      if (!closed) {
        closed = true;
        if (copy != null) {
          copy.close();
        }
      }
    } finally {
      swap.writeLock().unlock();
    }
  }

  private int apply(List<String> ids, Map<String, ReplicaRows.Row> current) {
    Map<Memory, Embedding> stored = new LinkedHashMap<>();
    List<ForgetRecord> removed = new ArrayList<>();
    Instant now = Instant.now();
    for (String id : ids) {
      ReplicaRows.Row row = current.get(id);
      Entry entry =
          row != null && row.latest() && row.scope().equals(scope.value()) ? decode(row) : null;
      if (entry != null) {
        stored.put(entry.memory(), entry.embedding());
      } else {
        removed.add(
            new ForgetRecord(
                MemoryId.of(id), scope, "memhook-replica", "changed in PostgreSQL", now));
      }
    }
    withCopy(
        s -> {
          putAll(s, stored);
          if (!removed.isEmpty()) {
            s.deleteAll(removed);
          }
          return null;
        });
    return stored.size() + removed.size();
  }

  /** Replaces the copy with a fresh one of the scope's rows, and the position with theirs. */
  private int reload(Connection c) throws SQLException {
    LuceneMemoryStore fresh =
        LuceneMemoryStore.builder()
            .inMemory()
            .idleMerge(Duration.ZERO)
            .cacheSize(0)
            .mirror()
            .build();
    int[] loaded = new int[1];
    long at;
    try {
      fresh.attach(space);
      at =
          Jdbc.inSnapshot(
              c,
              cc -> {
                long p = feed.positions(cc, Set.of(scope.value())).getOrDefault(scope.value(), 0L);
                rows.latestOf(
                    cc,
                    scope.value(),
                    batch -> {
                      Map<Memory, Embedding> decoded = new LinkedHashMap<>();
                      for (ReplicaRows.Row row : batch) {
                        Entry e = decode(row);
                        if (e != null) {
                          decoded.put(e.memory(), e.embedding());
                        }
                      }
                      putAll(fresh, decoded);
                      loaded[0] += decoded.size();
                    });
                return p;
              });
    } catch (SQLException | RuntimeException | Error e) {
      fresh.close();
      throw e;
    }
    LuceneMemoryStore old;
    swap.writeLock().lock();
    try {
      old = copy;
      copy = fresh;
      if (closed) {
        fresh.close(); // closed while loading: keep nothing
      }
    } finally {
      swap.writeLock().unlock();
    }
    if (old != null) {
      old.close();
    }
    position = at;
    return loaded[0];
  }

  /** Stores {@code batch}; a memory the copy refuses is logged and skipped, not the batch. */
  private void putAll(MemoryStore target, Map<Memory, Embedding> batch) {
    if (batch.isEmpty()) {
      return;
    }
    try {
      target.putAll(batch);
    } catch (IllegalArgumentException refusedOne) {
      for (Map.Entry<Memory, Embedding> e : batch.entrySet()) {
        try {
          target.put(e.getKey(), e.getValue());
        } catch (IllegalArgumentException refused) {
          LOG.warn(
              "memory {} of scope {} is not searchable on this instance: {}",
              e.getKey().id().value(),
              scope.value(),
              refused.getMessage());
        }
      }
    }
  }

  private record Entry(Memory memory, Embedding embedding) {}

  private record DeltaRows(ChangeFeed.Delta delta, Map<String, ReplicaRows.Row> rows) {}

  /** The row's memory and vector, or null (logged) if the row cannot be read. */
  private Entry decode(ReplicaRows.Row row) {
    try {
      return new Entry(
          codec.readMemory(row.record(), true),
          VectorBytes.decode(row.vector(), space.dimension()));
    } catch (RuntimeException e) {
      LOG.warn(
          "memory {} of scope {} is unreadable and not searchable on this instance: {}",
          row.id(),
          scope.value(),
          e.getMessage());
      return null;
    }
  }
}
