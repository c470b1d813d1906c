package dev.memhook.postgres;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.SPACE;
import static dev.memhook.testkit.StoreFixtures.ids;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.zaxxer.hikari.HikariDataSource;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryStoreException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The server ends the store's connections ({@code pg_terminate_backend}, as a failover or an
 * administrator would): a call that runs into a dead connection fails with a {@link
 * MemoryStoreException} that says to retry, nothing is half-written, and the pool's next connection
 * serves again.
 */
class ConnectionLossTest {
  private HikariDataSource pool;
  private PostgresMemoryStore store;

  @BeforeEach
  void open() {
    pool = TestDatabase.newPool(4);
    store = PostgresMemoryStore.builder().dataSource(pool).schema(TestDatabase.newSchema()).build();
    store.attach(SPACE);
  }

  @AfterEach
  void close() throws Exception {
    if (store != null) {
      store.close();
      pool.close();
    }
    TestDatabase.dropSchemas();
  }

  @Test
  void terminatedConnections_failARetriableCall_andTheRetryStoresOnce() throws Exception {
    store.put(memory("m1", A, "written before the loss"), vector(1));
    assertEquals(List.of("m1"), ids(store.searchVector(A, vector(1), 10)));
    int terminated = TestDatabase.terminateConnectionsOf(pool.getPoolName());
    assertTrue(terminated > 0, "the pool held connections to end");

    Memory m2 = memory("m2", A, "written after the loss");
    List<MemoryStoreException> failures = new ArrayList<>();
    for (int attempt = 0; ; attempt++) {
      try {
        store.put(m2, vector(2));
        break;
      } catch (MemoryStoreException e) {
        assertTrue(e.getMessage().contains("retry"), e.getMessage());
        assertTrue(e.retriable(), "a lost connection is worth retrying: " + e.getMessage());
        failures.add(e);
        if (attempt == 5) {
          fail("still failing after 5 retries: " + failures);
        }
      }
    }
    assertEquals(m2, store.get(m2.id()).orElseThrow());
    assertEquals(2, store.count(A));
    assertEquals(List.of("m2", "m1"), ids(store.searchVector(A, vector(2), 10)));
  }
}
