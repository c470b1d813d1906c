package dev.memhook.postgres;

import static dev.memhook.postgres.Eventually.assertEventually;
import static dev.memhook.testkit.StoreFixtures.SPACE;
import static dev.memhook.testkit.StoreFixtures.T0;
import static dev.memhook.testkit.StoreFixtures.ids;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.nextVersion;
import static dev.memhook.testkit.StoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.zaxxer.hikari.HikariDataSource;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.Scope;
import dev.memhook.testkit.Seeds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random histories against the replicas: two writers (A, C) store, replace, version, move and
 * forget memories across three scopes while B follows through a proxy the history cuts and restores
 * at random, and the feed may be pruned under it. Once B follows again, each scope's replica on B
 * holds exactly the latest memories PostgreSQL holds, each once. The seed is in the test's name;
 * {@code -Dmemhook.seed=N} replays it.
 */
class ReplicaConvergenceTest {
  private static final List<Scope> SCOPES =
      List.of(Scope.of("conv", "one"), Scope.of("conv", "two"), Scope.of("conv", "three"));

  /** A word every memory's content holds, so one text search lists a whole scope. */
  private static final String COMMON = "zebrafinch";

  static long[] seeds() {
    return Seeds.seeds(3).toArray();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void afterARandomHistoryWithCuts_eachReplicaHoldsExactlyTheLatestMemories(long seed)
      throws Exception {
    Random random = new Random(seed);
    String schema = TestDatabase.newSchema();
    try (CuttableProxy proxy = new CuttableProxy(TestDatabase.url());
        HikariDataSource direct = TestDatabase.newPool(6);
        HikariDataSource viaProxy = TestDatabase.newPool(proxy.url(), 4, 1_000);
        PostgresMemoryStore a =
            PostgresMemoryStore.builder().dataSource(direct).schema(schema).build();
        PostgresMemoryStore c =
            PostgresMemoryStore.builder().dataSource(direct).schema(schema).build();
        PostgresMemoryStore b =
            PostgresMemoryStore.builder()
                .dataSource(viaProxy)
                .schema(schema)
                .pollInterval(Duration.ofMillis(50))
                .build()) {
      a.attach(SPACE);
      c.attach(SPACE);
      b.attach(SPACE);
      for (Scope scope : SCOPES) {
        b.searchText(scope, COMMON, 1); // B holds every scope from the start
      }
      Map<String, Memory> latest = new HashMap<>(); // id -> latest memory, as written
      int next = 0;
      boolean cut = false;
      for (int step = 0; step < 150; step++) {
        PostgresMemoryStore writer = random.nextBoolean() ? a : c;
        int op = random.nextInt(10);
        List<String> live = new ArrayList<>(new TreeSet<>(latest.keySet()));
        if (op < 4 || live.isEmpty()) { // store a new memory
          Memory m = note("m" + next++, pick(random, SCOPES), random);
          writer.put(m, vector(random.nextInt(64)));
          latest.put(m.id().value(), m);
        } else if (op < 5) { // replace one, possibly moving it to another scope
          Memory old = latest.get(pick(random, live));
          Memory m = note(old.id().value(), pick(random, SCOPES), random);
          writer.put(m, vector(random.nextInt(64)));
          latest.put(m.id().value(), m);
        } else if (op < 7) { // a new version
          Memory old = latest.remove(pick(random, live));
          Memory m = nextVersion(old, "m" + next++, old.content() + " revised");
          writer.putNewVersion(m, vector(random.nextInt(64)));
          latest.put(m.id().value(), m);
        } else if (op < 9) { // forget
          Memory old = latest.remove(pick(random, live));
          writer.delete(old.id(), new ForgetRecord(old.id(), old.scope(), "t", "test", T0));
        } else if (cut) {
          proxy.restore();
          cut = false;
        } else {
          proxy.cut();
          cut = true;
        }
        if (random.nextInt(4) == 0) { // B searches on, cut or not: it holds every scope
          b.searchText(pick(random, SCOPES), COMMON, 10);
        }
        if (step < 75 && random.nextInt(25) == 0) { // the second half catches up from the feed
          // alone: a prune makes every replica behind it reload, which would hide a wrong delta
          try (var conn = direct.getConnection()) {
            new ChangeFeed(new Schema(schema)).prune(conn, Duration.ZERO);
          }
        }
      }
      proxy.restore();
      assertEventually(
          ReplicaStatus.State.FOLLOWING,
          () -> b.replicaStatus().state(),
          "B follows; " + Seeds.replay(seed));
      for (Scope scope : SCOPES) {
        Set<String> expected = new TreeSet<>();
        latest.values().stream()
            .filter(m -> m.scope().equals(scope))
            .forEach(m -> expected.add(m.id().value()));
        assertEventually(
            expected,
            () -> new TreeSet<>(ids(b.searchText(scope, COMMON, 1_000))),
            "B's replica of " + scope.value() + " by text; " + Seeds.replay(seed));
        List<String> byVector = ids(b.searchVector(scope, vector(1), 1_000));
        assertEquals(expected, new TreeSet<>(byVector), "by vector; " + Seeds.replay(seed));
        assertEquals(expected.size(), byVector.size(), "each once; " + Seeds.replay(seed));
        assertEquals(expected.size(), a.count(scope), "PostgreSQL agrees; " + Seeds.replay(seed));
      }
      for (Memory m : latest.values()) {
        assertEquals(m, b.get(m.id()).orElseThrow(), "read by id; " + Seeds.replay(seed));
      }
    } finally {
      TestDatabase.dropSchemas();
    }
  }

  private static Memory note(String id, Scope scope, Random random) {
    return memory(id, scope, COMMON + " note " + id + " " + Long.toString(random.nextLong(), 36));
  }

  private static <T> T pick(Random random, List<T> from) {
    return from.get(random.nextInt(from.size()));
  }
}
