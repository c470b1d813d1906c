package dev.memhook.postgres;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * What a {@link PostgresMemoryStore.Builder} collects: every setting with its default and its
 * validation. Only the builder extends it, adding {@code build()}; users see these constants and
 * setters as the builder's own, while the store's file keeps to the store.
 *
 * <p>Not thread-safe: a builder. Each setter rejects an invalid value at once with a message naming
 * it, and null with {@link NullPointerException}; a rejected value sets nothing.
 */
abstract sealed class StoreOptions permits PostgresMemoryStore.Builder {
  /**
   * The default PostgreSQL schema, {@value}: a schema of the store's own keeps its tables apart
   * from the host's, and PostgreSQL 15 no longer lets every user create tables in {@code public}.
   */
  public static final String DEFAULT_SCHEMA = "memhook";

  /**
   * The default number of scopes whose replicas one instance holds, {@value}: a chat service serves
   * a bounded set of active tenants at a time; a scope evicted is loaded again on its next search.
   */
  public static final int DEFAULT_MAX_CACHED_SCOPES = 256;

  /**
   * The default poll interval: how often the follower checks every held scope's position even
   * without a notification. It bounds how late a change made through another instance is seen when
   * its notification is lost (or never sent, behind a pooler that drops {@code LISTEN}).
   */
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

  /**
   * The default feed retention: a replica disconnected for longer reloads each scope it holds
   * instead of catching up.
   */
  public static final Duration DEFAULT_FEED_RETENTION = Duration.ofHours(1);

  DataSource dataSource;
  String schema = DEFAULT_SCHEMA;
  int maxCachedScopes = DEFAULT_MAX_CACHED_SCOPES;
  Duration pollInterval = DEFAULT_POLL_INTERVAL;
  Duration feedRetention = DEFAULT_FEED_RETENTION;
  TextSearch textSearch = TextSearch.REPLICA;
  Consumer<? super ReplicaStatus> statusListener = status -> {};

  StoreOptions() {}

  /**
   * The host's data source (a pool such as HikariCP), required; the store never closes it. Once
   * attached, the store holds one of its connections for the change feed, so give the pool at least
   * two.
   */
  public PostgresMemoryStore.Builder dataSource(DataSource value) {
    this.dataSource = Objects.requireNonNull(value, "dataSource");
    return self();
  }

  /**
   * The PostgreSQL schema the store keeps its tables in, created if missing: an unquoted lower-case
   * identifier ({@code [a-z_][a-z0-9_]*}, at most 63 characters). Default {@link #DEFAULT_SCHEMA}.
   *
   * @throws IllegalArgumentException if {@code value} is not such an identifier
   */
  public PostgresMemoryStore.Builder schema(String value) {
    Objects.requireNonNull(value, "schema");
    if (!Schema.VALID_NAME.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "schema must match " + Schema.VALID_NAME.pattern() + ", got '" + value + "'");
    }
    this.schema = value;
    return self();
  }

  /**
   * How many scopes' replicas this instance holds at most. Default {@link
   * #DEFAULT_MAX_CACHED_SCOPES}.
   *
   * @throws IllegalArgumentException if {@code value} is less than 1
   */
  public PostgresMemoryStore.Builder maxCachedScopes(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("maxCachedScopes must be at least 1, got " + value);
    }
    this.maxCachedScopes = value;
    return self();
  }

  /**
   * How often every held scope's position is checked without a notification, from 10 ms to 10
   * minutes. Default {@link #DEFAULT_POLL_INTERVAL}.
   *
   * @throws IllegalArgumentException if out of range
   */
  public PostgresMemoryStore.Builder pollInterval(Duration value) {
    this.pollInterval =
        inRange("pollInterval", value, Duration.ofMillis(10), Duration.ofMinutes(10));
    return self();
  }

  /**
   * How long change feed rows are kept, from 1 minute to 30 days. Default {@link
   * #DEFAULT_FEED_RETENTION}.
   *
   * @throws IllegalArgumentException if out of range
   */
  public PostgresMemoryStore.Builder feedRetention(Duration value) {
    this.feedRetention =
        inRange("feedRetention", value, Duration.ofMinutes(1), Duration.ofDays(30));
    return self();
  }

  /** Where text and related searches run. Default {@link TextSearch#REPLICA}. */
  public PostgresMemoryStore.Builder textSearch(TextSearch value) {
    this.textSearch = Objects.requireNonNull(value, "textSearch");
    return self();
  }

  /**
   * Told each time the replicas stop or resume following PostgreSQL, on the thread that noticed
   * (the feed's, or a caller's); it must return quickly and may throw (logged, ignored). Default:
   * none.
   */
  public PostgresMemoryStore.Builder statusListener(Consumer<? super ReplicaStatus> value) {
    this.statusListener = Objects.requireNonNull(value, "statusListener");
    return self();
  }

  private static Duration inRange(String name, Duration value, Duration min, Duration max) {
    Objects.requireNonNull(value, name);
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          name + " must be between " + min + " and " + max + ", got " + value);
    }
    return value;
  }

  private PostgresMemoryStore.Builder self() {
    return (PostgresMemoryStore.Builder) this;
  }
}
