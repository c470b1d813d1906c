package dev.memhook.testkit;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.OTHER_MODEL;
import static dev.memhook.testkit.StoreFixtures.T0;
import static dev.memhook.testkit.StoreFixtures.nextVersion;
import static dev.memhook.testkit.StoreFixtures.vectorOfTheWrongDimension;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link MemoryStore} must have, whatever it declares in {@link
 * MemoryStore#capabilities()}. Extend it, implement {@link #newStore()}, and implement the contract
 * interface of each capability your store declares, so its tests run too:
 *
 * <pre>{@code
 * class MyStoreContractTest extends MemoryStoreContract
 *     implements AtomicBatchStoreContract, DurableStoreContract {
 *   @TempDir Path dir;
 *   private int stores;
 *
 *   @Override protected MemoryStore newStore() { return openStore(dir.resolve("store-" + stores++)); }
 *   @Override public MemoryStore openStore(Path location) { return new MyStore(location); }
 * }
 * }</pre>
 *
 * <h2>The pieces</h2>
 *
 * This class is the entry point: it holds the fixtures and the lifecycle of the store under test,
 * checks the declared capabilities, and tests attaching, null arguments, closing and concurrent
 * use. The rest of the basic contract is in interfaces this class implements, so a subclass runs
 * them with no declaration of its own: {@link StoreWriteContract} (put, putAll, get, delete and the
 * audit records), {@link StoreSearchContract} (text, vector and related search, scopes and
 * versions) and {@link StoreListingContract} (the latest memories of a scope listed by type). Each
 * reaches the store through {@link #store()}.
 *
 * <h2>Capabilities</h2>
 *
 * The contracts are split the way the capabilities are: this class and the interfaces it implements
 * are the contract of every store; {@link DurableStoreContract} adds what {@link
 * StoreCapability#DURABLE} promises (writes survive a close and a reopen of the same location) and
 * {@link AtomicBatchStoreContract} what {@link StoreCapability#ATOMIC_BATCH} promises (a failed
 * {@code putAll} writes nothing). Both ways are checked: {@code
 * capabilities_areConstant_andEachDeclaredOneIsTestedByThisClass} fails when the store declares a
 * capability whose contract interface the test class does not implement, and each contract
 * interface fails when its store does not declare the capability.
 *
 * <p>A store without {@code ATOMIC_BATCH} keeps {@link MemoryStore#putAll}'s default promise only:
 * a valid batch is stored whole, and two memories with one id are rejected with an {@link
 * IllegalArgumentException}. What a failed batch leaves behind is not checked for such a store: the
 * default puts one memory at a time, so the memories before the failing one may be stored, and a
 * store may just as well check the whole batch first.
 *
 * <h2>Fixtures</h2>
 *
 * Each test gets a fresh, empty store from {@link #newStore()}, already {@linkplain
 * MemoryStore#attach attached} to {@link StoreFixtures#SPACE}, and closes it afterwards. Vectors
 * are {@link StoreFixtures#vector(int)}: near-orthogonal unit vectors, so nearest-neighbour answers
 * are unambiguous. Stores whose text search is not BM25 still pass: text tests check that a memory
 * holding a query's word is found, that one without any is not, and that scores descend and stay
 * under the ceiling the search returns; never a BM25 value. Randomised tests follow {@link Seeds}:
 * a failure names its seed, and {@code -Dmemhook.seed=N} replays it.
 */
public abstract class MemoryStoreContract
    implements StoreWriteContract, StoreSearchContract, StoreListingContract {

  /** The dimension of the contract's vectors. */
  protected static final int DIMENSION = StoreFixtures.DIMENSION;

  /** The model id the contract attaches with. */
  protected static final String MODEL_ID = StoreFixtures.MODEL_ID;

  /** The space the store is attached to. */
  protected static final EmbeddingSpace SPACE = StoreFixtures.SPACE;

  /** The store under test, fresh for each test. */
  protected MemoryStore store;

  /** Stores tests opened besides {@link #store}; closed after each test. */
  private final List<MemoryStore> others = new ArrayList<>();

  /** For a subclass: one contract test class per store. */
  protected MemoryStoreContract() {}

  /**
   * Creates a new, empty, unattached store. Called before each test, and again by tests that need a
   * store nothing was attached to: each call must return a store independent of every other (for a
   * store kept in a directory, a new directory each time).
   */
  protected abstract MemoryStore newStore();

  /** The store under test, for the contract interfaces. */
  @Override
  public final MemoryStore store() {
    return store;
  }

  @BeforeEach
  void openStore() {
    store = newStore();
    store.attach(SPACE);
  }

  @AfterEach
  void closeStores() {
    if (store != null) {
      store.close();
    }
    others.forEach(MemoryStore::close);
  }

  /**
   * A unit vector that points mostly along axis {@code axis % DIMENSION}: {@link
   * StoreFixtures#vector}.
   */
  protected static Embedding vector(int axis) {
    return StoreFixtures.vector(axis);
  }

  /** A memory in {@code scope} with the given id and content: {@link StoreFixtures#memory}. */
  protected static Memory memory(String id, Scope scope, String content) {
    return StoreFixtures.memory(id, scope, content);
  }

  /** The ids of {@code hits}, in order. */
  protected static List<String> ids(TextHits hits) {
    return StoreFixtures.ids(hits);
  }

  /** The ids of {@code hits}, in order. */
  protected static List<String> ids(List<StoreHit> hits) {
    return StoreFixtures.ids(hits);
  }

  private MemoryStore unattachedStore() {
    MemoryStore other = newStore();
    others.add(other);
    return other;
  }

  // ---------------------------------------------------------------------------------------------
  // capabilities

  @Test
  void capabilities_areConstant_andEachDeclaredOneIsTestedByThisClass() {
    Set<StoreCapability> declared = store.capabilities();
    assertEquals(declared, store.capabilities(), "capabilities are constant");
    for (StoreCapability capability : declared) {
      Class<?> contract =
          switch (capability) {
            case DURABLE -> DurableStoreContract.class;
            case ATOMIC_BATCH -> AtomicBatchStoreContract.class;
            case PASSAGE_VECTORS -> PassageVectorsStoreContract.class;
          };
      assertTrue(
          contract.isInstance(this),
          store
              + " declares "
              + capability
              + ": "
              + getClass().getName()
              + " must implement "
              + contract.getSimpleName()
              + " so that its contract runs");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // attach

  @Test
  void write_beforeAttach_throwsIllegalState_andStoresNothing() {
    MemoryStore unattached = unattachedStore();
    Memory m1 = memory("m1", A, "written too early");
    assertThrows(IllegalStateException.class, () -> unattached.put(m1, vector(1)));
    assertThrows(
        IllegalStateException.class,
        () -> unattached.putAll(Map.of(memory("m2", A, "also early"), vector(2))));
    unattached.attach(SPACE);
    assertEquals(Map.of(), unattached.getAll(List.of(m1.id(), MemoryId.of("m2"))));
    assertEquals(0, unattached.count(A));
    unattached.put(m1, vector(1));
    assertEquals(m1, unattached.get(m1.id()).orElseThrow(), "attached, it takes writes");
  }

  @Test
  void attach_theSameSpaceAgain_keepsEverything() {
    Memory m1 = memory("m1", A, "kept across attaches");
    store.put(m1, vector(1));
    store.attach(SPACE);
    assertEquals(m1, store.get(m1.id()).orElseThrow());
    assertEquals(List.of("m1"), ids(store.searchVector(A, vector(1), 10)));
    store.put(memory("m2", A, "written after"), vector(2));
    assertEquals(2, store.count(A));
  }

  @Test
  void attach_anotherSpace_onAStoreHoldingVectors_throwsIncompatibleStore_andChangesNothing() {
    Memory m1 = memory("m1", A, "x");
    store.put(m1, vector(1));
    assertThrows(IncompatibleStoreException.class, () -> store.attach(OTHER_MODEL));
    assertThrows(
        IncompatibleStoreException.class,
        () -> store.attach(new EmbeddingSpace(MODEL_ID, DIMENSION * 2)));
    assertEquals(m1, store.get(m1.id()).orElseThrow());
    assertEquals(List.of("m1"), ids(store.searchVector(A, vector(1), 10)));
    store.put(memory("m2", A, "y"), vector(2));
    assertThrows(
        IllegalArgumentException.class,
        () -> store.put(memory("m3", A, "z"), vectorOfTheWrongDimension()),
        "the store still holds the first space");
  }

  // ---------------------------------------------------------------------------------------------
  // nulls and lifecycle

  @Test
  void nullArguments_areRejected_byEveryMethod() {
    Memory v1 = memory("v1", A, "x");
    store.put(v1, vector(1));
    Memory v2 = nextVersion(v1, "v2", "y");
    ForgetRecord audit = new ForgetRecord(v1.id(), A, "alice", "why", T0);
    assertThrows(NullPointerException.class, () -> store.attach(null));
    assertThrows(NullPointerException.class, () -> store.put(null, vector(1)));
    assertThrows(NullPointerException.class, () -> store.put(v1, null));
    assertThrows(NullPointerException.class, () -> store.putAll(null));
    assertThrows(NullPointerException.class, () -> store.putNewVersion(null, vector(1)));
    assertThrows(NullPointerException.class, () -> store.putNewVersion(v2, null));
    assertThrows(NullPointerException.class, () -> store.get(null));
    assertThrows(NullPointerException.class, () -> store.getAll(null));
    assertThrows(NullPointerException.class, () -> store.delete(null, audit));
    assertThrows(NullPointerException.class, () -> store.delete(v1.id(), null));
    assertThrows(NullPointerException.class, () -> store.forgotten(null));
    assertThrows(NullPointerException.class, () -> store.exportForgotten(null));
    assertThrows(NullPointerException.class, () -> store.searchText(null, "x", 3));
    assertThrows(NullPointerException.class, () -> store.searchText(A, null, 3));
    assertThrows(NullPointerException.class, () -> store.searchVector(null, vector(1), 3));
    assertThrows(NullPointerException.class, () -> store.searchVector(A, null, 3));
    assertThrows(
        NullPointerException.class, () -> store.searchRelated(null, Set.of("c"), Set.of(), 3));
    assertThrows(NullPointerException.class, () -> store.searchRelated(A, null, Set.of(), 3));
    assertThrows(NullPointerException.class, () -> store.searchRelated(A, Set.of("c"), null, 3));
    assertThrows(NullPointerException.class, () -> store.count(null));
    assertThrows(
        NullPointerException.class, () -> store.listByType(null, List.of(MemoryType.FACT), 3));
    assertThrows(NullPointerException.class, () -> store.listByType(A, null, 3));
    assertEquals(v1, store.get(v1.id()).orElseThrow(), "no rejected call changed anything");
    assertTrue(store.get(v2.id()).isEmpty());
  }

  @Test
  void afterClose_everyMethodButCapabilitiesThrowsIllegalState_andCloseIsIdempotent() {
    Set<StoreCapability> capabilities = store.capabilities();
    Memory m1 = memory("m1", A, "x");
    store.put(m1, vector(1));
    Memory m2 = nextVersion(m1, "m2", "y");
    store.close();
    store.close();
    assertEquals(capabilities, store.capabilities(), "capabilities are callable after close");
    assertThrows(IllegalStateException.class, () -> store.attach(SPACE));
    assertThrows(IllegalStateException.class, () -> store.put(memory("m3", A, "z"), vector(1)));
    assertThrows(
        IllegalStateException.class, () -> store.putAll(Map.of(memory("m3", A, "z"), vector(1))));
    assertThrows(IllegalStateException.class, () -> store.putNewVersion(m2, vector(2)));
    assertThrows(IllegalStateException.class, () -> store.get(m1.id()));
    assertThrows(IllegalStateException.class, () -> store.getAll(List.of(m1.id())));
    assertThrows(
        IllegalStateException.class,
        () -> store.delete(m1.id(), new ForgetRecord(m1.id(), A, "alice", "why", T0)));
    assertThrows(IllegalStateException.class, () -> store.forgotten(A));
    assertThrows(IllegalStateException.class, () -> store.exportForgotten(r -> {}));
    assertThrows(IllegalStateException.class, () -> store.searchText(A, "x", 3));
    assertThrows(IllegalStateException.class, () -> store.searchVector(A, vector(1), 3));
    assertThrows(
        IllegalStateException.class, () -> store.searchRelated(A, Set.of("c"), Set.of(), 3));
    assertThrows(IllegalStateException.class, () -> store.count(A));
    assertThrows(
        IllegalStateException.class, () -> store.listByType(A, List.of(MemoryType.FACT), 3));
    store = null;
  }

  // ---------------------------------------------------------------------------------------------
  // threads

  @Test
  void concurrentPutsAndSearches_loseNothing() throws Exception {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    int threads = 4;
    int putsPerThread = 12;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        long threadSeed = random.nextLong();
        futures.add(
            pool.submit(
                () -> {
                  Random r = new Random(threadSeed);
                  for (int i = 0; i < putsPerThread; i++) {
                    store.put(
                        memory(
                            "t" + thread + "-" + i,
                            A,
                            "concurrent note " + r.nextInt(1000) + " item " + i),
                        vector(r.nextInt(DIMENSION)));
                    if (r.nextBoolean()) {
                      store.searchText(A, "concurrent note", 5);
                    } else {
                      store.searchVector(A, vector(i), 5);
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    int expected = threads * putsPerThread;
    assertEquals(expected, store.count(A), Seeds.replay(seed));
    Set<String> found = new HashSet<>(ids(store.searchText(A, "concurrent", 500)));
    assertEquals(
        expected, found.size(), "every acknowledged put is searchable; " + Seeds.replay(seed));
  }
}
