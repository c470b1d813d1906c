package dev.memhook.postgres;

import static dev.memhook.postgres.Eventually.assertEventually;
import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.B;
import static dev.memhook.testkit.StoreFixtures.SPACE;
import static dev.memhook.testkit.StoreFixtures.T0;
import static dev.memhook.testkit.StoreFixtures.ids;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.nextVersion;
import static dev.memhook.testkit.StoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two store instances on one database, each with a pool of its own as two JVMs would have: what one
 * writes or forgets, the other's next read shows at once, and its searches once its replica has
 * followed the change feed, in the scope it belongs to only. The writer's own searches show its
 * writes when they return.
 */
class SharedDatabaseTest {
  private HikariDataSource poolA;
  private HikariDataSource poolB;
  private String schema;
  private PostgresMemoryStore a;
  private PostgresMemoryStore b;

  @BeforeEach
  void open() {
    poolA = TestDatabase.newPool(6);
    poolB = TestDatabase.newPool(6);
    schema = TestDatabase.newSchema();
    a = PostgresMemoryStore.builder().dataSource(poolA).schema(schema).build();
    b = PostgresMemoryStore.builder().dataSource(poolB).schema(schema).build();
    a.attach(SPACE);
    b.attach(SPACE);
  }

  @AfterEach
  void close() throws Exception {
    if (a != null) {
      a.close();
      b.close();
      poolA.close();
      poolB.close();
    }
    TestDatabase.dropSchemas();
  }

  @Test
  void writeOnA_isFoundOnB_byItsNextRead_andByEverySearchOnceBsReplicaFollowed() {
    a.put(memory("m1", A, "the gateway runs nginx"), vector(1));
    assertEquals(List.of("m1"), ids(b.searchVector(A, vector(1), 10)), "B loads the scope");
    assertEquals(List.of("m1"), ids(a.searchVector(A, vector(1), 10)), "A holds the scope");
    Memory m2 =
        memory("m2", A, "AuthMiddleware checks the session token").toBuilder()
            .concepts(List.of("auth"))
            .build();
    a.put(m2, vector(2));

    assertEquals(m2, b.get(m2.id()).orElseThrow());
    assertEquals(2, b.count(A));
    assertEquals(List.of("m2"), ids(a.searchText(A, "auth middleware", 10)), "A's own write");
    assertEventually(
        List.of("m2"), () -> ids(b.searchText(A, "auth middleware", 10)), "B's replica of A");
    assertEquals("m2", ids(b.searchVector(A, vector(2), 1)).get(0));
    assertEquals(List.of("m2"), ids(b.searchRelated(A, Set.of("AUTH"), Set.of(), 10)));
    assertEquals(List.of(), ids(b.searchVector(B, vector(2), 10)), "and only in its scope");
    assertEquals(List.of(), ids(b.searchText(B, "auth middleware", 10)));
  }

  @Test
  void forgetOnA_isGoneOnB_fromEverySearch_evenFromBsCachedVectors() {
    Memory m1 = memory("m1", A, "the staging password rotates monthly");
    b.put(m1, vector(3));
    b.put(memory("m2", A, "unrelated"), vector(9));
    assertEquals("m1", ids(b.searchVector(A, vector(3), 1)).get(0), "B caches the scope");

    ForgetRecord audit = new ForgetRecord(m1.id(), A, "alice", "asked", T0);
    assertTrue(a.delete(m1.id(), audit));

    assertTrue(b.get(m1.id()).isEmpty(), "reads by id go to PostgreSQL");
    assertEventually(List.of("m2"), () -> ids(b.searchVector(A, vector(3), 10)), "B's replica");
    assertEquals(List.of(), ids(b.searchText(A, "staging password", 10)));
    assertEquals(List.of(audit), b.forgotten(A));
    assertEquals(1, b.count(A));
  }

