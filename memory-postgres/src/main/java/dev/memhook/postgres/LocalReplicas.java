package dev.memhook.postgres;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's {@link ScopeReplica}s: at most a bounded number of scopes, each loaded on its
 * first search, evicted least recently used first (Caffeine), and kept current by catch-ups.
 *
 * <h2>Design note</h2>
 *
 * A scope is loaded by the first search that needs it, on that search's thread; searches of the
 * same scope meanwhile wait for that load rather than start their own. A loaded replica is caught
 * up once more right after it is published, so a change committed between its load's snapshot and
 * its arrival in the cache (whose notification found nothing to catch up) is not missed until the
 * next poll. Catch-ups come from three places: the writing thread after each write (so a write is
 * searchable on its own instance when it returns), the feed follower on a notification, and the
 * follower's periodic check of every held scope's position (the bound when a notification is lost).
 *
 * <p>Thread-safe.
 */
final class LocalReplicas implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalReplicas.class);

  private final Jdbc jdbc;
  private final EmbeddingSpace space;
  private final ChangeFeed feed;
  private final ReplicaRows rows;
  private final RecordCodec codec;
  private final FeedHealth health;
  private final Cache<String, ScopeReplica> held;
  private final Map<String, CompletableFuture<ScopeReplica>> loading = new ConcurrentHashMap<>();
  private volatile boolean closed;

  LocalReplicas(
      Jdbc jdbc,
      EmbeddingSpace space,
      ChangeFeed feed,
      ReplicaRows rows,
      RecordCodec codec,
      FeedHealth health,
      long maxScopes) {
    this.jdbc = jdbc;
    this.space = space;
    this.feed = feed;
    this.rows = rows;
    this.codec = codec;
    this.health = health;
    this.held =
        Caffeine.newBuilder()
            .maximumSize(maxScopes)
            .executor(Runnable::run) // close an evicted replica at once, not on a shared pool
            .<String, ScopeReplica>removalListener((scope, replica, cause) -> replica.close())
            .build();
  }

  /**
   * {@code search} run on the replica of {@code scope}, loaded first if this instance does not hold
   * it.
   *
   * @throws MemoryStoreException if the scope had to be loaded and PostgreSQL failed
   */
  <T> T search(Scope scope, Function<MemoryStore, T> search) {
    for (int attempt = 1; ; attempt++) {
      try {
        return warm(scope).withCopy(search);
      } catch (ScopeReplica.Closed evicted) {
        if (attempt == 3) {
          throw new MemoryStoreException(
              "scope "
                  + scope.value()
                  + " was evicted from this instance's replicas three times"
                  + " during one search: raise maxCachedScopes",
              evicted,
              true);
        }
      }
    }
  }

  /**
   * Those of {@code ids} the held replicas have, for reads while PostgreSQL is unreachable: the
   * latest memories of held scopes as of the last catch-up.
   */
  Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    Map<MemoryId, Memory> found = new LinkedHashMap<>();
    List<MemoryId> asked = List.copyOf(ids);
    for (ScopeReplica replica : held.asMap().values()) {
      try {
        found.putAll(replica.withCopy(s -> s.getAll(asked)));
      } catch (ScopeReplica.Closed evicted) {
        // evicted meanwhile: it has nothing to give
      }
    }
    Map<MemoryId, Memory> ordered = new LinkedHashMap<>();
    for (MemoryId id : asked) {
      Memory m = found.get(id);
      if (m != null) {
        ordered.put(id, m);
      }
    }
    return ordered;
  }

  /**
   * Catches up those of {@code scopes} this instance holds, on connections of the pool; after a
   * write. A failure is logged and marks PostgreSQL unreachable when it is one; the follower
   * catches up later.
   */
  void catchUpAfterWrite(Collection<String> scopes) {
    for (String scope : scopes) {
      ScopeReplica replica = held.getIfPresent(scope);
      if (replica == null) {
        continue;
      }
      try {
        jdbc.read("catch up scope " + scope, replica::catchUp);
      } catch (ScopeReplica.Closed evicted) {
        // nothing to keep current
      } catch (MemoryStoreException e) {
        health.noteIfUnreachable(e);
        LOG.warn(
            "scope {} was written but not caught up on this instance (the follower will): {}",
            scope,
            e.getMessage());
      }
    }
  }

  /** Catches up those of {@code scopes} this instance holds, on {@code c}. */
  void catchUp(Collection<String> scopes, Connection c) throws SQLException {
    for (String scope : scopes) {
      ScopeReplica replica = held.getIfPresent(scope);
      if (replica != null) {
        catchUp(replica, c);
      }
    }
  }

  /**
   * Catches up every held scope whose position in PostgreSQL is not the replica's, on {@code c}.
   *
   * @return false if no scope is held (then nothing was asked of {@code c})
   */
  boolean catchUpAll(Connection c) throws SQLException {
    Map<String, ScopeReplica> now = Map.copyOf(held.asMap());
    if (now.isEmpty()) {
      return false;
    }
    Map<String, Long> positions = feed.positions(c, now.keySet());
    for (Map.Entry<String, ScopeReplica> e : now.entrySet()) {
      if (positions.getOrDefault(e.getKey(), 0L) != e.getValue().position()) {
        catchUp(e.getValue(), c);
      }
    }
    return true;
  }

  /** How many scopes this instance holds. */
  long size() {
    held.cleanUp();
    return held.estimatedSize();
  }

  /** Drops every replica. */
  @Override
  public void close() {
    closed = true;
    held.invalidateAll();
    held.cleanUp();
  }

  private static void catchUp(ScopeReplica replica, Connection c) throws SQLException {
    try {
      replica.catchUp(c);
    } catch (ScopeReplica.Closed evicted) {
      // evicted meanwhile: nothing to keep current
    }
  }

  private ScopeReplica warm(Scope scope) {
    ScopeReplica replica = held.getIfPresent(scope.value());
    if (replica != null) {
      return replica;
    }
    ReplicaStatus status = health.status();
    if (!status.following()) {
      // fail at once rather than wait for the pool's connection timeout on every such search
      throw new MemoryStoreException(
          "scope "
              + scope.value()
              + " is not held by this instance's replicas and PostgreSQL has been unreachable since "
              + status.since()
              + " ("
              + status.detail()
              + "); retry once it is back",
          null,
          true);
    }
    CompletableFuture<ScopeReplica> mine = new CompletableFuture<>();
    CompletableFuture<ScopeReplica> theirs = loading.putIfAbsent(scope.value(), mine);
    if (theirs != null) {
      try {
        return theirs.join();
      } catch (CompletionException e) {
        throw e.getCause() instanceof RuntimeException r ? r : e;
      }
    }
    try {
      replica = held.getIfPresent(scope.value()); // loaded by another search just before
      if (replica == null) {
        replica = load(scope);
        held.put(scope.value(), replica);
        if (closed) { // closed while loading: keep nothing
          held.invalidateAll();
          throw new IllegalStateException("the store is closed");
        }
        catchUpAfterWrite(List.of(scope.value()));
      }
      mine.complete(replica);
      return replica;
    } catch (RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      loading.remove(scope.value(), mine);
    }
  }

  private ScopeReplica load(Scope scope) {
    try {
      return jdbc.read(
          "load scope " + scope.value() + " into this instance's replica",
          c -> ScopeReplica.load(c, scope, space, feed, rows, codec));
    } catch (MemoryStoreException e) {
      health.noteIfUnreachable(e);
      throw e;
    }
  }
}
