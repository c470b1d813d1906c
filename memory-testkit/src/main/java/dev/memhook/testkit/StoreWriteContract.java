package dev.memhook.testkit;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.B;
import static dev.memhook.testkit.StoreFixtures.T0;
import static dev.memhook.testkit.StoreFixtures.ids;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.vector;
import static dev.memhook.testkit.StoreFixtures.vectorOfTheWrongDimension;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ExportResult;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The writes of the basic store contract and what they leave behind: {@link MemoryStore#put}
 * replacing by id, {@link MemoryStore#putAll} as every store keeps it, {@link MemoryStore#delete}
 * removing a memory from every signal and keeping its audit record, seen through {@link
 * MemoryStore#get}, {@link MemoryStore#getAll}, {@link MemoryStore#count} and {@link
 * MemoryStore#forgotten}. A store without {@code ATOMIC_BATCH} keeps {@code putAll}'s default
 * promise only, checked here: a valid batch is stored whole, and two memories with one id are
 * rejected with an {@link IllegalArgumentException}; what a failed batch leaves behind is {@link
 * AtomicBatchStoreContract}'s.
 *
 * <p>{@link MemoryStoreContract} implements it, so every store's contract test runs these tests
 * with no declaration of its own; {@link #store()} is that class's fresh, attached store.
 */
public interface StoreWriteContract {

  /**
   * The store under test, fresh and attached for each test: {@link MemoryStoreContract#store()}.
   */
  MemoryStore store();

  // ---------------------------------------------------------------------------------------------
  // put, get, getAll

  @Test
  default void put_thenGet_returnsAnEqualMemory() {
    MemoryStore store = store();
    Memory m =
        memory("m1", A, "the build uses maven with the shade plugin").toBuilder()
            .concepts(List.of("build", "maven"))
            .files(List.of("pom.xml"))
            .attributes(Map.of("team", "platform"))
            .sourceSession("s-1")
            .context("what came before: the build was slow")
            .importance(0.8)
            .occurredAt(T0.minus(3, ChronoUnit.DAYS))
            .build();
    store.put(m, vector(1));
    assertEquals(m, store.get(m.id()).orElseThrow());
  }

  @Test
  default void put_aMemoryThatHappenedAtEitherEndOfTime_isStored_andFoundByItsWords() {
    MemoryStore store = store();
    Memory first =
        memory("m1", A, "the oldest note about gradle").toBuilder().occurredAt(Instant.MIN).build();
    Memory last =
        memory("m2", A, "the newest note about gradle").toBuilder().occurredAt(Instant.MAX).build();
    store.put(first, vector(1));
    store.put(last, vector(2));
    assertEquals(first, store.get(first.id()).orElseThrow());
    assertEquals(last, store.get(last.id()).orElseThrow());
    assertEquals(Set.of("m1", "m2"), Set.copyOf(ids(store.searchText(A, "gradle", 10))));
  }

  @Test
  default void get_unknownId_isEmpty() {
    MemoryStore store = store();
    assertTrue(store.get(MemoryId.of("nope")).isEmpty());
  }

  @Test
  default void put_sameIdTwice_replacesTheRecord() {
    MemoryStore store = store();
    store.put(memory("m1", A, "first text about kafka"), vector(1));
    store.put(memory("m1", A, "second text about rabbitmq"), vector(2));
    assertEquals(
        "second text about rabbitmq", store.get(MemoryId.of("m1")).orElseThrow().content());
    assertEquals(1, store.count(A));
    assertEquals(
        List.of(), ids(store.searchText(A, "kafka", 10)), "old text must not be indexed any more");
    assertEquals(List.of("m1"), ids(store.searchText(A, "rabbitmq", 10)));
    assertEquals("m1", ids(store.searchVector(A, vector(2), 1)).get(0));
  }

  @Test
  default void getAll_returnsTheExistingOnes_inTheOrderAsked() {
    MemoryStore store = store();
    store.put(memory("m1", A, "one"), vector(1));
    store.put(memory("m2", B, "two"), vector(2));
    Map<MemoryId, Memory> got =
        store.getAll(List.of(MemoryId.of("m2"), MemoryId.of("zz"), MemoryId.of("m1")));
    assertEquals(List.of(MemoryId.of("m2"), MemoryId.of("m1")), new ArrayList<>(got.keySet()));
    assertEquals("two", got.get(MemoryId.of("m2")).content());
  }

  @Test
  default void put_withAVectorOfAnotherDimension_isRejected_andStoresNothing() {
    MemoryStore store = store();
    assertThrows(
        IllegalArgumentException.class,
        () -> store.put(memory("m1", A, "x"), vectorOfTheWrongDimension()));
    assertTrue(store.get(MemoryId.of("m1")).isEmpty());
    assertEquals(0, store.count(A));
  }

  // ---------------------------------------------------------------------------------------------
  // putAll, as every store keeps it

  @Test
  default void putAll_storesEveryMemoryOfAValidBatch_andReplacesByIdAsPutDoes() {
    MemoryStore store = store();
    store.put(memory("m1", A, "the old words about ansible"), vector(1));
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    batch.put(memory("m1", A, "the new words about puppet"), vector(1));
    batch.put(memory("m2", A, "chef cookbooks"), vector(2));
    batch.put(memory("m3", B, "salt states"), vector(3));
    store.putAll(batch);
    for (Memory m : batch.keySet()) {
      assertEquals(m, store.get(m.id()).orElseThrow());
    }
    assertEquals(2, store.count(A));
    assertEquals(1, store.count(B));
    assertEquals(List.of(), ids(store.searchText(A, "ansible", 10)));
    assertEquals(List.of("m1"), ids(store.searchText(A, "puppet", 10)));
    assertEquals(List.of("m2"), ids(store.searchText(A, "chef", 10)));
    assertEquals("m2", ids(store.searchVector(A, vector(2), 1)).get(0));
  }

  @Test
  default void putAll_withTwoMemoriesOfOneId_throwsIllegalArgument() {
    MemoryStore store = store();
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    batch.put(memory("m1", A, "first of two"), vector(1));
    batch.put(memory("m1", A, "second of two"), vector(2));
    assertThrows(IllegalArgumentException.class, () -> store.putAll(batch));
  }

  // ---------------------------------------------------------------------------------------------
  // delete and audit

  @Test
  default void delete_removesFromEverySignal_andKeepsTheAuditRecord() {
    MemoryStore store = store();
    Memory m =
        memory("m1", A, "secret rotation runbook").toBuilder().concepts(List.of("secrets")).build();
    store.put(m, vector(4));
    store.put(memory("m2", A, "unrelated"), vector(9));
    ForgetRecord audit =
        new ForgetRecord(m.id(), A, "alice", "asked to forget", T0.plusSeconds(60));
    assertTrue(store.delete(m.id(), audit));
    assertTrue(store.get(m.id()).isEmpty());
    assertEquals(List.of(), ids(store.searchText(A, "secret rotation runbook", 10)));
    assertEquals(List.of("m2"), ids(store.searchVector(A, vector(4), 10)));
    assertEquals(List.of(), store.searchRelated(A, Set.of("secrets"), Set.of(), 10));
    assertEquals(1, store.count(A));
    assertEquals(List.of(audit), store.forgotten(A));
    assertEquals(List.of(), store.forgotten(B));
    assertFalse(store.delete(m.id(), audit), "a second delete finds nothing");
    assertEquals(List.of(audit), store.forgotten(A), "and keeps no second record");
  }

  @Test
  default void deleteAll_deletesEachNamedMemory_andKeepsTheRecordsOfThoseThatExisted() {
    MemoryStore store = store();
    store.put(memory("m1", A, "first"), vector(1));
    store.put(memory("m2", A, "second"), vector(2));
    store.put(memory("m3", A, "third"), vector(3));
    ForgetRecord one = new ForgetRecord(MemoryId.of("m1"), A, "alice", "r", T0.plusSeconds(1));
    ForgetRecord missing =
        new ForgetRecord(MemoryId.of("nope"), A, "alice", "r", T0.plusSeconds(2));
    ForgetRecord three = new ForgetRecord(MemoryId.of("m3"), A, "alice", "r", T0.plusSeconds(3));
    assertEquals(2, store.deleteAll(List.of(one, missing, three)));
    assertTrue(store.get(MemoryId.of("m1")).isEmpty());
    assertTrue(store.get(MemoryId.of("m3")).isEmpty());
    assertTrue(store.get(MemoryId.of("m2")).isPresent());
    assertEquals(List.of(one, three), store.forgotten(A));
    assertEquals(1, store.count(A));
    assertThrows(IllegalArgumentException.class, () -> store.deleteAll(List.of(one, one)));
    assertEquals(0, store.deleteAll(List.of()));
  }

  @Test
  default void deleteAll_keepsTheIdsEachRecordSaysItsForgetRemoved() {
    MemoryStore store = store();
    store.put(memory("m1", A, "the consolidated memory"), vector(1));
    store.put(memory("obs-1", A, "the observation it was made from"), vector(2));
    List<MemoryId> together = List.of(MemoryId.of("m1"), MemoryId.of("obs-1"));
    ForgetRecord memory =
        new ForgetRecord(MemoryId.of("m1"), A, "alice", "r", T0.plusSeconds(1), together);
    ForgetRecord source =
        new ForgetRecord(MemoryId.of("obs-1"), A, "alice", "r", T0.plusSeconds(1), together);
    assertEquals(2, store.deleteAll(List.of(memory, source)));
    List<ForgetRecord> kept = store.forgotten(A);
    assertEquals(Set.of(memory, source), Set.copyOf(kept));
    for (ForgetRecord r : kept) {
      assertEquals(together, r.removed(), "the ids in their order, for " + r.id());
    }
  }

  @Test
  default void forgotten_listsTheScopesAuditRecords_oldestFirst() {
    MemoryStore store = store();
    for (int i = 1; i <= 3; i++) {
      store.put(memory("m" + i, A, "memory " + i), vector(i));
    }
    store.put(memory("b1", B, "memory b1"), vector(4));
    ForgetRecord second =
        new ForgetRecord(MemoryId.of("m1"), A, "alice", "wrong", T0.plusSeconds(20));
    ForgetRecord first = new ForgetRecord(MemoryId.of("m2"), A, "bob", "stale", T0.plusSeconds(10));
    ForgetRecord third =
        new ForgetRecord(MemoryId.of("m3"), A, "carol", "moved", T0.plusSeconds(30));
    ForgetRecord inB = new ForgetRecord(MemoryId.of("b1"), B, "dave", "gone", T0.plusSeconds(5));
    for (ForgetRecord r : List.of(second, first, inB, third)) {
      assertTrue(store.delete(r.id(), r));
    }
    assertEquals(List.of(first, second, third), store.forgotten(A));
    assertEquals(List.of(inB), store.forgotten(B));
  }

  @Test
  default void exportForgotten_handsOverTheRecordsOfEveryScope_alsoOneWithNoMemoryLeft() {
    MemoryStore store = store();
    store.put(memory("a1", A, "kept"), vector(1));
    store.put(memory("a2", A, "forgotten"), vector(2));
    store.put(memory("b1", B, "the last of its scope"), vector(3));
    ForgetRecord inA = new ForgetRecord(MemoryId.of("a2"), A, "alice", "r", T0.plusSeconds(1));
    ForgetRecord inB = new ForgetRecord(MemoryId.of("b1"), B, "bob", "r", T0.plusSeconds(2));
    assertEquals(2, store.deleteAll(List.of(inA, inB)));
    Set<ForgetRecord> exported = new java.util.HashSet<>();
    assertEquals(2, store.exportForgotten(exported::add));
    assertEquals(Set.of(inA, inB), exported);
  }

  // ---------------------------------------------------------------------------------------------
  // export

  @Test
  default void export_handsOverEveryVersionInEveryScope_butNoForgottenMemory() {
    MemoryStore store = store();
    Memory a1 = memory("a1", A, "first in a");
    Memory a2 = memory("a2", A, "second in a");
    Memory b1 = memory("b1", B, "first in b");
    Memory gone = memory("gone", B, "forgotten");
    store.put(a1, vector(1));
    store.put(a2, vector(2));
    store.put(b1, vector(3));
    store.put(gone, vector(4));
    Memory a1v2 = StoreFixtures.nextVersion(a1, "a1v2", "first in a, revised");
    store.putNewVersion(a1v2, vector(5));
    assertTrue(store.delete(gone.id(), new ForgetRecord(gone.id(), B, "alice", "x", T0)));

    Map<MemoryId, Memory> exported = new LinkedHashMap<>();
    ExportResult result = store.export(m -> exported.put(m.id(), m));

    assertEquals(new ExportResult(4, 0), result);
    assertEquals(
        Map.of(a1.id(), a1.withLatest(false), a2.id(), a2, b1.id(), b1, a1v2.id(), a1v2), exported);
  }
}
