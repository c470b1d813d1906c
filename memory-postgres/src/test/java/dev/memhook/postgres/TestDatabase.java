package dev.memhook.postgres;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The PostgreSQL server the tests run against: the JDBC URL in {@value #URL_VARIABLE} ({@code
 * .ci/run} starts a throwaway server and sets it). Without it every test that needs the server is
 * skipped through a JUnit assumption whose message says how to run it, and the first such test
 * prints that message, so a run never passes silently without PostgreSQL.
 *
 * <p>Each test store gets a schema of its own, named at random, and {@link #dropSchemas()} drops
 * them. Thread-safe.
 */
final class TestDatabase {
  static final String URL_VARIABLE = "MEMHOOK_TEST_POSTGRES_URL";

  private static final String SKIPPED =
      "memory-postgres: "
          + URL_VARIABLE
          + " is not set, so the PostgreSQL tests are SKIPPED. Set it to a JDBC URL such as"
          + " jdbc:postgresql://127.0.0.1:5432/memhook_test?user=me&password=secret (a database"
          + " the tests may create schemas in), or run .ci/run, which starts a throwaway server.";

  private static final String URL = System.getenv(URL_VARIABLE);
  private static volatile boolean warned;
  private static HikariDataSource pool;
  private static final List<String> schemas = new CopyOnWriteArrayList<>();

  private TestDatabase() {}

  /** The shared pool; skips the calling test when no server is configured. */
  static synchronized HikariDataSource dataSource() {
    requireServer();
    if (pool == null) {
      pool = newPool(12);
    }
    return pool;
  }

  /**
   * A pool of its own, as a second JVM would have, whose connections carry the pool's name as their
   * PostgreSQL {@code application_name}; the caller closes it.
   */
  static HikariDataSource newPool(int size) {
    requireServer();
    return newPool(URL, size, 30_000);
  }

  /** The server's JDBC URL; skips the calling test when no server is configured. */
  static String url() {
    requireServer();
    return URL;
  }

  /**
   * A pool of its own to {@code url} (the server's, or a proxy's in front of it), which gives up
   * waiting for a connection after {@code timeoutMillis} (a short wait keeps a test of an
   * unreachable server quick).
   */
  static HikariDataSource newPool(String url, int size, long timeoutMillis) {
    HikariConfig config = new HikariConfig();
    config.setConnectionTimeout(timeoutMillis);
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(size);
    String name = "memhook-test-" + UUID.randomUUID().toString().substring(0, 8);
    config.setPoolName(name);
    config.addDataSourceProperty("ApplicationName", name);
    return new HikariDataSource(config);
  }

  /**
   * Ends every server connection whose {@code application_name} is {@code applicationName} (a
   * pool's, see {@link #newPool}), as a failover or an administrator would.
   *
   * @return how many were ended
   */
  static int terminateConnectionsOf(String applicationName) throws SQLException {
    try (Connection c = dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))"
                    + " FROM pg_stat_activity WHERE application_name = ?")) {
      ps.setString(1, applicationName);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  /** Skips the calling test, saying why, when no server is configured. */
  static synchronized void requireServer() {
    if (URL == null || URL.isBlank()) {
      if (!warned) {
        warned = true;
        System.err.println(SKIPPED);
      }
      assumeTrue(false, SKIPPED);
    }
  }

  /** A fresh schema name, dropped by {@link #dropSchemas()}. */
  static String newSchema() {
    String name = "t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    schemas.add(name);
    return name;
  }

  /** A store in a fresh schema of the shared pool, unattached. */
  static PostgresMemoryStore newStore() {
    return PostgresMemoryStore.builder().dataSource(dataSource()).schema(newSchema()).build();
  }

  /** Drops every schema {@link #newSchema()} named so far. */
  static void dropSchemas() throws SQLException {
    if (schemas.isEmpty()) {
      return;
    }
    try (Connection c = dataSource().getConnection();
        Statement s = c.createStatement()) {
      for (String name : schemas) {
        s.execute("DROP SCHEMA IF EXISTS \"" + name + "\" CASCADE");
        schemas.remove(name);
      }
    }
  }
}
