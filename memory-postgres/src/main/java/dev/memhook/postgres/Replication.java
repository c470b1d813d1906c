package dev.memhook.postgres;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What an attached {@link PostgresMemoryStore} runs beside PostgreSQL: its {@link LocalReplicas},
 * the {@link FeedFollower} that keeps them current, and the rule for reads while PostgreSQL is
 * away. Made when the store is attached (the replicas need the embedding space), closed with it.
 *
 * <p>Thread-safe.
 */
final class Replication implements AutoCloseable {
  private final LocalReplicas replicas;
  private final FeedFollower follower;
  private final FeedHealth health;

  private Replication(LocalReplicas replicas, FeedFollower follower, FeedHealth health) {
    this.replicas = replicas;
    this.follower = follower;
    this.health = health;
  }

  /**
   * Replicas of vectors in {@code space}, empty, and their follower, started, as {@code config}
   * sets them (its data source, cached scopes, poll interval and feed retention).
   */
  static Replication start(
      PostgresStoreConfig config,
      Jdbc jdbc,
      Schema schema,
      ChangeFeed feed,
      RecordCodec codec,
      FeedHealth health,
      EmbeddingSpace space) {
    LocalReplicas replicas =
        new LocalReplicas(
            jdbc, space, feed, new ReplicaRows(schema), codec, health, config.maxCachedScopes());
    FeedFollower follower =
        new FeedFollower(
            config.dataSource(),
            schema,
            feed,
            replicas,
            health,
            config.pollInterval(),
            config.feedRetention());
    follower.start();
    return new Replication(replicas, follower, health);
  }

  /** {@code search} on the replica of {@code scope}; see {@link LocalReplicas#search}. */
  <T> T search(Scope scope, Function<MemoryStore, T> search) {
    return replicas.search(scope, search);
  }

  /** Catches this instance's replicas of the scopes a committed write changed up. */
  void afterWrite(ChangeFeed.Changes changes) {
    replicas.catchUpAfterWrite(changes.scopes());
  }

  /**
   * The memories of {@code ids}: {@code fromDatabase}, or, when PostgreSQL is unreachable (known
   * already, or found by this read), those the held replicas have, as of their last catch-up.
   */
  Map<MemoryId, Memory> readAll(List<MemoryId> ids, Supplier<Map<MemoryId, Memory>> fromDatabase) {
    if (health.reachable()) {
      try {
        return fromDatabase.get();
      } catch (MemoryStoreException e) {
        if (!health.noteIfUnreachable(e)) {
          throw e;
        }
      }
    }
    return replicas.getAll(ids);
  }

  /**
   * The best passage cosines of some ids: {@code fromDatabase}, or, when PostgreSQL is unreachable
   * (known already, or found by this read), none. The replicas keep no passages (no search of
   * theirs reads them, and they would multiply each replica's heap), so recall then ranks by the
   * memories' whole vectors, as over a store without passages, while its searches go on from the
   * replicas; {@link FeedHealth} has logged the loss and told the listener.
   */
  Map<MemoryId, Double> passageCosines(Supplier<Map<MemoryId, Double>> fromDatabase) {
    if (health.reachable()) {
      try {
        return fromDatabase.get();
      } catch (MemoryStoreException e) {
        if (!health.noteIfUnreachable(e)) {
          throw e;
        }
      }
    }
    return Map.of();
  }

  /** Stops the follower, then drops the replicas. */
  @Override
  public void close() {
    follower.close();
    replicas.close();
  }
}
