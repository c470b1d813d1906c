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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.spi.StoreHit;
import java.sql.Connection;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Instance B reaches PostgreSQL through a proxy the test cuts, as when the network or the server
 * goes away; instance A keeps writing directly. While cut, B answers searches of the scopes it
 * holds from its replica and says so, answers no passage cosines (the replicas keep no passages),
 * and its writes fail retriably; once restored, B has caught up on every change made meanwhile,
 * each once, before it says it follows again.
 */
class ReplicaFailoverTest {
  private CuttableProxy proxy;
  private HikariDataSource direct;
  private HikariDataSource viaProxy;
  private PostgresMemoryStore a;
  private PostgresMemoryStore b;
  private String schema;
  private final List<ReplicaStatus> told = new CopyOnWriteArrayList<>();

  @BeforeEach
  void open() throws Exception {
    proxy = new CuttableProxy(TestDatabase.url());
    direct = TestDatabase.newPool(4);
    viaProxy = TestDatabase.newPool(proxy.url(), 4, 1_000);
    schema = TestDatabase.newSchema();
    a = PostgresMemoryStore.builder().dataSource(direct).schema(schema).build();
    b =
        PostgresMemoryStore.builder()
            .dataSource(viaProxy)
            .schema(schema)
            .pollInterval(Duration.ofMillis(200))
            .statusListener(told::add)
            .build();
    a.attach(SPACE);
    b.attach(SPACE);
  }

  @AfterEach
  void close() throws Exception {
    if (b != null) {
      a.close();
      b.close();
      viaProxy.close();
      direct.close();
    }
    if (proxy != null) {
      proxy.close();
    }
    TestDatabase.dropSchemas();
  }

  @Test
  void unreachable_heldScopesAreStillSearched_andRead_writesFailRetriably_andTheStatusSaysSo() {
    Memory m1 = memory("m1", A, "the deploy runs on friday");
    a.put(m1, vector(1), List.of(vector(5)));
    assertEventually(List.of("m1"), () -> ids(b.searchText(A, "deploy", 10)), "B holds A");
    assertEquals(Set.of(m1.id()), b.passageCosines(A, List.of(m1.id()), vector(5)).keySet());

    proxy.cut();
    MemoryStoreException write =
        assertThrows(MemoryStoreException.class, () -> b.put(memory("m2", A, "lost"), vector(2)));
    assertTrue(write.retriable(), write.getMessage());
    assertEventually(
        ReplicaStatus.State.DISCONNECTED, () -> b.replicaStatus().state(), "B's status");

    assertEquals(List.of("m1"), ids(b.searchText(A, "deploy", 10)), "from the replica");
    assertEquals(List.of("m1"), ids(b.searchVector(A, vector(1), 10)));
    assertEquals(m1, b.get(m1.id()).orElseThrow(), "read by id from the replica");
    assertEquals(
        Map.of(),
        b.passageCosines(A, List.of(m1.id()), vector(5)),
        "no passages while away: the replicas keep none");
    MemoryStoreException notHeld =
        assertThrows(MemoryStoreException.class, () -> b.searchText(B, "deploy", 10));
    assertTrue(notHeld.retriable(), notHeld.getMessage());
    MemoryStoreException count = assertThrows(MemoryStoreException.class, () -> b.count(A));
    assertTrue(count.retriable(), count.getMessage());

    assertEventually(1, () -> Math.min(1, told.size()), "B's listener was told");
    assertEquals(ReplicaStatus.State.DISCONNECTED, told.get(0).state());
    assertFalse(told.get(0).detail().isEmpty(), "the status says why");
  }

  @Test
  void restored_afterWritesForgetsAndVersionsMeanwhile_catchesUpOnEach_once() {
    Memory m1 = memory("m1", A, "the staging password rotates monthly");
    Memory m2 = memory("m2", A, "the timeout is thirty seconds");
    a.put(m1, vector(1));
    a.put(m2, vector(2));
    assertEventually(2, () -> b.searchVector(A, vector(1), 10).size(), "B holds A");

    proxy.cut();
    assertEventually(
        ReplicaStatus.State.DISCONNECTED, () -> b.replicaStatus().state(), "B's status");
    a.put(memory("m3", A, "the cache is redis"), vector(3));
    assertTrue(a.delete(m1.id(), new ForgetRecord(m1.id(), A, "alice", "asked", T0)));
    a.putNewVersion(nextVersion(m2, "v2", "the timeout is sixty seconds"), vector(4));
    assertEquals(
        Set.of("m1", "m2"), idSet(b.searchVector(A, vector(1), 10)), "as they were when cut");

    proxy.restore();
    assertEventually(ReplicaStatus.State.FOLLOWING, () -> b.replicaStatus().state(), "B's status");
    List<StoreHit> hits = b.searchVector(A, vector(1), 10);
    assertEquals(Set.of("m3", "v2"), idSet(hits), "caught up before it says it follows");
    assertEquals(2, hits.size(), "each once");
    assertEquals(List.of(), ids(b.searchText(A, "staging password", 10)), "the forgotten is gone");
    // The status reads FOLLOWING before the follower thread tells the listener, so wait for that.
    assertEventually(
        List.of(ReplicaStatus.State.DISCONNECTED, ReplicaStatus.State.FOLLOWING),
        () -> told.stream().map(ReplicaStatus::state).toList(),
        "what B's listener was told");
  }

