package dev.memhook.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.memhook.api.MemoryStoreException;
import java.io.IOException;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * Opening the store on a database it cannot reach, or as a user or on a database the server does
 * not know (those need the test server), and the builder's checks: the message says what the server
 * said and what to check, and whether to retry.
 */
class OpenFailureTest {

  @Test
  void unreachableDatabase_failsAtBuild_namingTheUrl_butNeverThePassword() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // closed again: nothing listens there
    }
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/memhook?user=app&password=hunter2";
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setPassword("s3cret-too");
    config.setConnectionTimeout(500);
    config.setInitializationFailTimeout(-1);
    try (HikariDataSource ds = new HikariDataSource(config)) {
      MemoryStoreException e =
          assertThrows(
              MemoryStoreException.class,
              () -> PostgresMemoryStore.builder().dataSource(ds).build());
      String message = e.getMessage();
      assertTrue(
          message.contains("jdbc:postgresql://127.0.0.1:" + port + "/memhook?user=app"), message);
      assertFalse(message.contains("hunter2"), message);
      assertFalse(message.contains("s3cret-too"), message);
      assertTrue(message.contains("reachable"), message);
      assertTrue(e.retriable(), "the server may come up");
    }
  }

  @Test
  void anUnknownUser_failsAtBuild_sayingSo_andToCheckTheCredentials() {
    MemoryStoreException e = openThroughAPool(withParameter("user", "no_such_user_x9"));
    assertTrue(e.getMessage().contains("no_such_user_x9"), "the server's words: " + e.getMessage());
    assertTrue(e.getMessage().contains("user name and password"), e.getMessage());
    assertFalse(e.getMessage().contains("create the schema"), e.getMessage());
    assertFalse(e.retriable());
  }

  @Test
  void anUnknownDatabase_failsAtBuild_sayingSo_andToCheckTheUrl() {
    String url = TestDatabase.url().replaceFirst("/([^/?]+)(\\?|$)", "/no_such_db_x9$2");
    MemoryStoreException e = openThroughAPool(url);
    assertTrue(e.getMessage().contains("no_such_db_x9"), "the server's words: " + e.getMessage());
    assertTrue(e.getMessage().contains("database name"), e.getMessage());
    assertFalse(e.retriable());
  }

  /** What build() throws over a pool (which wraps the driver's failure) to {@code url}. */
  private static MemoryStoreException openThroughAPool(String url) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setConnectionTimeout(500);
    config.setInitializationFailTimeout(-1);
    try (HikariDataSource ds = new HikariDataSource(config)) {
      return assertThrows(
          MemoryStoreException.class,
          () -> PostgresMemoryStore.builder().dataSource(ds).schema("never_made").build());
    }
  }

  /** The test server's URL with its {@code name} parameter set to {@code value}. */
  private static String withParameter(String name, String value) {
    String url = TestDatabase.url().replaceAll("([?&])" + name + "=[^&]*&?", "$1");
    return url
        + (url.contains("?") ? (url.endsWith("?") || url.endsWith("&") ? "" : "&") : "?")
        + name
        + "="
        + value;
  }

  @Test
  void passwords_areTakenOutOfUrls() {
    assertEquals(
        "jdbc:postgresql://db:5432/m?user=u&password=***&ssl=true",
        DataSources.withoutPassword("jdbc:postgresql://db:5432/m?user=u&password=p@ss&ssl=true"));
    assertEquals(
        "jdbc:postgresql://u:***@db/m", DataSources.withoutPassword("jdbc:postgresql://u:pw@db/m"));
    assertEquals(
        "jdbc:postgresql://db/m?PASSWORD=***",
        DataSources.withoutPassword("jdbc:postgresql://db/m?PASSWORD=x"));
  }

  @Test
  void builder_rejectsInvalidValuesAtOnce() {
    PostgresMemoryStore.Builder b = PostgresMemoryStore.builder();
    assertThrows(NullPointerException.class, () -> b.dataSource(null));
    assertThrows(NullPointerException.class, () -> b.schema(null));
    for (String bad :
        new String[] {"", "Memhook", "x;drop schema public", "a\"b", "1abc", "x".repeat(64)}) {
      assertThrows(IllegalArgumentException.class, () -> b.schema(bad), bad);
    }
    assertThrows(IllegalArgumentException.class, () -> b.maxCachedScopes(0));
    assertThrows(IllegalStateException.class, b::build, "no data source");
  }
}
