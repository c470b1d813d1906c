package dev.memhook.testkit;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.B;
import static dev.memhook.testkit.StoreFixtures.T0;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.nextVersion;
import static dev.memhook.testkit.StoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.TypeListing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The listing of the basic store contract: {@link MemoryStore#listByType}, the latest memories of a
 * scope of the types asked, in the types' order, then the most important, then the newest, cut to a
 * limit and counted whole; never a superseded version, a forgotten memory or another scope's. What
 * a service offers a session at its start is read this way.
 *
 * <p>{@link MemoryStoreContract} implements it, so every store's contract test runs these tests
 * with no declaration of its own; {@link #store()} is that class's fresh, attached store.
 */
public interface StoreListingContract {

  /**
   * The store under test, fresh and attached for each test: {@link MemoryStoreContract#store()}.
   */
  MemoryStore store();

  @Test
  default void listByType_ordersByTheTypesGiven_thenImportance_thenNewest_andCountsAll() {
    MemoryStore store = store();
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    batch.put(typed("fact-old", A, MemoryType.FACT, 0.5, 0), vector(1));
    batch.put(typed("fact-new", A, MemoryType.FACT, 0.5, 60), vector(2));
    batch.put(typed("fact-important", A, MemoryType.FACT, 0.9, 0), vector(3));
    batch.put(typed("pref", A, MemoryType.PREFERENCE, 0.1, 0), vector(4));
    batch.put(typed("decision", A, MemoryType.DECISION, 0.3, 30), vector(5));
    batch.put(typed("obs", A, MemoryType.OBSERVATION, 1.0, 90), vector(6));
    batch.put(typed("bug", A, MemoryType.BUG, 1.0, 90), vector(7));
    store.putAll(batch);

    TypeListing listed =
        store.listByType(
            A, List.of(MemoryType.PREFERENCE, MemoryType.DECISION, MemoryType.FACT), 10);

    assertEquals(
        List.of("pref", "decision", "fact-important", "fact-new", "fact-old"), ids(listed));
    assertEquals(5, listed.total());
    assertEquals(
        List.of("fact-important", "fact-new", "fact-old", "pref"),
        ids(store.listByType(A, List.of(MemoryType.FACT, MemoryType.PREFERENCE), 10)),
        "the types' order is the caller's");
    assertEquals(
        List.of("obs"),
        ids(store.listByType(A, List.of(MemoryType.OBSERVATION), 10)),
        "observations are listed only when asked for");
  }

  @Test
  default void listByType_cutsAtTheLimit_acrossTypes_andStillCountsEveryMemory() {
    MemoryStore store = store();
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    for (int i = 0; i < 4; i++) {
      batch.put(typed("pref-" + i, A, MemoryType.PREFERENCE, 0.5, i), vector(i));
      batch.put(typed("fact-" + i, A, MemoryType.FACT, 0.5, i), vector(i + 4));
    }
    for (int i = 0; i < 30; i++) {
      batch.put(typed("obs-" + i, A, MemoryType.OBSERVATION, 0.5, i), vector(i + 8));
    }
    store.putAll(batch);
    List<MemoryType> types = List.of(MemoryType.PREFERENCE, MemoryType.FACT);

    TypeListing five = store.listByType(A, types, 5);

    assertEquals(List.of("pref-3", "pref-2", "pref-1", "pref-0", "fact-3"), ids(five));
    assertEquals(8, five.total());
    TypeListing one = store.listByType(A, types, 1);
    assertEquals(List.of("pref-3"), ids(one));
    assertEquals(8, one.total());
  }

  @Test
  default void listByType_listsLatestVersionsOfThisScopeOnly_neverAForgottenMemory() {
    MemoryStore store = store();
    Memory v1 = typed("v1", A, MemoryType.PREFERENCE, 0.5, 0);
    store.put(v1, vector(1));
    store.putNewVersion(
        nextVersion(v1, "v2", "tabs, not spaces").toBuilder()
            .type(MemoryType.PREFERENCE)
            .createdAt(T0.plusSeconds(10))
            .build(),
        vector(2));
    Memory gone = typed("gone", A, MemoryType.PREFERENCE, 0.9, 0);
    store.put(gone, vector(3));
    store.delete(gone.id(), new ForgetRecord(gone.id(), A, "alice", "wrong", T0));
    store.put(typed("theirs", B, MemoryType.PREFERENCE, 1.0, 99), vector(4));
    store.put(typed("nested", Scope.of("tenant-a", "sub"), MemoryType.PREFERENCE, 1, 9), vector(5));

    TypeListing listed = store.listByType(A, List.of(MemoryType.PREFERENCE), 10);

    assertEquals(List.of("v2"), ids(listed));
    assertEquals(1, listed.total());
    assertEquals(List.of("theirs"), ids(store.listByType(B, List.of(MemoryType.PREFERENCE), 10)));
    assertEquals(
        TypeListing.empty(), store.listByType(Scope.of("tenant-c"), List.of(MemoryType.FACT), 10));
  }

  @Test
  default void listByType_returnsTheRecordsAsStored() {
    MemoryStore store = store();
    Memory m =
        typed("m1", A, MemoryType.DECISION, 0.7, 5).toBuilder()
            .title("Koin over Hilt")
            .concepts(List.of("di"))
            .sourceSession("s-1")
            .build();
    store.put(m, vector(1));

    assertEquals(List.of(m), store.listByType(A, List.of(MemoryType.DECISION), 1).memories());
  }

  @Test
  default void listByType_rejectsNoTypes_aRepeatedType_aLimitBelowOne_andNulls() {
    MemoryStore store = store();
    store.put(typed("m1", A, MemoryType.FACT, 0.5, 0), vector(1));
    assertThrows(IllegalArgumentException.class, () -> store.listByType(A, List.of(), 5));
    assertThrows(
        IllegalArgumentException.class,
        () -> store.listByType(A, List.of(MemoryType.FACT, MemoryType.FACT), 5));
    assertThrows(
        IllegalArgumentException.class, () -> store.listByType(A, List.of(MemoryType.FACT), 0));
    assertThrows(
        NullPointerException.class, () -> store.listByType(null, List.of(MemoryType.FACT), 5));
    assertThrows(NullPointerException.class, () -> store.listByType(A, null, 5));
    assertThrows(
        NullPointerException.class,
        () -> store.listByType(A, Arrays.asList(MemoryType.FACT, null), 5));
  }

  /**
   * A memory of {@code type} with {@code importance}, stored {@code seconds} after {@link
   * StoreFixtures#T0}.
   */
  private static Memory typed(
      String id, Scope scope, MemoryType type, double importance, int seconds) {
    return memory(id, scope, "memory " + id).toBuilder()
        .type(type)
        .importance(importance)
        .createdAt(T0.plus(Duration.ofSeconds(seconds)))
        .build();
  }

  private static List<String> ids(TypeListing listing) {
    List<String> out = new ArrayList<>();
    listing.memories().forEach(m -> out.add(m.id().value()));
    return out;
  }
}
