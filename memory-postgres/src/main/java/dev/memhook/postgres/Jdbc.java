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
      return transaction(c, work);
    } catch (SQLException e) {
      throw failure(what, e);
    }
  }

  /**
   * Runs {@code work} in one read-only REPEATABLE READ transaction on {@code c}, which must be in
   * auto-commit mode: every statement sees one snapshot of the database.
   */
  static <T> T inSnapshot(Connection c, Work<T> work) throws SQLException {
    int isolation = c.getTransactionIsolation();
    boolean readOnly = c.isReadOnly();
    if (!c.getAutoCommit()) { // the isolation level can only change between transactions
      throw new IllegalStateException("a snapshot needs a connection in auto-commit mode");
    }
    c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    c.setReadOnly(true);
    try {
      return transaction(c, work);
    } finally {
      if (!c.isClosed()) {
        c.setReadOnly(readOnly);
        c.setTransactionIsolation(isolation);
      }
    }
  }

  /** Runs {@code work} in one transaction on {@code c}, then restores its auto-commit mode. */
  private static <T> T transaction(Connection c, Work<T> work) throws SQLException {
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
    boolean transientFailure = isTransient(e);
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
        e,
        transientFailure);
  }

  /**
   * Whether {@code e} is worth retrying: a connection failure (SQLSTATE class 08, and a pool that
   * gave up waiting for one, which reports no state or 08), a serialization failure or deadlock
   * (40), an exhausted or shutting-down server (53, 57).
   */
  static boolean isTransient(SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    return state.isEmpty() && e instanceof java.sql.SQLTransientConnectionException
        || state.startsWith("08")
        || state.startsWith("40")
        || state.startsWith("53")
        || state.startsWith("57");
  }

  /** Whether {@code e} says the database could not be reached (rather than refused a statement). */
  static boolean isConnectionFailure(SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    return state.startsWith("08")
        || state.startsWith("57P")
        || e instanceof java.sql.SQLTransientConnectionException;
  }
}