  @Test
  void newVersionOnB_hidesTheOldOneFromA() {
    Memory v1 = memory("v1", A, "the timeout is thirty seconds");
    a.put(v1, vector(4));
    assertEquals(List.of("v1"), ids(a.searchVector(A, vector(4), 10)));
    b.putNewVersion(nextVersion(v1, "v2", "the timeout is sixty seconds"), vector(5));
    assertEventually(List.of("v2"), () -> ids(a.searchVector(A, vector(4), 10)), "A's replica");
    assertEquals(List.of("v2"), ids(a.searchText(A, "timeout", 10)));
    assertEquals(false, a.get(v1.id()).orElseThrow().latest());
  }

  @Test
  void memoryMovedToAnotherScopeOnA_leavesBsReplicaOfTheOldScope() {
    a.put(memory("m1", A, "moving"), vector(6));
    assertEquals(List.of("m1"), ids(b.searchVector(A, vector(6), 10)));
    a.put(memory("m1", B, "moved"), vector(6));
    assertEventually(List.of(), () -> ids(b.searchVector(A, vector(6), 10)), "B's replica of A");
    assertEquals(List.of("m1"), ids(b.searchVector(B, vector(6), 10)));
  }

  @Test
  void fourWriters_aThousandMemoriesEach_throughTwoInstances_loseAndDuplicateNothing()
      throws Exception {
    int writers = 4;
    int each = 1_000;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        PostgresMemoryStore store = w % 2 == 0 ? a : b;
        Callable<Void> work =
            () -> {
              start.await();
              for (int i = 0; i < each; i++) {
                store.put(
                    memory("w" + writer + "-" + i, A, "writer " + writer + " note " + i),
                    vector(i));
                if (i % 100 == 0) {
                  store.searchVector(A, vector(i), 5);
                }
              }
              return null;
            };
        futures.add(pool.submit(work));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(writers * each, a.count(A));
    assertEquals(writers * each, b.count(A));
    List<MemoryId> exported = new ArrayList<>();
    b.export(m -> exported.add(m.id()));
    assertEquals(writers * each, exported.size());
    assertEquals(writers * each, new HashSet<>(exported).size(), "no id exported twice");
    assertEventually(
        writers * each,
        () -> a.searchVector(A, vector(1), writers * each).size(),
        "A's replica holds every memory once");
    assertEventually(
        writers * each,
        () -> b.searchVector(A, vector(1), writers * each).size(),
        "B's replica holds every memory once");
  }

  @Test
  void twoInstances_migratingAnEmptyDatabaseAtOnce_bothOpen_andTheSchemaIsCreatedOnce()
      throws Exception {
    String fresh = TestDatabase.newSchema();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<PostgresMemoryStore>> opened = new ArrayList<>();
      for (HikariDataSource ds : List.of(poolA, poolB)) {
        opened.add(
            pool.submit(
                () -> {
                  start.await();
                  return PostgresMemoryStore.builder().dataSource(ds).schema(fresh).build();
                }));
      }
      start.countDown();
      PostgresMemoryStore first = opened.get(0).get(1, TimeUnit.MINUTES);
      PostgresMemoryStore second = opened.get(1).get(1, TimeUnit.MINUTES);
      first.attach(SPACE);
      second.attach(SPACE);
      first.put(memory("m1", A, "written through the first"), vector(1));
      assertEventually(
          List.of("m1"), () -> ids(second.searchVector(A, vector(1), 10)), "the second's replica");
      first.close();
      second.close();
    } finally {
      pool.shutdownNow();
    }
    try (Connection c = poolA.getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT version FROM \"" + fresh + "\".memhook_schema ORDER BY 1")) {
      List<Integer> versions = new ArrayList<>();
      while (rs.next()) {
        versions.add(rs.getInt(1));
      }
      List<Integer> all = IntStream.rangeClosed(1, Schema.VERSION).boxed().toList();
      assertEquals(all, versions, "each migration recorded once");
    }
  }
}
