package dev.memhook.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link MemoryStore} must have. Extend it, implement {@link #newStore()}, and
 * every contract test runs against your store:
 *
 * <pre>{@code
 * class MyStoreContractTest extends MemoryStoreContract {
 *   @Override protected MemoryStore newStore() { return new MyStore(...); }
 * }
 * }</pre>
 *
 * <p>Each test gets a fresh, empty store, already {@linkplain MemoryStore#attach attached} to a
 * {@value #DIMENSION}-dimension space named {@value #MODEL_ID}, and closes it afterwards. Vectors
 * are made by {@link #vector(int)}: orthogonal-ish unit vectors, so nearest-neighbour answers are
 * unambiguous. Stores whose text search is not BM25 still pass: text tests only check that a
 * memory holding a query's rare word is found and one that does not is not ranked above it.
 */
public abstract class MemoryStoreContract {

  /** The dimension of the contract's vectors. */
  protected static final int DIMENSION = 16;
  /** The model id the contract attaches with. */
  protected static final String MODEL_ID = "contract-test-model";
  /** The space the store is attached to. */
  protected static final EmbeddingSpace SPACE = new EmbeddingSpace(MODEL_ID, DIMENSION);

  private static final Instant T0 = Instant.parse("2024-01-01T10:00:00Z");

  /** The store under test, fresh for each test. */
  protected MemoryStore store;

  /** Creates a new, empty, unattached store. Called once per test. */
  protected abstract MemoryStore newStore();

  @BeforeEach
  void openStore() {
    store = newStore();
    store.attach(SPACE);
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  /** A unit vector that points mostly along axis {@code axis % DIMENSION}, slightly tilted by axis. */
  protected static Embedding vector(int axis) {
    float[] v = new float[DIMENSION];
    v[Math.floorMod(axis, DIMENSION)] = 1f;
    v[Math.floorMod(axis + 1, DIMENSION)] = 0.1f * (1 + Math.floorMod(axis / DIMENSION, 3));
    return Embedding.of(v).normalized();
  }

  /** A memory in {@code scope} with the given id and content; other components defaulted. */
  protected static Memory memory(String id, Scope scope, String content) {
    return Memory.builder()
        .id(MemoryId.of(id))
        .scope(scope)
        .type(MemoryType.FACT)
        .title("")
        .summary(content.length() > 80 ? content.substring(0, 80) : content)
        .content(content)
        .origin(Origin.user("tester"))
        .occurredAt(T0)
        .createdAt(T0)
        .build();
  }

  private static final Scope A = Scope.of("tenant-a");
  private static final Scope B = Scope.of("tenant-b");

  @Test
  void put_thenGet_returnsAnEqualMemory() {
    Memory m = memory("m1", A, "the build uses maven with the shade plugin")
        .toBuilder()
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
    assertEquals("second text about rabbitmq", store.get(MemoryId.of("m1")).orElseThrow().content());
    assertEquals(1, store.count(A));
    assertTrue(ids(store.searchText(A, "kafka", 10)).isEmpty(), "old text must not be indexed any more");
    assertEquals(List.of("m1"), ids(store.searchText(A, "rabbitmq", 10)));
  }

  @Test
  void searchText_findsTheMemoryHoldingTheWord_andRanksItFirst() {
    store.put(memory("m1", A, "postgres connection pool exhausted under load"), vector(1));
    store.put(memory("m2", A, "the frontend uses react and vite"), vector(2));
    store.put(memory("m3", A, "deploys run every tuesday"), vector(3));
    List<String> hits = ids(store.searchText(A, "postgres pool", 10));
    assertFalse(hits.isEmpty());
    assertEquals("m1", hits.get(0));
    assertFalse(hits.contains("m2"));
  }

  @Test
  void searchText_respectsK_andScoresDescend() {
    for (int i = 0; i < 20; i++) {
      store.put(memory("m" + i, A, "cache eviction note number " + i + " cache".repeat(1 + i % 3)), vector(i));
    }
    List<StoreHit> hits = store.searchText(A, "cache", 5).hits();
    assertEquals(5, hits.size());
    for (int i = 1; i < hits.size(); i++) {
      assertTrue(hits.get(i - 1).score() >= hits.get(i).score(), "scores must not increase");
    }
  }

  @Test
  void searchText_ceilingBoundsEveryTextScore_andIsZeroForUnknownWords() {
    store.put(memory("m1", A, "redis redis redis cluster failover"), vector(1));
    store.put(memory("m2", A, "redis sentinel"), vector(2));
    store.put(memory("m3", A, "something else entirely"), vector(3));
    TextHits found = store.searchText(A, "redis failover", 10);
    assertFalse(found.isEmpty());
    for (StoreHit hit : found.hits()) {
      assertTrue(hit.score() <= found.ceiling() + 1e-9, hit + " exceeds ceiling " + found.ceiling());
    }
    TextHits unknown = store.searchText(A, "zyxwvut", 10);
    assertTrue(unknown.isEmpty());
    assertEquals(0.0, unknown.ceiling(), 1e-12);
  }

  @Test
  void searchVector_returnsNearestFirst_withCosineScores() {
    for (int i = 0; i < DIMENSION; i++) {
      store.put(memory("m" + i, A, "memory " + i), vector(i));
    }
    List<StoreHit> hits = store.searchVector(A, vector(5), 3);
    assertEquals(3, hits.size());
    assertEquals("m5", hits.get(0).id().value());
    assertEquals(1.0, hits.get(0).score(), 1e-3, "cosine of a vector with itself");
    assertTrue(hits.get(1).score() <= hits.get(0).score());
  }

  @Test
  void searchRelated_scoresByTheNumberOfSharedConceptsAndFiles() {
    store.put(memory("m1", A, "one").toBuilder().concepts(List.of("auth", "jwt")).files(List.of("src/Auth.java")).build(), vector(1));
    store.put(memory("m2", A, "two").toBuilder().concepts(List.of("auth")).build(), vector(2));
    store.put(memory("m3", A, "three").toBuilder().concepts(List.of("billing")).build(), vector(3));
    List<StoreHit> hits = store.searchRelated(A, Set.of("auth", "jwt"), Set.of("src/Auth.java"), 10);
    assertEquals(List.of("m1", "m2"), ids(hits));
    assertEquals(3.0, hits.get(0).score(), 1e-9);
    assertEquals(1.0, hits.get(1).score(), 1e-9);
  }

  @Test
  void everySearch_isFilteredByScope() {
    store.put(memory("a1", A, "shared words kubernetes ingress").toBuilder().concepts(List.of("k8s")).build(), vector(1));
    store.put(memory("b1", B, "shared words kubernetes ingress").toBuilder().concepts(List.of("k8s")).build(), vector(1));
    assertEquals(List.of("a1"), ids(store.searchText(A, "kubernetes ingress", 10)));
    assertEquals(List.of("a1"), ids(store.searchVector(A, vector(1), 10)));
    assertEquals(List.of("a1"), ids(store.searchRelated(A, Set.of("k8s"), Set.of(), 10)));
    assertEquals(List.of("b1"), ids(store.searchText(B, "kubernetes ingress", 10)));
    assertEquals(1, store.count(A));
    assertEquals(1, store.count(B));
    assertEquals(0, store.count(Scope.of("tenant-c")));
  }

  @Test
  void searches_returnLatestVersionsOnly_butGetReturnsOldVersions() {
    Memory v1 = memory("v1", A, "the api gateway timeout is 30 seconds").withLatest(false);
    Memory v2 = memory("v2", A, "the api gateway timeout is 60 seconds")
        .toBuilder().version(2).supersedes(v1.id()).build();
    store.put(v1, vector(1));
    store.put(v2, vector(1));
    assertEquals(List.of("v2"), ids(store.searchText(A, "gateway timeout", 10)));
    assertEquals(List.of("v2"), ids(store.searchVector(A, vector(1), 10)));
    assertEquals(1, store.count(A));
    assertFalse(store.get(v1.id()).orElseThrow().latest());
  }

  @Test
  void delete_removesFromEverySignal_andKeepsTheAuditRecord() {
    Memory m = memory("m1", A, "secret rotation runbook").toBuilder().concepts(List.of("secrets")).build();
    store.put(m, vector(4));
    store.put(memory("m2", A, "unrelated"), vector(9));
    ForgetRecord audit = new ForgetRecord(m.id(), A, "alice", "asked to forget", T0.plusSeconds(60));
    assertTrue(store.delete(m.id(), audit));
    assertTrue(store.get(m.id()).isEmpty());
    assertFalse(ids(store.searchText(A, "secret rotation runbook", 10)).contains("m1"));
    assertFalse(ids(store.searchVector(A, vector(4), 10)).contains("m1"));
    assertTrue(store.searchRelated(A, Set.of("secrets"), Set.of(), 10).isEmpty());
    assertEquals(1, store.count(A));
    assertEquals(List.of(audit), store.forgotten(A));
    assertTrue(store.forgotten(B).isEmpty());
    assertFalse(store.delete(m.id(), audit), "a second delete finds nothing");
  }

  @Test
  void getAll_returnsTheExistingOnes_inTheOrderAsked() {
    store.put(memory("m1", A, "one"), vector(1));
    store.put(memory("m2", B, "two"), vector(2));
    Map<MemoryId, Memory> got = store.getAll(List.of(MemoryId.of("m2"), MemoryId.of("zz"), MemoryId.of("m1")));
    assertEquals(List.of(MemoryId.of("m2"), MemoryId.of("m1")), new ArrayList<>(got.keySet()));
  }

  @Test
  void put_withAVectorOfAnotherDimension_isRejected_andStoresNothing() {
    float[] wrong = new float[DIMENSION + 1];
    wrong[0] = 1;
    assertThrows(IllegalArgumentException.class, () -> store.put(memory("m1", A, "x"), Embedding.of(wrong)));
    assertTrue(store.get(MemoryId.of("m1")).isEmpty());
  }

  @Test
  void attach_withAnotherSpace_afterVectorsWereStored_fails() {
    store.put(memory("m1", A, "x"), vector(1));
    assertThrows(IncompatibleStoreException.class, () -> store.attach(new EmbeddingSpace("other-model", DIMENSION)));
    assertThrows(IncompatibleStoreException.class, () -> store.attach(new EmbeddingSpace(MODEL_ID, DIMENSION * 2)));
  }

  @Test
  void nullArguments_areRejected() {
    assertThrows(NullPointerException.class, () -> store.put(null, vector(1)));
    assertThrows(NullPointerException.class, () -> store.get(null));
    assertThrows(NullPointerException.class, () -> store.searchText(null, "x", 3));
    assertThrows(NullPointerException.class, () -> store.searchVector(A, null, 3));
  }

  @Test
  void afterClose_everyMethodThrowsIllegalState_andCloseIsIdempotent() {
    store.close();
    store.close();
    assertThrows(IllegalStateException.class, () -> store.get(MemoryId.of("m1")));
    assertThrows(IllegalStateException.class, () -> store.put(memory("m1", A, "x"), vector(1)));
    assertThrows(IllegalStateException.class, () -> store.searchText(A, "x", 3));
    store = null;
  }

  @Test
  void concurrentPutsAndSearches_loseNothing() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        int noise = random.nextInt(1000);
        futures.add(pool.submit(() -> {
          for (int i = 0; i < 50; i++) {
            store.put(memory("t" + thread + "-" + i, A, "concurrent note " + noise + " item " + i), vector(i));
            store.searchText(A, "concurrent note", 5);
            store.searchVector(A, vector(i), 5);
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(200, store.count(A), "seed " + seed);
    Set<String> found = new HashSet<>(ids(store.searchText(A, "concurrent", 500)));
    assertEquals(200, found.size(), "every acknowledged put is searchable; seed " + seed);
  }

  /** The ids of {@code hits}, in order. */
  protected static List<String> ids(TextHits hits) {
    return ids(hits.hits());
  }

  protected static List<String> ids(List<StoreHit> hits) {
    return hits.stream().map(h -> h.id().value()).collect(Collectors.toList());
  }
}
