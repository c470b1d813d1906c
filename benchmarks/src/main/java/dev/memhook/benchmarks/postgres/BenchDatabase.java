package dev.memhook.benchmarks.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * The PostgreSQL database {@link SharedPostgresBench} runs against: the JDBC URL (with the user)
 * from {@code --url} or {@value #URL_VARIABLE}, HikariCP pools as hosts would open them (one per
 * store instance, as each JVM has its own), and fresh schemas named after one random run prefix,
 * all dropped by {@link #close()}.
 *
 * <p>A schema records one embedding space, so each part of the run that embeds differently gets a
 * schema of its own. Not thread-safe: the harness's main thread opens pools and schemas.
 */
final class BenchDatabase implements AutoCloseable {
  static final String URL_VARIABLE = "MEMHOOK_BENCH_POSTGRES_URL";

  private final String url;
  private final String prefix;
  private final HikariDataSource admin;
  private final List<HikariDataSource> pools = new ArrayList<>();
  private final List<String> schemas = new ArrayList<>();

  private BenchDatabase(String url) {
    this.url = url;
    this.prefix = "bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    this.admin = newPool(url, prefix + "-admin", 1);
  }

  /**
   * Connects to {@code url}, or to the URL in {@value #URL_VARIABLE} when it is null.
   *
   * @throws IllegalArgumentException if neither names a database
   * @throws IllegalStateException if the database cannot be reached
   */
  static BenchDatabase open(String url) {
    String chosen = url != null ? url : System.getenv(URL_VARIABLE);
    if (chosen == null || chosen.isBlank()) {
      throw new IllegalArgumentException(
          "SharedPostgresBench needs a PostgreSQL database: pass --url JDBC_URL or set "
              + URL_VARIABLE
              + ", a JDBC URL with the user, such as"
              + " jdbc:postgresql://127.0.0.1:5432/bench?user=me (the user must be allowed to"
              + " create schemas; the run creates its own and drops them at the end)");
    }
    try {
      return new BenchDatabase(chosen);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "cannot connect to the database in "
              + (url != null ? "--url" : URL_VARIABLE)
              + ": "
              + e.getMessage()
              + "; check that it is running and the URL names the user",
          e);
    }
  }

  /** A new pool of {@code size} connections, as one store instance (one JVM) would have. */
  HikariDataSource pool(String name, int size) {
    HikariDataSource pool = newPool(url, prefix + "-" + name, size);
    pools.add(pool);
    return pool;
  }

  /** A fresh schema name for {@code part}, dropped by {@link #close()}. */
  String newSchema(String part) {
    String name = prefix + "_" + part;
    schemas.add(name);
    return name;
  }

  /** The server's version and the settings that decide what a commit's durability is. */
  String describeServer() {
    return "PostgreSQL "
        + setting("server_version")
        + ", fsync="
        + setting("fsync")
        + ", synchronous_commit="
        + setting("synchronous_commit");
  }

  private String setting(String name) {
    try (Connection c = admin.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW " + name)) {
      rs.next();
      return rs.getString(1);
    } catch (SQLException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  /**
   * Closes the stores' pools, then drops every schema this run named; a failed drop is reported on
   * stderr with the statement to run by hand, and the rest are still dropped.
   */
  @Override
  public void close() {
    pools.forEach(HikariDataSource::close);
    try (Connection c = admin.getConnection();
        Statement s = c.createStatement()) {
      for (String schema : schemas) {
        String drop = "DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE";
        try {
          s.execute(drop);
        } catch (SQLException e) {
          System.err.println(
              "could not drop a bench schema (" + e.getMessage() + "); run: " + drop);
        }
      }
    } catch (SQLException e) {
      System.err.printf(
          Locale.ROOT,
          "could not connect to drop the bench schemas %s (%s); drop them by hand%n",
          schemas,
          e.getMessage());
    } finally {
      admin.close();
    }
  }

  private static HikariDataSource newPool(String url, String name, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(size);
    config.setPoolName(name);
    config.addDataSourceProperty("ApplicationName", name);
    return new HikariDataSource(config);
  }
}
