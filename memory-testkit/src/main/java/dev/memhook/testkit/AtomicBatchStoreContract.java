package dev.memhook.testkit;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.B;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.observe;
import static dev.memhook.testkit.StoreFixtures.vector;
import static dev.memhook.testkit.StoreFixtures.vectorOfTheWrongDimension;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link StoreCapability#ATOMIC_BATCH}: {@link MemoryStore#putAll} is all-or-none.
 * A batch that throws leaves the store exactly as it was: no new memory of the batch is there, and
 * no memory the batch would have replaced is replaced, by id or in any search.
 *
 * <p>Implement it in a {@link MemoryStoreContract} subclass whose store declares {@code
 * ATOMIC_BATCH}; {@link #store()} is the base contract's fresh, attached store. Each batch here
 * fails at its first, middle and last member in turn, so a store that writes member by member is
 * caught whichever order it writes in.
 */
public interface AtomicBatchStoreContract {

  /**
   * The store under test, fresh and attached for each test: {@link MemoryStoreContract#store()}.
   */
  MemoryStore store();

  @Test
  default void atomicBatch_isDeclaredByTheStore() {
    assertTrue(
        store().capabilities().contains(StoreCapability.ATOMIC_BATCH),
        store() + " is tested as ATOMIC_BATCH but does not declare it: " + store().capabilities());
  }

  @Test
  default void putAll_withAnEmbeddingOfTheWrongDimension_throws_andLeavesTheStoreExactlyAsItWas() {
    MemoryStore store = store();
    store.put(
        memory("m1", A, "the old words about ansible").toBuilder()
            .concepts(List.of("config"))
            .build(),
        vector(1));
    store.put(memory("m2", B, "the other scope's words"), vector(2));
    for (int failing = 0; failing < 3; failing++) {
      List<Map.Entry<Memory, Embedding>> members =
          new ArrayList<>(
              List.of(
                  Map.entry(
                      memory("m1", A, "the new words about puppet").toBuilder()
                          .concepts(List.of("puppet"))
                          .build(),
                      vector(3)),
                  Map.entry(memory("n1", A, "chef cookbooks"), vector(4)),
                  Map.entry(memory("n2", B, "salt states"), vector(5))));
      Map.Entry<Memory, Embedding> bad = members.get(failing);
      members.set(failing, Map.entry(bad.getKey(), vectorOfTheWrongDimension()));
      assertBatchFailsAndChangesNothing(
          store,
          members,
          IllegalArgumentException.class,
          "member " + failing + " has an embedding of the wrong dimension");
    }
  }

  @Test
  default void putAll_withTwoMemoriesOfOneId_throws_andLeavesTheStoreExactlyAsItWas() {
    MemoryStore store = store();
    store.put(
        memory("m1", A, "the old words about ansible").toBuilder()
            .concepts(List.of("config"))
            .build(),
        vector(1));
    for (int duplicate = 0; duplicate < 3; duplicate++) {
      List<Map.Entry<Memory, Embedding>> members =
          new ArrayList<>(
              List.of(
                  Map.entry(
                      memory("m1", A, "the new words about puppet").toBuilder()
                          .concepts(List.of("puppet"))
                          .build(),
                      vector(3)),
                  Map.entry(memory("n1", A, "chef cookbooks"), vector(4)),
                  Map.entry(memory("n2", A, "salt states"), vector(5))));
      String id = members.get((duplicate + 1) % 3).getKey().id().value();
      members.add(
          duplicate,
          Map.entry(memory(id, A, "a second memory with id " + id + " and puppet"), vector(6)));
      assertBatchFailsAndChangesNothing(
          store,
          members,
          IllegalArgumentException.class,
          "two memories have id " + id + " (at " + duplicate + ")");
    }
  }

  @Test
  default void putAll_aValidBatch_replacesAndAddsTogether() {
    MemoryStore store = store();
    store.put(memory("m1", A, "the old words about ansible"), vector(1));
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    batch.put(memory("m1", A, "the new words about puppet"), vector(3));
    batch.put(memory("n1", A, "chef cookbooks and puppet"), vector(4));
    store.putAll(batch);
    assertEquals(
        Set.of("m1", "n1"), Set.copyOf(StoreFixtures.ids(store.searchText(A, "puppet", 10))));
    assertEquals(List.of(), StoreFixtures.ids(store.searchText(A, "ansible", 10)));
    assertEquals(2, store.count(A));
  }

  private static void assertBatchFailsAndChangesNothing(
      MemoryStore store,
      List<Map.Entry<Memory, Embedding>> members,
      Class<? extends Throwable> expected,
      String why) {
    List<String> ids = List.of("m1", "m2", "n1", "n2");
    List<String> words = List.of("ansible", "puppet", "chef", "salt", "words");
    List<Integer> axes = List.of(1, 3, 4, 5, 6);
    Set<String> concepts = Set.of("config", "puppet");
    StoreFixtures.Observation before = observe(store, ids, words, axes, concepts);
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    members.forEach(e -> batch.put(e.getKey(), e.getValue()));
    assertThrows(expected, () -> store.putAll(batch), why);
    assertEquals(
        before,
        observe(store, ids, words, axes, concepts),
        "a batch where " + why + " wrote something");
  }
}