  @Test
  void restored_afterTheFeedWasPrunedPastIt_reloadsTheScope() throws Exception {
    Memory m2 = memory("m2", A, "forgotten while cut");
    a.put(memory("m1", A, "kept"), vector(1));
    a.put(m2, vector(2));
    assertEventually(2, () -> b.searchVector(A, vector(1), 10).size(), "B holds A");

    proxy.cut();
    assertEventually(
        ReplicaStatus.State.DISCONNECTED, () -> b.replicaStatus().state(), "B's status");
    a.put(memory("m3", A, "written while cut"), vector(3));
    assertTrue(a.delete(m2.id(), new ForgetRecord(m2.id(), A, "alice", "asked", T0)));
    try (Connection c = direct.getConnection()) {
      assertTrue(new ChangeFeed(new Schema(schema)).prune(c, Duration.ZERO) >= 2, "rows pruned");
    }

    proxy.restore();
    assertEventually(ReplicaStatus.State.FOLLOWING, () -> b.replicaStatus().state(), "B's status");
    List<StoreHit> hits = b.searchVector(A, vector(1), 10);
    assertEquals(Set.of("m1", "m3"), idSet(hits));
    assertEquals(2, hits.size());
  }

  @Test
  void followersConnectionTerminated_reconnects_andCatchesUpWhatItMissed() throws Exception {
    a.put(memory("m1", A, "before"), vector(1));
    assertEventually(List.of("m1"), () -> ids(b.searchVector(A, vector(1), 10)), "B holds A");
    assertTrue(
        TestDatabase.terminateConnectionsOf(viaProxy.getPoolName()) > 0, "B's connections ended");
    a.put(memory("m2", A, "after"), vector(2));
    assertEventually(
        Set.of("m1", "m2"), () -> idSet(b.searchVector(A, vector(1), 10)), "B caught up");
    assertEventually(
        List.of(ReplicaStatus.State.DISCONNECTED, ReplicaStatus.State.FOLLOWING),
        () -> told.stream().map(ReplicaStatus::state).toList(),
        "what B's listener was told");
  }

  @Test
  void aPoolThatCannotGiveAConnection_sendsReadsToTheReplica_untilTheFollowerConfirmsTheServer()
      throws Exception {
    Memory m1 = memory("m1", A, "the deploy runs on friday");
    a.put(m1, vector(1));
    List<ReplicaStatus> cTold = new CopyOnWriteArrayList<>();
    try (HikariDataSource two = TestDatabase.newPool(TestDatabase.url(), 2, 1_000);
        PostgresMemoryStore c =
            PostgresMemoryStore.builder()
                .dataSource(two)
                .schema(schema)
                .statusListener(cTold::add)
                .build()) {
      c.attach(SPACE); // its follower holds one of the two connections
      assertEquals(List.of("m1"), ids(c.searchText(A, "deploy", 10)), "C holds A");
      // the follower takes its connection on its own thread: under load, after attach returns
      assertEventually(
          1,
          () -> two.getHikariPoolMXBean().getActiveConnections(),
          "C's follower holds one connection");
      try (Connection taken = two.getConnection()) { // and the test the other
        assertEquals(m1, c.get(m1.id()).orElseThrow(), "the pool timed out: from the replica");
      }
      assertEventually(
          List.of(ReplicaStatus.State.DISCONNECTED, ReplicaStatus.State.FOLLOWING),
          () -> cTold.stream().map(ReplicaStatus::state).toList(),
          "C's follower, whose connection works, confirms the server");
      Memory elsewhere = memory("m2", B, "in a scope C does not hold");
      a.put(elsewhere, vector(2));
      assertEquals(elsewhere, c.get(elsewhere.id()).orElseThrow(), "read from PostgreSQL again");
    }
  }

  private static Set<String> idSet(List<StoreHit> hits) {
    return new HashSet<>(ids(hits));
  }
}
