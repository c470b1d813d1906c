package dev.memhook.postgres;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.SPACE;
import static dev.memhook.testkit.StoreFixtures.T0;
import static dev.memhook.testkit.StoreFixtures.ids;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An application that connects as a user allowed to read and write the store's tables, but not to
 * create anything (its schema migrated by another user, as least privilege has it), opens the store
 * on a schema that is up to date and uses it; on a schema that needs migrating it is refused,
 * saying which privilege is missing.
 */
class PrivilegesTest {
  private final String role = "memhook_app_" + UUID.randomUUID().toString().substring(0, 8);
  private final String password = UUID.randomUUID().toString();
  private HikariDataSource appPool;

  @AfterEach
  void close() throws Exception {
    if (appPool != null) {
      appPool.close();
    }
    TestDatabase.dropSchemas();
    try (Connection c = TestDatabase.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("DROP OWNED BY " + role);
      s.execute("DROP ROLE IF EXISTS " + role);
    }
  }

  @Test
  void aUserWhoMayOnlyReadAndWriteTheTables_opensAnUpToDateSchema_andUsesIt() throws Exception {
    String schema = TestDatabase.newSchema();
    PostgresMemoryStore.builder()
        .dataSource(TestDatabase.dataSource())
        .schema(schema)
        .build()
        .close();
    grantReadWrite(schema);

    try (PostgresMemoryStore store =
        PostgresMemoryStore.builder().dataSource(appPool()).schema(schema).build()) {
      store.attach(SPACE);
      store.put(memory("m1", A, "written by the application user"), vector(1));
      assertEquals(List.of("m1"), ids(store.searchText(A, "application user", 10)));
      assertTrue(
          store.delete(MemoryId.of("m1"), new ForgetRecord(MemoryId.of("m1"), A, "app", "t", T0)));
      assertEquals(0, store.count(A));
    }
  }

  @Test
  void aUserWhoMayNotCreate_isRefusedASchemaThatNeedsMigrating_namingThePrivilege()
      throws Exception {
    String schema = TestDatabase.newSchema();
    PostgresMemoryStore.builder()
        .dataSource(TestDatabase.dataSource())
        .schema(schema)
        .build()
        .close();
    try (Connection c = TestDatabase.dataSource().getConnection();
        Statement s = c.createStatement()) { // back to the version before passages
      s.execute("ALTER TABLE \"" + schema + "\".memhook_memory DROP COLUMN passages");
      s.execute("DELETE FROM \"" + schema + "\".memhook_schema WHERE version = " + Schema.VERSION);
    }
    grantReadWrite(schema);

    MemoryStoreException e =
        assertThrows(
            MemoryStoreException.class,
            () -> PostgresMemoryStore.builder().dataSource(appPool()).schema(schema).build());
    assertTrue(e.getMessage().contains("must be owner"), "the server's words: " + e.getMessage());
    assertTrue(e.getMessage().contains("42501"), e.getMessage());
    assertTrue(e.getMessage().contains("privilege to create"), e.getMessage());
    assertFalse(e.retriable());
  }

  /** Lets {@link #role} log in, use the schema and read and write its tables and sequences. */
  private void grantReadWrite(String schema) throws Exception {
    try (Connection c = TestDatabase.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + password + "'");
      s.execute("GRANT USAGE ON SCHEMA \"" + schema + "\" TO " + role);
      s.execute(
          "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \""
              + schema
              + "\" TO "
              + role);
      s.execute("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA \"" + schema + "\" TO " + role);
    }
  }

  /** A pool that connects to the test database as {@link #role}. */
  private HikariDataSource appPool() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(TestDatabase.url().replaceAll("([?&])(user|password)=[^&]*&?", "$1"));
    config.setUsername(role);
    config.setPassword(password);
    config.setMaximumPoolSize(3);
    config.setConnectionTimeout(5_000);
    appPool = new HikariDataSource(config);
    return appPool;
  }
}
