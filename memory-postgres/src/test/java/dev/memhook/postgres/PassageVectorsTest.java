package dev.memhook.postgres;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.DIMENSION;
import static dev.memhook.testkit.StoreFixtures.SPACE;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.MemoryId;
import dev.memhook.testkit.StoreFixtures;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the PostgreSQL store adds to the passage vectors contract: the passages are in the memory's
 * row, so they outlive the instance that wrote them and every instance over the schema answers from
 * them; the row holds a byte per dimension of each passage and nothing without; a row whose
 * passages cannot be read is left out and counted, not thrown.
 */
class PassageVectorsTest {
  private static final MemoryId M1 = MemoryId.of("m1");
  private static final MemoryId M2 = MemoryId.of("m2");

  private final List<PostgresMemoryStore> opened = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    opened.forEach(PostgresMemoryStore::close);
    TestDatabase.dropSchemas();
  }

  @Test
  void passages_outliveTheStoreThatWroteThem_andAnotherInstanceAnswersFromThem() {
    String schema = TestDatabase.newSchema();
    PostgresMemoryStore first = open(schema);
    first.put(
        memory("m1", A, "two sentences. two passages"), vector(1), List.of(vector(3), vector(5)));
    first.close();

    PostgresMemoryStore reopened = open(schema);
    PostgresMemoryStore other = open(schema);

    assertEquals(1.0, reopened.passageCosines(A, List.of(M1), vector(5)).get(M1), 0.02);
    assertEquals(1.0, other.passageCosines(A, List.of(M1), vector(3)).get(M1), 0.02);
  }

  @Test
  void theRow_holdsAByteADimensionPerPassage_andNoPassagesWithout() throws SQLException {
    String schema = TestDatabase.newSchema();
    PostgresMemoryStore store = open(schema);
    store.put(memory("m1", A, "two passages"), vector(1), List.of(vector(3), vector(5)));
    store.put(memory("m2", A, "none"), vector(2), List.of());

    assertEquals(Map.of("m1", 6 + 2 * DIMENSION), passageBytes(schema), "m2's is NULL");

    store.delete(M1, new ForgetRecord(M1, A, "alice", "asked to forget", StoreFixtures.T0));
    assertEquals(Map.of(), passageBytes(schema), "gone with the row");
  }

  @Test
  void unreadablePassages_areLeftOut_andCounted_theOthersAnswered() throws SQLException {
    String schema = TestDatabase.newSchema();
    PostgresMemoryStore store = open(schema);
    store.put(memory("m1", A, "damaged"), vector(1), List.of(vector(3)));
    store.put(memory("m2", A, "intact"), vector(2), List.of(vector(3)));
    try (Connection c = TestDatabase.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "UPDATE \"" + schema + "\".memhook_memory SET passages = '\\x0901' WHERE id = 'm1'");
    }

    assertEquals(
        List.of(M2), List.copyOf(store.passageCosines(A, List.of(M1, M2), vector(3)).keySet()));
    store.passageCosines(A, List.of(M1), vector(3));
    assertEquals(1, store.unreadableRecords(), "counted once");
  }

  @Test
  void passageCosines_beforeAttach_throwsIllegalState() {
    PostgresMemoryStore unattached =
        PostgresMemoryStore.builder()
            .dataSource(TestDatabase.dataSource())
            .schema(TestDatabase.newSchema())
            .build();
    opened.add(unattached);

    assertThrows(
        IllegalStateException.class, () -> unattached.passageCosines(A, List.of(M1), vector(1)));
  }

  private PostgresMemoryStore open(String schema) {
    PostgresMemoryStore store =
        PostgresMemoryStore.builder().dataSource(TestDatabase.dataSource()).schema(schema).build();
    opened.add(store);
    store.attach(SPACE);
    return store;
  }

  /** The length of each row's non-NULL passages, by id. */
  private static Map<String, Integer> passageBytes(String schema) throws SQLException {
    try (Connection c = TestDatabase.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT id, octet_length(passages) FROM \""
                    + schema
                    + "\".memhook_memory WHERE passages IS NOT NULL");
        ResultSet rs = ps.executeQuery()) {
      Map<String, Integer> out = new HashMap<>();
      while (rs.next()) {
        out.put(rs.getString(1), rs.getInt(2));
      }
      return out;
    }
  }
}
