package dev.memhook.postgres;

import static dev.memhook.postgres.Eventually.assertEventually;
import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.SPACE;
import static dev.memhook.testkit.StoreFixtures.ids;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.zaxxer.hikari.HikariDataSource;
import dev.memhook.api.MemoryId;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A schema written by an older version of the store is migrated when a newer store opens it. From
 * the first version (memories, no change feed, no sessions, no passages): its memories are searched
 * through the replicas, and what one instance writes afterwards another follows. From the version
 * before passage vectors: its memories have none, and new ones keep theirs.
 */
class MigrationTest {
  private HikariDataSource pool;

  @AfterEach
  void close() throws Exception {
    if (pool != null) {
      pool.close();
    }
    TestDatabase.dropSchemas();
  }

  @Test
  void aVersionOneSchemaWithMemories_isMigrated_andItsReplicasFollowNewWrites() throws Exception {
    pool = TestDatabase.newPool(6);
    String schema = TestDatabase.newSchema();
    try (PostgresMemoryStore first =
        PostgresMemoryStore.builder().dataSource(pool).schema(schema).build()) {
      first.attach(SPACE);
      first.put(memory("old", A, "written by the first version"), vector(1));
    }
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement()) { // back to version 1, as that version left it
      s.execute("ALTER TABLE \"" + schema + "\".memhook_memory DROP COLUMN passages");
      s.execute("DROP TABLE \"" + schema + "\".memhook_session_observation");
      s.execute("DROP TABLE \"" + schema + "\".memhook_session");
      s.execute("DROP TABLE \"" + schema + "\".memhook_feed");
      s.execute("DROP TABLE \"" + schema + "\".memhook_feed_floor");
      s.execute("DELETE FROM \"" + schema + "\".memhook_schema WHERE version > 1");
    }

    try (PostgresMemoryStore a =
            PostgresMemoryStore.builder().dataSource(pool).schema(schema).build();
        PostgresMemoryStore b =
            PostgresMemoryStore.builder().dataSource(pool).schema(schema).build()) {
      a.attach(SPACE);
      b.attach(SPACE);
      assertEquals(List.of("old"), ids(b.searchText(A, "first version", 10)));
      assertEquals(Map.of(), b.passageCosines(A, List.of(MemoryId.of("old")), vector(1)));
      a.put(memory("new", A, "written after the migration"), vector(2));
      assertEventually(
          Set.of("old", "new"),
          () -> Set.copyOf(ids(b.searchVector(A, vector(1), 10))),
          "B follows A's write");
    }
  }

  @Test
  void aSchemaFromBeforePassages_opensWithItsMemoriesWithoutPassages_andKeepsNewOnes()
      throws Exception {
    pool = TestDatabase.newPool(4);
    String schema = TestDatabase.newSchema();
    try (PostgresMemoryStore first =
        PostgresMemoryStore.builder().dataSource(pool).schema(schema).build()) {
      first.attach(SPACE);
      first.put(memory("old", A, "written before passages"), vector(1));
    }
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement()) { // back to version 3, as that version left it
      s.execute("ALTER TABLE \"" + schema + "\".memhook_memory DROP COLUMN passages");
      s.execute("DELETE FROM \"" + schema + "\".memhook_schema WHERE version > 3");
    }

    try (PostgresMemoryStore store =
        PostgresMemoryStore.builder().dataSource(pool).schema(schema).build()) {
      store.attach(SPACE);
      assertEquals(
          "written before passages", store.get(MemoryId.of("old")).orElseThrow().content());
      assertEquals(
          Map.of(), store.passageCosines(A, List.of(MemoryId.of("old")), vector(1)), "none");

      store.put(memory("new", A, "written after the migration"), vector(2), List.of(vector(5)));
      assertEquals(
          List.of(MemoryId.of("new")),
          List.copyOf(
              store
                  .passageCosines(A, List.of(MemoryId.of("old"), MemoryId.of("new")), vector(5))
                  .keySet()));
      store.put(memory("old", A, "rewritten with a passage"), vector(1), List.of(vector(7)));
      assertEquals(
          1.0,
          store.passageCosines(A, List.of(MemoryId.of("old")), vector(7)).get(MemoryId.of("old")),
          0.02,
          "an old memory put again keeps its passages");
    }
  }
}
