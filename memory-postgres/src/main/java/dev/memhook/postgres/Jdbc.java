package dev.memhook.postgres;

import dev.memhook.api.MemoryStoreException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Borrows a connection from the host's {@link DataSource} for one unit of work and gives it back,
 * committing or rolling back, and turns a {@link SQLException} into a {@link MemoryStoreException}
 * that says what to do. A caller's mistake found inside a transaction (an {@link
 * IllegalArgumentException}) rolls it back and is thrown as it is.
 *
 * <p>Thread-safe: each unit of work has its own connection.
 */
final class Jdbc {
  /** One unit of work on a connection. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  private final DataSource dataSource;

  Jdbc(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Runs {@code work} on a connection in auto-commit mode: one statement, one snapshot each. */
  <T> T read(String what, Work<T> work) {
    try (Connection c = dataSource.getConnection()) {
      if (!c.getAutoCommit()) {
        c.setAutoCommit(true);
      }
      return work.run(c);
    } catch (SQLException e) {
      throw failure(what, e);
    }
  }

  /** Runs {@code work} in one READ COMMITTED transaction: all of it is committed, or none. */
  <T> T inTransaction(String what, Work<T> work) {
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        T result = work.run(c);
        c.commit();
        return result;
      } catch (SQLException | RuntimeException | Error e) {
        rollbackQuietly(c, e);
        throw e;
      } finally {
        restore(c, autoCommit);
      }
    } catch (SQLException e) {
      throw failure(what, e);
    }
  }

  private static void rollbackQuietly(Connection c, Throwable cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  private static void restore(Connection c, boolean autoCommit) throws SQLException {
    if (!c.isClosed()) {
      c.setAutoCommit(autoCommit);
    }
  }

  /**
   * The store exception for {@code e}. Connection failures (SQLSTATE class 08), serialization
   * failures and deadlocks (40) and an exhausted server (53, 57) are worth retrying; the message
   * says so, and names the SQLSTATE so an operator can look it up.
   */
  static MemoryStoreException failure(String what, SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    boolean transientFailure =
        state.startsWith("08")
            || state.startsWith("40")
            || state.startsWith("53")
            || state.startsWith("57");
    return new MemoryStoreException(
        "PostgreSQL failed to "
            + what
            + " (SQLSTATE "
            + (state.isEmpty() ? "unknown" : state)
            + "): "
            + e.getMessage()
            + (transientFailure
                ? "; nothing was half-written: retry"
                : "; nothing was half-written: check the database and the store's schema"),
        e);
  }
}
