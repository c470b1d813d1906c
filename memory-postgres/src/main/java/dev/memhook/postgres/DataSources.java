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

  /** The exception of a store that could not open: it names where, never with a password. */
  static MemoryStoreException openFailure(DataSource dataSource, String schema, SQLException e) {
    boolean unreachable = String.valueOf(e.getSQLState()).startsWith("08");
    return new MemoryStoreException(
        "cannot open the PostgreSQL store at "
            + describe(dataSource)
            + " (schema "
            + schema
            + "): "
            + e.getMessage()
            + (unreachable
                ? "; check that the database is running and reachable, then retry"
                : "; check that this user may create the schema and its tables"),
        e);
  }

  static String withoutPassword(String url) {
    String out = PASSWORD_PARAMETER.matcher(url).replaceAll("$1***");
    return USER_INFO_PASSWORD.matcher(out).replaceAll("$1:***@");
  }
}
