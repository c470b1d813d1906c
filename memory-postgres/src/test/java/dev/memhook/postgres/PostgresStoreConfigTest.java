package dev.memhook.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * What {@link PostgresMemoryStore.Builder} resolves into a {@link PostgresStoreConfig}; no server
 * needed, and none is asked: the data source records every call made on it.
 */
class PostgresStoreConfigTest {

  /** The names of the methods called on {@link #dataSource}. */
  private final List<String> calls = new ArrayList<>();

  private final DataSource dataSource =
      (DataSource)
          Proxy.newProxyInstance(
              DataSource.class.getClassLoader(),
              new Class<?>[] {DataSource.class},
              (proxy, method, args) -> {
                calls.add(method.getName());
                throw new UnsupportedOperationException(method.getName());
              });

  @Test
  void config_ofABuilderGivenOnlyADataSource_holdsEachStatedDefault() {
    PostgresStoreConfig c = PostgresMemoryStore.builder().dataSource(dataSource).config();

    assertSame(dataSource, c.dataSource());
    assertEquals(PostgresMemoryStore.Builder.DEFAULT_SCHEMA, c.schema());
    assertEquals(PostgresMemoryStore.Builder.DEFAULT_MAX_CACHED_SCOPES, c.maxCachedScopes());
    assertEquals(PostgresMemoryStore.Builder.DEFAULT_POLL_INTERVAL, c.pollInterval());
    assertEquals(PostgresMemoryStore.Builder.DEFAULT_FEED_RETENTION, c.feedRetention());
    assertEquals(TextSearch.REPLICA, c.textSearch());
    assertEquals(List.of(), calls);
  }

  @Test
  void config_holdsEachSettingAsSet_andIsNotChangedByTheBuilderAfterwards() {
    Consumer<ReplicaStatus> listener = status -> {};
    PostgresMemoryStore.Builder b =
        PostgresMemoryStore.builder()
            .dataSource(dataSource)
            .schema("tenant_7")
            .maxCachedScopes(3)
            .pollInterval(Duration.ofMillis(10))
            .feedRetention(Duration.ofDays(30))
            .textSearch(TextSearch.DATABASE)
            .statusListener(listener);
    PostgresStoreConfig c = b.config();
    b.schema("other").maxCachedScopes(9).textSearch(TextSearch.REPLICA);

    assertEquals(
        new PostgresStoreConfig(
            dataSource,
            "tenant_7",
            3,
            Duration.ofMillis(10),
            Duration.ofDays(30),
            TextSearch.DATABASE,
            listener),
        c);
    assertEquals(List.of(), calls);
  }

  @Test
  void config_withoutADataSource_isAnIllegalState() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> PostgresMemoryStore.builder().config());
    assertEquals("dataSource(...) is required", e.getMessage());
  }

  @Test
  void build_asksTheDataSourceForAConnection_onlyThen() {
    PostgresMemoryStore.Builder b = PostgresMemoryStore.builder().dataSource(dataSource);
    b.schema("s").maxCachedScopes(2).config();
    assertEquals(List.of(), calls);

    assertThrows(UnsupportedOperationException.class, b::build);
    assertEquals(List.of("getConnection"), calls);
  }
}
