package dev.memhook.testkit;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.B;
import static dev.memhook.testkit.StoreFixtures.OTHER_MODEL;
import static dev.memhook.testkit.StoreFixtures.T0;
import static dev.memhook.testkit.StoreFixtures.nextVersion;
import static dev.memhook.testkit.StoreFixtures.observe;
import static dev.memhook.testkit.StoreFixtures.vectorOfTheWrongDimension;
import static dev.memhook.testkit.StoreFixtures.zeroVector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
 * <h2>Capabilities</h2>
 *
 * The contracts are split the way the capabilities are: this class is the contract of every store;
 * {@link DurableStoreContract} adds what {@link StoreCapability#DURABLE} promises (writes survive a
 * close and a reopen of the same location) and {@link AtomicBatchStoreContract} what {@link
 * StoreCapability#ATOMIC_BATCH} promises (a failed {@code putAll} writes nothing). Both ways are
 * checked: {@code capabilities_areConstant_andEachDeclaredOneIsTestedByThisClass} fails when the
 * store declares a capability whose contract interface the test class does not implement, and each
 * contract interface fails when its store does not declare the capability.
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
public abstract class MemoryStoreContract {

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

  /**
   * Creates a new, empty, unattached store. Called before each test, and again by tests that need a
   * store nothing was attached to: each call must return a store independent of every other (for a
   * store kept in a directory, a new directory each time).
   */
  protected abstract MemoryStore newStore();

  /** The store under test, for the capability contracts. */
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
  // put, get, getAll

  @Test
  void put_thenGet_returnsAnEqualMemory() {
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
  void get_unknownId_isEmpty() {
    assertTrue(store.get(MemoryId.of("nope")).isEmpty());
  }

  @Test
  void put_sameIdTwice_replacesTheRecord() {
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
  void getAll_returnsTheExistingOnes_inTheOrderAsked() {
    store.put(memory("m1", A, "one"), vector(1));
    store.put(memory("m2", B, "two"), vector(2));
    Map<MemoryId, Memory> got =
        store.getAll(List.of(MemoryId.of("m2"), MemoryId.of("zz"), MemoryId.of("m1")));
    assertEquals(List.of(MemoryId.of("m2"), MemoryId.of("m1")), new ArrayList<>(got.keySet()));
    assertEquals("two", got.get(MemoryId.of("m2")).content());
  }

  @Test
  void put_withAVectorOfAnotherDimension_isRejected_andStoresNothing() {
    assertThrows(
        IllegalArgumentException.class,
        () -> store.put(memory("m1", A, "x"), vectorOfTheWrongDimension()));
    assertTrue(store.get(MemoryId.of("m1")).isEmpty());
    assertEquals(0, store.count(A));
  }

  // ---------------------------------------------------------------------------------------------
  // putAll, as every store keeps it

  @Test
  void putAll_storesEveryMemoryOfAValidBatch_andReplacesByIdAsPutDoes() {
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
  void putAll_withTwoMemoriesOfOneId_throwsIllegalArgument() {
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    batch.put(memory("m1", A, "first of two"), vector(1));
    batch.put(memory("m1", A, "second of two"), vector(2));
    assertThrows(IllegalArgumentException.class, () -> store.putAll(batch));
  }

  // ---------------------------------------------------------------------------------------------
  // text search

  @Test
  void searchText_findsTheMemoryHoldingTheWord_andRanksItFirst() {
    store.putAll(
        Map.of(
            memory("m1", A, "postgres connection pool exhausted under load"), vector(1),
            memory("m2", A, "the frontend uses react and vite"), vector(2),
            memory("m3", A, "deploys run every tuesday"), vector(3)));
    List<String> hits = ids(store.searchText(A, "postgres pool", 10));
    assertEquals(List.of("m1"), hits);
  }

  @Test
  void searchText_respectsK_andScoresDescend() {
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      batch.put(
          memory("m" + i, A, "cache eviction note number " + i + " cache".repeat(1 + i % 3)),
          vector(i));
    }
    store.putAll(batch);
    List<StoreHit> hits = store.searchText(A, "cache", 5).hits();
    assertEquals(5, hits.size());
    for (int i = 1; i < hits.size(); i++) {
      assertTrue(
          hits.get(i - 1).score() >= hits.get(i).score(), "scores must not increase: " + hits);
    }
  }

  @Test
  void searchText_ceilingBoundsEveryScore_andIsZeroWithNoHitsForUnknownWords() {
    store.putAll(
        Map.of(
            memory("m1", A, "redis redis redis cluster failover"), vector(1),
            memory("m2", A, "redis sentinel"), vector(2),
            memory("m3", A, "something else entirely"), vector(3)));
    TextHits found = store.searchText(A, "redis failover", 10);
    assertEquals(Set.of("m1", "m2"), Set.copyOf(ids(found)));
    assertTrue(found.ceiling() > 0, "a search with hits has a positive ceiling");
    for (StoreHit hit : found.hits()) {
      assertTrue(hit.score() <= found.ceiling(), hit + " exceeds the ceiling " + found.ceiling());
    }
    for (String unknown : List.of("zyxwvut", "zyxwvut qwertzuiop", "", "  ")) {
      TextHits none = store.searchText(A, unknown, 10);
      assertEquals(List.of(), none.hits(), "'" + unknown + "'");
      assertEquals(0.0, none.ceiling(), "'" + unknown + "'");
    }
  }

  /** Words that the contract's random memories are made of; none shares a stem with another. */
  private static final List<String> WORDS =
      List.of(
          "kafka",
          "redis",
          "postgres",
          "gradle",
          "flutter",
          "nginx",
          "terraform",
          "grpc",
          "spark",
          "docker",
          "helm",
          "vault",
          "consul",
          "envoy",
          "istio",
          "jenkins");

  /** Words that no random memory holds. */
  private static final List<String> ABSENT = List.of("quokka", "marimba", "zephyr");

  @Test
  void searchText_randomised_everyHitHoldsAQueryWord_scoresDescend_andStayUnderTheCeiling() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    Map<String, Set<String>> wordsOf = new LinkedHashMap<>();
    int memories = 10 + random.nextInt(15);
    for (int i = 0; i < memories; i++) {
      Scope scope = random.nextInt(4) == 0 ? B : A;
      List<String> words = new ArrayList<>();
      for (int w = 1 + random.nextInt(5); w > 0; w--) {
        words.add(WORDS.get(random.nextInt(WORDS.size())));
      }
      Memory m = memory("r" + i, scope, String.join(" ", words));
      batch.put(m, vector(i));
      if (scope.equals(A)) {
        wordsOf.put(m.id().value(), new HashSet<>(words));
      }
    }
    store.putAll(batch);
    for (int q = 0; q < 20; q++) {
      List<String> query = new ArrayList<>();
      for (int w = 1 + random.nextInt(3); w > 0; w--) {
        query.add(
            random.nextInt(5) == 0
                ? ABSENT.get(random.nextInt(ABSENT.size()))
                : WORDS.get(random.nextInt(WORDS.size())));
      }
      String text = String.join(" ", query);
      Set<String> holders = new LinkedHashSet<>();
      wordsOf.forEach(
          (id, words) -> {
            if (query.stream().anyMatch(words::contains)) {
              holders.add(id);
            }
          });
      TextHits found = store.searchText(A, text, memories);
      String what = "query '" + text + "', " + Seeds.replay(seed);
      assertTrue(
          holders.containsAll(ids(found)),
          "every hit holds a query word: " + ids(found) + " vs " + holders + ", " + what);
      assertEquals(
          holders.isEmpty(),
          found.isEmpty(),
          "found something exactly when a memory holds a query word, " + what);
      for (int i = 0; i < found.hits().size(); i++) {
        StoreHit hit = found.hits().get(i);
        assertTrue(
            hit.score() <= found.ceiling(),
            hit + " exceeds the ceiling " + found.ceiling() + ", " + what);
        if (i > 0) {
          assertTrue(
              found.hits().get(i - 1).score() >= hit.score(),
              "scores descend: " + found + ", " + what);
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // vector search

  @Test
  void searchVector_returnsNearestFirst_withCosineScores() {
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    for (int i = 0; i < DIMENSION; i++) {
      batch.put(memory("m" + i, A, "memory " + i), vector(i));
    }
    store.putAll(batch);
    List<StoreHit> hits = store.searchVector(A, vector(5), 3);
    assertEquals(3, hits.size());
    assertEquals("m5", hits.get(0).id().value());
    assertEquals(1.0, hits.get(0).score(), 1e-3, "cosine of a vector with itself");
    assertTrue(hits.get(1).score() <= hits.get(0).score());
    assertTrue(hits.get(2).score() <= hits.get(1).score());
  }

  @Test
  void searchVector_withAZeroQueryVector_returnsNoHits() {
    store.put(memory("m1", A, "one"), vector(1));
    store.put(memory("m2", A, "two"), vector(2));
    assertEquals(
        List.of(),
        store.searchVector(A, zeroVector(), 10),
        "cosine with a zero vector is undefined");
  }

  // ---------------------------------------------------------------------------------------------
  // related search

  @Test
  void searchRelated_scoresByTheNumberOfSharedConceptsAndFiles() {
    store.put(
        memory("m1", A, "one").toBuilder()
            .concepts(List.of("auth", "jwt"))
            .files(List.of("src/Auth.java"))
            .build(),
        vector(1));
    store.put(memory("m2", A, "two").toBuilder().concepts(List.of("auth")).build(), vector(2));
    store.put(memory("m3", A, "three").toBuilder().concepts(List.of("billing")).build(), vector(3));
    List<StoreHit> hits =
        store.searchRelated(A, Set.of("auth", "jwt"), Set.of("src/Auth.java"), 10);
    assertEquals(List.of("m1", "m2"), ids(hits));
    assertEquals(3.0, hits.get(0).score(), 1e-9);
    assertEquals(1.0, hits.get(1).score(), 1e-9);
    assertEquals(
        List.of(), store.searchRelated(A, Set.of(), Set.of(), 10), "nothing asked, nothing found");
  }

  @Test
  void searchRelated_matchesConceptsIgnoringCase_butFilesExactly() {
    store.put(
        memory("m1", A, "one").toBuilder()
            .concepts(List.of("OAuth"))
            .files(List.of("src/Auth.java"))
            .build(),
        vector(1));
    assertEquals(List.of("m1"), ids(store.searchRelated(A, Set.of("oauth"), Set.of(), 10)));
    assertEquals(List.of("m1"), ids(store.searchRelated(A, Set.of("OAUTH"), Set.of(), 10)));
    List<StoreHit> oneConcept = store.searchRelated(A, Set.of("oauth", "OAuth"), Set.of(), 10);
    assertEquals(
        1.0, oneConcept.get(0).score(), 1e-9, "two spellings of one concept share it once");
    assertEquals(List.of("m1"), ids(store.searchRelated(A, Set.of(), Set.of("src/Auth.java"), 10)));
    assertEquals(
        List.of(),
        store.searchRelated(A, Set.of(), Set.of("src/auth.java"), 10),
        "file paths are case-sensitive");
    assertEquals(
        List.of(),
        store.searchRelated(A, Set.of(), Set.of("Auth.java"), 10),
        "file paths match whole");
  }

  // ---------------------------------------------------------------------------------------------
  // scope and versions

  @Test
  void everySearch_isFilteredByScope() {
    store.put(
        memory("a1", A, "shared words kubernetes ingress").toBuilder()
            .concepts(List.of("k8s"))
            .build(),
        vector(1));
    store.put(
        memory("b1", B, "shared words kubernetes ingress").toBuilder()
            .concepts(List.of("k8s"))
            .build(),
        vector(1));
    assertEquals(List.of("a1"), ids(store.searchText(A, "kubernetes ingress", 10)));
    assertEquals(List.of("a1"), ids(store.searchVector(A, vector(1), 10)));
    assertEquals(List.of("a1"), ids(store.searchRelated(A, Set.of("k8s"), Set.of(), 10)));
    assertEquals(List.of("b1"), ids(store.searchText(B, "kubernetes ingress", 10)));
    assertEquals(List.of("b1"), ids(store.searchVector(B, vector(1), 10)));
    assertEquals(List.of("b1"), ids(store.searchRelated(B, Set.of("k8s"), Set.of(), 10)));
    assertEquals(1, store.count(A));
    assertEquals(1, store.count(B));
    assertEquals(0, store.count(Scope.of("tenant-c")));
    assertEquals(
        List.of(),
        ids(store.searchText(Scope.of("tenant-a", "sub"), "kubernetes", 10)),
        "scopes do not nest");
  }

  @Test
  void searches_returnLatestVersionsOnly_butGetReturnsOldVersions() {
    Memory v1 = memory("v1", A, "the api gateway timeout is 30 seconds").withLatest(false);
    Memory v2 = nextVersion(v1.withLatest(true), "v2", "the api gateway timeout is 60 seconds");
    store.put(v1, vector(1));
    store.put(v2, vector(1));
    assertEquals(List.of("v2"), ids(store.searchText(A, "gateway timeout", 10)));
    assertEquals(List.of("v2"), ids(store.searchVector(A, vector(1), 10)));
    assertEquals(1, store.count(A));
    assertEquals(v1, store.get(v1.id()).orElseThrow());
  }

  @Test
  void putNewVersion_hidesTheOldVersionFromEverySearch_andGetShowsItNotLatest() {
    Memory v1 =
        memory("v1", A, "the gateway timeout is thirty seconds").toBuilder()
            .concepts(List.of("gateway"))
            .build();
    store.put(v1, vector(1));
    Memory v2 =
        nextVersion(v1, "v2", "the gateway timeout is sixty seconds").toBuilder()
            .concepts(List.of("gateway"))
            .build();
    store.putNewVersion(v2, vector(7));

    assertEquals(
        v1.withLatest(false),
        store.get(v1.id()).orElseThrow(),
        "the old version keeps its text, not latest");
    assertEquals(v2, store.get(v2.id()).orElseThrow());
    assertEquals(List.of(), ids(store.searchText(A, "thirty", 10)));
    assertEquals(List.of("v2"), ids(store.searchText(A, "gateway timeout", 10)));
    assertEquals(
        List.of("v2"), ids(store.searchVector(A, vector(1), 10)), "v1's vector is not searched");
    assertEquals(List.of("v2"), ids(store.searchRelated(A, Set.of("gateway"), Set.of(), 10)));
    assertEquals(1, store.count(A));

    Memory v3 = nextVersion(v2, "v3", "the gateway timeout is ninety seconds");
    store.putNewVersion(v3, vector(8));
    assertEquals(
        List.of(false, false, true),
        List.of(
            store.get(v1.id()).orElseThrow().latest(),
            store.get(v2.id()).orElseThrow().latest(),
            store.get(v3.id()).orElseThrow().latest()));
    assertEquals(List.of("v3"), ids(store.searchText(A, "gateway timeout", 10)));
  }

  @Test
  void putNewVersion_withAnInvalidSupersede_throwsIllegalArgument_andWritesNothing() {
    Memory v1 = memory("v1", A, "the gateway timeout is thirty seconds");
    store.put(v1, vector(1));
    Memory v2 = nextVersion(v1, "v2", "the gateway timeout is sixty seconds");
    store.putNewVersion(v2, vector(2));
    Memory other = memory("b1", B, "their gateway timeout");
    store.put(other, vector(3));
    List<String> ids = List.of("v1", "v2", "b1", "n1");
    StoreFixtures.Observation before =
        observe(store, ids, List.of("gateway", "bogus"), List.of(1, 2, 9), Set.of());

    Map<String, Memory> invalid = new LinkedHashMap<>();
    invalid.put(
        "supersedes an unknown id", nextVersion(memory("ghost", A, "x"), "n1", "a bogus version"));
    invalid.put(
        "supersedes a version already superseded", nextVersion(v1, "n1", "a bogus version"));
    invalid.put(
        "supersedes a memory of another scope",
        nextVersion(other, "n1", "a bogus version").toBuilder().scope(A).build());
    invalid.put("is not latest itself", nextVersion(v2, "n1", "a bogus version").withLatest(false));
    invalid.put("supersedes nothing", memory("n1", A, "a bogus version"));
    invalid.forEach(
        (why, next) -> {
          assertThrows(
              IllegalArgumentException.class, () -> store.putNewVersion(next, vector(9)), why);
          assertEquals(
              before,
              observe(store, ids, List.of("gateway", "bogus"), List.of(1, 2, 9), Set.of()),
              "a new version that " + why + " wrote something");
        });
  }

  // ---------------------------------------------------------------------------------------------
  // delete and audit

  @Test
  void delete_removesFromEverySignal_andKeepsTheAuditRecord() {
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
  void forgotten_listsTheScopesAuditRecords_oldestFirst() {
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
    assertThrows(NullPointerException.class, () -> store.searchText(null, "x", 3));
    assertThrows(NullPointerException.class, () -> store.searchText(A, null, 3));
    assertThrows(NullPointerException.class, () -> store.searchVector(null, vector(1), 3));
    assertThrows(NullPointerException.class, () -> store.searchVector(A, null, 3));
    assertThrows(
        NullPointerException.class, () -> store.searchRelated(null, Set.of("c"), Set.of(), 3));
    assertThrows(NullPointerException.class, () -> store.searchRelated(A, null, Set.of(), 3));
    assertThrows(NullPointerException.class, () -> store.searchRelated(A, Set.of("c"), null, 3));
    assertThrows(NullPointerException.class, () -> store.count(null));
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
    assertThrows(IllegalStateException.class, () -> store.searchText(A, "x", 3));
    assertThrows(IllegalStateException.class, () -> store.searchVector(A, vector(1), 3));
    assertThrows(
        IllegalStateException.class, () -> store.searchRelated(A, Set.of("c"), Set.of(), 3));
    assertThrows(IllegalStateException.class, () -> store.count(A));
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
