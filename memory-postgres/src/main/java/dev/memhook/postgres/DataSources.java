package dev.memhook.postgres;

import dev.memhook.api.MemoryStoreException;
import java.lang.reflect.Method;
import java.sql.SQLException;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Names a data source in an error message: by the JDBC URL it exposes as a public {@code
 * getJdbcUrl()} (HikariCP) or {@code getUrl()} (the PostgreSQL driver's data sources), with any
 * password taken out, or by its class when it exposes none. JDBC has no standard way to ask a
 * {@link DataSource} where it connects to.
 *
 * <p>Stateless and thread-safe.
 */
final class DataSources {
  /** A password in a URL's query ({@code password=...}) or user information ({@code user:pw@}). */
  private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)(password=)[^&;]*");

  private static final Pattern USER_INFO_PASSWORD = Pattern.compile("(//[^/:@]*):[^/@]*@");

  private DataSources() {}

  static String describe(DataSource dataSource) {
    for (String getter : new String[] {"getJdbcUrl", "getUrl"}) {
      try {
        Method m = dataSource.getClass().getMethod(getter);
        Object url = m.invoke(dataSource);
        if (url instanceof String s && !s.isEmpty()) {
          return withoutPassword(s);
        }
      } catch (ReflectiveOperationException | RuntimeException e) {
        // not this getter: try the next, then fall back to the class name
      }
    }
    return "a " + dataSource.getClass().getName() + " that does not expose its URL";
  }

  /**
   * The exception of a store that could not open: it names where (never with a password), what the
   * server said and its SQLSTATE, and what to check, and is {@linkplain
   * MemoryStoreException#retriable() retriable} when the server could not be reached. A pool that
   * gave up waiting for a connection (HikariCP) says only that; the driver's failure it wraps, such
   * as an unknown user or database, is what the message quotes and advises on.
   */
  static MemoryStoreException openFailure(DataSource dataSource, String schema, SQLException e) {
    SQLException cause = serverFailure(e);
    String state = cause.getSQLState() == null ? "" : cause.getSQLState();
    boolean unreachable = Jdbc.isConnectionFailure(cause) || Jdbc.isConnectionFailure(e);
    return new MemoryStoreException(
        "cannot open the PostgreSQL store at "
            + describe(dataSource)
            + " (schema "
            + schema
            + "): "
            + e.getMessage()
            + (cause == e ? "" : ": " + cause.getMessage())
            + " (SQLSTATE "
            + (state.isEmpty() ? "unknown" : state)
            + "); "
            + advice(state, unreachable),
        e,
        unreachable && Jdbc.isTransient(e));
  }

  /** What an operator checks for a failure of SQLSTATE {@code state}. */
  private static String advice(String state, boolean unreachable) {
    if (state.startsWith("28")) { // invalid authorization
      return "check the user name and password";
    }
    if (state.startsWith("3D")) { // invalid catalog name
      return "check the database name in the URL";
    }
    if (state.equals("42501")) { // insufficient privilege
      return "this user lacks a privilege the store needs: creating or migrating the schema needs"
          + " the privilege to create in it (or a run as its owner), using it the privilege to"
          + " read and write its tables and sequences";
    }
    if (unreachable) {
      return "check that the database is running and reachable, then retry";
    }
    return "check that this user may create the schema and its tables";
  }

  /**
   * The failure the server or driver reported: the innermost {@link SQLException} {@code e} wraps
   * (the driver's, under a pool's timeout), or {@code e} itself.
   */
  private static SQLException serverFailure(SQLException e) {
    SQLException found = e;
    for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      if (t instanceof SQLException s) {
        found = s;
      }
    }
    return found;
  }

  static String withoutPassword(String url) {
    String out = PASSWORD_PARAMETER.matcher(url).replaceAll("$1***");
    return USER_INFO_PASSWORD.matcher(out).replaceAll("$1:***@");
  }
}
