package dev.memhook.benchmarks.eval;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.postgres.PostgresMemoryStore;
import dev.memhook.postgres.TextSearch;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * {@code --store postgres}: a {@link PostgresMemoryStore} in a fresh schema of the database named
 * by {@value #URL_VARIABLE} (a JDBC URL with the user), through a HikariCP pool as a host would,
 * dropped again when the store closes, so that the harness compares the PostgreSQL store's text
 * ranking (in its replicas, or in PostgreSQL) with the Lucene store's on the same data.
 *
 * <p>Thread-safe as the store is.
 */
final class PostgresEvalStore extends ForwardingMemoryStore {
  static final String URL_VARIABLE = "MEMHOOK_EVAL_POSTGRES_URL";

  private final HikariDataSource dataSource;
  private final String schema;

  private PostgresEvalStore(HikariDataSource dataSource, String schema, TextSearch textSearch) {
    super(
        PostgresMemoryStore.builder()
            .dataSource(dataSource)
            .schema(schema)
            .textSearch(textSearch)
            .build());
    this.dataSource = dataSource;
    this.schema = schema;
  }

  static MemoryStore open(TextSearch textSearch) {
    String url = System.getenv(URL_VARIABLE);
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException(
          "--store postgres needs "
              + URL_VARIABLE
              + ", a JDBC URL such as"
              + " jdbc:postgresql://127.0.0.1:5432/eval?user=me");
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(4);
    HikariDataSource dataSource = new HikariDataSource(config);
    String schema = "eval_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    return new PostgresEvalStore(dataSource, schema, textSearch);
  }

  @Override
  public void close() {
    super.close();
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
    } catch (SQLException e) {
      throw new MemoryStoreException("could not drop the eval schema " + schema, e);
    } finally {
      dataSource.close();
    }
  }
}
