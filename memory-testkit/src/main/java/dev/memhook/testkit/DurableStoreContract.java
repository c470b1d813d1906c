package dev.memhook.testkit;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.OTHER_MODEL;
import static dev.memhook.testkit.StoreFixtures.SPACE;
import static dev.memhook.testkit.StoreFixtures.T0;
import static dev.memhook.testkit.StoreFixtures.ids;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.nextVersion;
import static dev.memhook.testkit.StoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract of {@link StoreCapability#DURABLE}: what every write stored when it returned is
 * there again, by id and in every search, after {@link MemoryStore#close()} and a reopen of the
 * same location; so are the forget audit records and the embedding space the store was attached to.
 * Whether writes survive a killed process is the store's own promise, not tested here.
 *
 * <p>Implement it in a {@link MemoryStoreContract} subclass whose store declares {@code DURABLE},
 * with {@link #openStore(Path)} opening your store at a location (a directory JUnit makes fresh for
 * each test); a store kept elsewhere, such as in a database, maps the path to a location of its own
 * (a schema name, say) that the second open finds again.
 */
public interface DurableStoreContract {

  /**
   * Opens the store kept at {@code location}, unattached: empty the first time, and after a {@link
   * MemoryStore#close()} with everything the closed store held.
   */
  MemoryStore openStore(Path location);

  @Test
  default void durable_isDeclaredByTheStore(@TempDir Path dir) {
    try (MemoryStore store = openStore(dir.resolve("store"))) {
      assertTrue(
          store.capabilities().contains(StoreCapability.DURABLE),
          store + " is tested as DURABLE but does not declare it: " + store.capabilities());
    }
  }

  @Test
  default void everyAcknowledgedWrite_survivesCloseAndReopen(@TempDir Path dir) {
    Path location = dir.resolve("store");
    Memory full =
        memory("m1", A, "the build uses maven with the shade plugin").toBuilder()
            .concepts(List.of("build"))
            .files(List.of("pom.xml"))
            .attributes(Map.of("team", "platform"))
            .sourceSession("s-1")
            .context("the build was slow")
            .importance(0.8)
            .occurredAt(T0.minus(3, ChronoUnit.DAYS))
            .build();
    Memory batched = memory("m2", A, "gradle daemons are disabled on ci");
    Memory forgotten = memory("m3", A, "the staging password rotates monthly");
    Memory v1 = memory("v1", A, "the gateway timeout is thirty seconds");
    Memory v2 = nextVersion(v1, "v2", "the gateway timeout is sixty seconds");
    // a forget's record lists every id it removed, which need not be held here
    ForgetRecord audit =
        new ForgetRecord(
            forgotten.id(),
            A,
            "alice",
            "asked to forget",
            T0.plusSeconds(60),
            List.of(forgotten.id(), MemoryId.of("obs-gone")));
    try (MemoryStore store = openStore(location)) {
      store.attach(SPACE);
      store.put(full, vector(1));
      Map<Memory, Embedding> batch = new LinkedHashMap<>();
      batch.put(batched, vector(2));
      batch.put(forgotten, vector(3));
      store.putAll(batch);
      store.put(v1, vector(4));
      store.putNewVersion(v2, vector(5));
      assertTrue(store.delete(forgotten.id(), audit));
    }
    try (MemoryStore store = openStore(location)) {
      store.attach(SPACE);
      assertEquals(full, store.get(full.id()).orElseThrow());
      assertEquals(batched, store.get(batched.id()).orElseThrow());
      assertEquals(v1.withLatest(false), store.get(v1.id()).orElseThrow());
      assertEquals(v2, store.get(v2.id()).orElseThrow());
      assertTrue(store.get(forgotten.id()).isEmpty());
      assertEquals(List.of(audit), store.forgotten(A));
      assertEquals(3, store.count(A));
      assertEquals(List.of("m1"), ids(store.searchText(A, "maven shade", 10)));
      assertEquals(List.of("m2"), ids(store.searchText(A, "gradle daemons", 10)));
      assertEquals(List.of("v2"), ids(store.searchText(A, "gateway timeout", 10)));
      assertEquals(List.of(), ids(store.searchText(A, "staging password", 10)));
      assertEquals("m1", ids(store.searchVector(A, vector(1), 3)).get(0));
      assertEquals("v2", ids(store.searchVector(A, vector(5), 3)).get(0));
      assertEquals(
          List.of("m1"), ids(store.searchRelated(A, Set.of("build"), Set.of("pom.xml"), 10)));
    }
  }

  @Test
  default void reopenedStore_keepsItsSpace_refusingAnother_andTakesWritesInItsOwn(
      @TempDir Path dir) {
    Path location = dir.resolve("store");
    Memory m1 = memory("m1", A, "written before the reopen");
    try (MemoryStore store = openStore(location)) {
      store.attach(SPACE);
      store.put(m1, vector(1));
    }
    try (MemoryStore store = openStore(location)) {
      assertThrows(IncompatibleStoreException.class, () -> store.attach(OTHER_MODEL));
      assertThrows(
          IncompatibleStoreException.class,
          () -> store.attach(new EmbeddingSpace(SPACE.modelId(), SPACE.dimension() + 1)));
      store.attach(SPACE);
      Memory m2 = memory("m2", A, "written after the reopen");
      store.put(m2, vector(2));
      assertEquals(Map.of(m1.id(), m1, m2.id(), m2), store.getAll(List.of(m1.id(), m2.id())));
      assertEquals(List.of("m1"), ids(store.searchVector(A, vector(1), 1)));
    }
  }
}
