package dev.memhook.testkit;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.B;
import static dev.memhook.testkit.StoreFixtures.T0;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.nextVersion;
import static dev.memhook.testkit.StoreFixtures.vector;
import static dev.memhook.testkit.StoreFixtures.vectorOfTheWrongDimension;
import static dev.memhook.testkit.StoreFixtures.zeroVector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link StoreCapability#PASSAGE_VECTORS}: the passage vectors a memory is put with
 * are kept with it, {@link MemoryStore#passageCosines} answers the best of them for the latest
 * memories of the scope asked, and every write that replaces, supersedes or deletes the memory
 * takes them with it.
 *
 * <p>Implement it in a {@link MemoryStoreContract} subclass whose store declares {@code
 * PASSAGE_VECTORS}; {@link #store()} is the base contract's fresh, attached store. Cosines are
 * compared within {@link #TOLERANCE}, since a store may keep passages at a lower precision.
 */
public interface PassageVectorsStoreContract {

  /** How far a store's cosine may be from the exact one: int8 passages stay well within it. */
  double TOLERANCE = 0.02;

  /**
   * The store under test, fresh and attached for each test: {@link MemoryStoreContract#store()}.
   */
  MemoryStore store();

  @Test
  default void passageVectors_isDeclaredByTheStore() {
    assertTrue(
        store().capabilities().contains(StoreCapability.PASSAGE_VECTORS),
        store()
            + " is tested as PASSAGE_VECTORS but does not declare it: "
            + store().capabilities());
  }

  @Test
  default void passageCosines_giveEachMemoryItsBestPassage_inTheOrderAsked() {
    MemoryStore store = store();
    store.put(
        memory("m1", A, "two sentences. about axes three and five"),
        vector(1),
        List.of(vector(3), vector(5)));
    store.put(memory("m2", A, "one passage only"), vector(2), List.of(vector(7)));
    store.put(memory("m3", A, "no passages at all"), vector(5));

    Map<MemoryId, Double> cosines =
        store.passageCosines(A, ids("m2", "unknown", "m3", "m1"), vector(5));

    assertEquals(List.of(id("m2"), id("m1")), new ArrayList<>(cosines.keySet()));
    assertClose(1.0, cosines.get(id("m1")), "m1's best passage is vector(5) itself");
    assertClose(vector(7).cosine(vector(5)), cosines.get(id("m2")), "m2's only passage");
  }

  @Test
  default void passageCosines_ofAZeroPassage_isZero_andAnOppositeOneIsNegative() {
    MemoryStore store = store();
    float[] opposite = vector(4).toArray();
    for (int i = 0; i < opposite.length; i++) {
      opposite[i] = -opposite[i];
    }
    store.put(memory("m1", A, "a zero passage"), vector(1), List.of(zeroVector()));
    store.put(memory("m2", A, "an opposite passage"), vector(2), List.of(Embedding.of(opposite)));

    Map<MemoryId, Double> cosines = store.passageCosines(A, ids("m1", "m2"), vector(4));

    assertClose(0.0, cosines.get(id("m1")), "a zero vector is as near as nothing");
    assertClose(-1.0, cosines.get(id("m2")), "the opposite direction");
  }

  @Test
  default void passageCosines_neverAnswerForAnotherScope() {
    MemoryStore store = store();
    store.put(memory("m1", B, "the other scope's passages"), vector(1), List.of(vector(4)));

    assertEquals(Map.of(), store.passageCosines(A, ids("m1"), vector(4)));
    assertEquals(
        Set.of(id("m1")),
        store.passageCosines(B, ids("m1"), vector(4)).keySet(),
        "in its own scope it answers");
  }

  @Test
  default void put_ofTheSameId_replacesThePassages() {
    MemoryStore store = store();
    store.put(memory("m1", A, "first words"), vector(1), List.of(vector(4)));
    store.put(memory("m1", A, "second words"), vector(1), List.of(vector(6)));

    assertClose(1.0, store.passageCosines(A, ids("m1"), vector(6)).get(id("m1")), "the new one");
    assertTrue(
        store.passageCosines(A, ids("m1"), vector(4)).get(id("m1")) < 0.5,
        "the old passage is gone");

    store.put(memory("m1", A, "third words, no passages"), vector(1));
    assertEquals(Map.of(), store.passageCosines(A, ids("m1"), vector(6)), "a plain put drops them");
  }

  @Test
  default void delete_dropsThePassages() {
    MemoryStore store = store();
    store.put(memory("m1", A, "to be forgotten"), vector(1), List.of(vector(4)));

    assertTrue(
        store.delete(id("m1"), new ForgetRecord(id("m1"), A, "alice", "asked to forget", T0)));

    assertEquals(Map.of(), store.passageCosines(A, ids("m1"), vector(4)));
  }

  @Test
  default void putNewVersion_answersForTheNewVersionOnly() {
    MemoryStore store = store();
    Memory first = memory("m1", A, "the first version");
    store.put(first, vector(1), List.of(vector(4)));

    store.putNewVersion(
        nextVersion(first, "m2", "the second version"), vector(2), List.of(vector(8)));

    Map<MemoryId, Double> cosines = store.passageCosines(A, ids("m1", "m2"), vector(8));
    assertEquals(List.of(id("m2")), new ArrayList<>(cosines.keySet()), "superseded: not asked");
    assertClose(1.0, cosines.get(id("m2")), "the new version's passage");
  }

  @Test
  default void putAll_keepsThePassagesOfEachMemoryThatHasThem() {
    MemoryStore store = store();
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    batch.put(memory("m1", A, "with passages"), vector(1));
    batch.put(memory("m2", A, "without passages"), vector(2));
    batch.put(memory("m3", A, "with other passages"), vector(3));

    store.putAll(batch, Map.of(id("m1"), List.of(vector(9)), id("m3"), List.of(vector(10))));

    Map<MemoryId, Double> cosines = store.passageCosines(A, ids("m1", "m2", "m3"), vector(10));
    assertEquals(List.of(id("m1"), id("m3")), new ArrayList<>(cosines.keySet()));
    assertClose(1.0, cosines.get(id("m3")), "m3's passage");
    assertClose(vector(9).cosine(vector(10)), cosines.get(id("m1")), "m1's passage");
    assertEquals(3, store.count(A), "every memory of the batch is stored");
  }

  @Test
  default void put_withTheMostPassagesAllowed_keepsThemAll() {
    MemoryStore store = store();
    List<Embedding> passages = new ArrayList<>();
    for (int i = 0; i < MemoryStore.MAX_PASSAGES; i++) {
      passages.add(vector(i));
    }
    store.put(memory("m1", A, "many sentences"), vector(1), passages);

    for (int i = 0; i < MemoryStore.MAX_PASSAGES; i++) {
      assertClose(
          1.0,
          store.passageCosines(A, ids("m1"), vector(i)).get(id("m1")),
          "passage " + i + " is kept");
    }
  }

  @Test
  default void put_withTooManyPassages_throws_andStoresNothing() {
    MemoryStore store = store();
    List<Embedding> passages =
        new ArrayList<>(Collections.nCopies(MemoryStore.MAX_PASSAGES + 1, vector(2)));

    assertThrows(
        IllegalArgumentException.class,
        () -> store.put(memory("m1", A, "too many"), vector(1), passages));

    assertTrue(store.get(id("m1")).isEmpty(), "nothing was written");
  }

  @Test
  default void put_withAPassageOfTheWrongDimension_throws_andStoresNothing() {
    MemoryStore store = store();
    store.put(memory("m1", A, "kept as it was"), vector(1), List.of(vector(4)));

    assertThrows(
        IllegalArgumentException.class,
        () ->
            store.put(
                memory("m1", A, "replaced?"),
                vector(1),
                List.of(vector(5), vectorOfTheWrongDimension())));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            store.putAll(
                Map.of(memory("m2", A, "a batch"), vector(2)),
                Map.of(id("m2"), List.of(vectorOfTheWrongDimension()))));

    assertEquals("kept as it was", store.get(id("m1")).orElseThrow().content());
    assertClose(1.0, store.passageCosines(A, ids("m1"), vector(4)).get(id("m1")), "unchanged");
    assertTrue(store.get(id("m2")).isEmpty(), "the batch wrote nothing");
  }

  @Test
  default void putAll_withPassagesOfAnIdNotInTheBatch_throws_andStoresNothing() {
    MemoryStore store = store();

    assertThrows(
        IllegalArgumentException.class,
        () ->
            store.putAll(
                Map.of(memory("m1", A, "in the batch"), vector(1)),
                Map.of(id("elsewhere"), List.of(vector(2)))));

    assertTrue(store.get(id("m1")).isEmpty(), "nothing was written");
  }

  @Test
  default void passageCosines_withAQueryOfTheWrongDimension_throws() {
    MemoryStore store = store();
    store.put(memory("m1", A, "some words"), vector(1), List.of(vector(4)));

    assertThrows(
        IllegalArgumentException.class,
        () -> store.passageCosines(A, ids("m1"), vectorOfTheWrongDimension()));
  }

  private static List<MemoryId> ids(String... ids) {
    List<MemoryId> out = new ArrayList<>();
    for (String id : ids) {
      out.add(MemoryId.of(id));
    }
    return out;
  }

  private static MemoryId id(String id) {
    return MemoryId.of(id);
  }

  private static void assertClose(double expected, Double actual, String what) {
    assertTrue(actual != null, what + ": no cosine");
    assertEquals(expected, actual, TOLERANCE, what);
  }
}
