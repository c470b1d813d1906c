package dev.memhook.postgres;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Everything a {@link PostgresMemoryStore.Builder} resolved, as one immutable value: each setting
 * validated by its setter, each default filled in. The store and its {@link Replication} read it;
 * the builder is its one maker, and holds the defaults and the validation, so this record keeps
 * only the nullness of its components.
 *
 * <p>Immutable and thread-safe (the data source and the listener are the host's, shared as they
 * are). Null components are rejected with {@link NullPointerException}.
 *
 * @param dataSource the host's data source; the store never closes it
 * @param schema the PostgreSQL schema of the store's tables, a valid unquoted identifier
 * @param maxCachedScopes how many scopes' replicas the instance holds at most
 * @param pollInterval how often the follower checks every held scope's position
 * @param feedRetention how long change feed rows are kept
 * @param textSearch where text and related searches run
 * @param statusListener told when the replicas stop or resume following PostgreSQL
 */
record PostgresStoreConfig(
    DataSource dataSource,
    String schema,
    int maxCachedScopes,
    Duration pollInterval,
    Duration feedRetention,
    TextSearch textSearch,
    Consumer<? super ReplicaStatus> statusListener) {

  PostgresStoreConfig {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(feedRetention, "feedRetention");
    Objects.requireNonNull(textSearch, "textSearch");
    Objects.requireNonNull(statusListener, "statusListener");
  }
}
