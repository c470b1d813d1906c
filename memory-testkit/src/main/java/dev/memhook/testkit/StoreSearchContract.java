package dev.memhook.testkit;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.ABSENT;
import static dev.memhook.testkit.StoreFixtures.B;
import static dev.memhook.testkit.StoreFixtures.DIMENSION;
import static dev.memhook.testkit.StoreFixtures.WORDS;
import static dev.memhook.testkit.StoreFixtures.ids;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.nextVersion;
import static dev.memhook.testkit.StoreFixtures.observe;
import static dev.memhook.testkit.StoreFixtures.vector;
import static dev.memhook.testkit.StoreFixtures.zeroVector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.SessionWindow;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The searches of the basic store contract: text, vector and related search and session windows,
 * each filtered by scope and showing latest versions only, and what {@link
 * MemoryStore#putNewVersion} does to them. Text tests check that a memory holding a query's word is
 * found, that one without any is not, and that scores descend and stay under the ceiling the search
 * returns; never a BM25 value, so stores whose text search is not BM25 pass too.
 *
 * <p>{@link MemoryStoreContract} implements it, so every store's contract test runs these tests
 * with no declaration of its own; {@link #store()} is that class's fresh, attached store.
 */
public interface StoreSearchContract {

  /**
   * The store under test, fresh and attached for each test: {@link MemoryStoreContract#store()}.
   */
  MemoryStore store();

  // ---------------------------------------------------------------------------------------------
  // text search

  @Test
  default void searchText_findsTheMemoryHoldingTheWord_andRanksItFirst() {
    MemoryStore store = store();
    store.putAll(
        Map.of(
            memory("m1", A, "postgres connection pool exhausted under load"), vector(1),
            memory("m2", A, "the frontend uses react and vite"), vector(2),
            memory("m3", A, "deploys run every tuesday"), vector(3)));
    List<String> hits = ids(store.searchText(A, "postgres pool", 10));
    assertEquals(List.of("m1"), hits);
  }

  @Test
  default void searchText_respectsK_andScoresDescend() {
    MemoryStore store = store();
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
  default void searchText_ceilingBoundsEveryScore_andIsZeroWithNoHitsForUnknownWords() {
    MemoryStore store = store();
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

  @Test
  default void
      searchText_randomised_everyHitHoldsAQueryWord_scoresDescend_andStayUnderTheCeiling() {
    MemoryStore store = store();
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
  default void searchVector_returnsNearestFirst_withCosineScores() {
    MemoryStore store = store();
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
  default void searchVector_withAZeroQueryVector_returnsNoHits() {
    MemoryStore store = store();
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
  default void searchRelated_scoresByTheNumberOfSharedConceptsAndFiles() {
    MemoryStore store = store();
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
  default void searchRelated_matchesConceptsIgnoringCase_butFilesExactly() {
    MemoryStore store = store();
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
  // session windows

  /** A turn of {@code session} in {@link StoreFixtures#A}, told {@code minute} minutes after T0. */
  private static Memory turn(String id, String session, int minute) {
    Instant at = StoreFixtures.T0.plusSeconds(60L * minute);
    return memory(id, A, "turn " + id).toBuilder()
        .sourceSession(session)
        .occurredAt(at)
        .createdAt(at)
        .build();
  }

  private static List<String> values(List<MemoryId> ids) {
    return ids.stream().map(MemoryId::value).toList();
  }

  @Test
  default void sessionWindows_listTheMemoriesAroundEachId_nearestFirst_inTheSessionsOrder() {
    MemoryStore store = store();
    // stored out of order: the session's order is by when each was told
    for (int i : new int[] {3, 1, 5, 2, 4}) {
      store.put(turn("s" + i, "chat-1", i), vector(i));
    }
    store.put(turn("o1", "chat-2", 3), vector(6));
    store.put(memory("n1", A, "no session"), vector(7));
    Map<MemoryId, SessionWindow> windows =
        store.sessionWindows(
            A,
            List.of(MemoryId.of("s3"), MemoryId.of("s1"), MemoryId.of("n1"), MemoryId.of("ghost")),
            2);
    assertEquals(
        List.of("s3", "s1"),
        windows.keySet().stream().map(MemoryId::value).toList(),
        "ids in the order asked; none for a memory without a session or an unknown id");
    assertEquals(List.of("s2", "s1"), values(windows.get(MemoryId.of("s3")).before()));
    assertEquals(List.of("s4", "s5"), values(windows.get(MemoryId.of("s3")).after()));
    assertEquals(List.of(), values(windows.get(MemoryId.of("s1")).before()));
    assertEquals(List.of("s2", "s3"), values(windows.get(MemoryId.of("s1")).after()));
    SessionWindow narrow =
        store.sessionWindows(A, List.of(MemoryId.of("s3")), 1).get(MemoryId.of("s3"));
    assertEquals(List.of("s2"), values(narrow.before()));
    assertEquals(List.of("s4"), values(narrow.after()));
  }

  @Test
  default void
      sessionWindows_ofSeveralSessionsInOneCall_keepEachSessionApart_withoutTheForgotten() {
    MemoryStore store = store();
    // two sessions told at the same minutes, stored interleaved and in two writes
    for (int i = 1; i <= 4; i++) {
      store.put(turn("x" + i, "chat-x", i), vector(i));
      store.put(turn("y" + i, "chat-y", i), vector(10 + i));
    }
    assertTrue(
        store.delete(
            MemoryId.of("x2"),
            new ForgetRecord(MemoryId.of("x2"), A, "alice", "gone", StoreFixtures.T0)));
    Map<MemoryId, SessionWindow> windows =
        store.sessionWindows(A, List.of(MemoryId.of("y3"), MemoryId.of("x3")), 2);
    assertEquals(List.of("y3", "x3"), windows.keySet().stream().map(MemoryId::value).toList());
    assertEquals(List.of("y2", "y1"), values(windows.get(MemoryId.of("y3")).before()));
    assertEquals(List.of("y4"), values(windows.get(MemoryId.of("y3")).after()));
    assertEquals(
        List.of("x1"),
        values(windows.get(MemoryId.of("x3")).before()),
        "a forgotten memory leaves its session");
    assertEquals(List.of("x4"), values(windows.get(MemoryId.of("x3")).after()));
  }

  @Test
  default void sessionWindows_orderEqualTimesByWhenStored_thenById() {
    MemoryStore store = store();
    Memory first = turn("t-b", "chat-1", 0);
    store.put(
        turn("t-c", "chat-1", 0).toBuilder().createdAt(StoreFixtures.T0.plusSeconds(2)).build(),
        vector(1));
    store.put(
        turn("t-a", "chat-1", 0).toBuilder().createdAt(StoreFixtures.T0.plusSeconds(1)).build(),
        vector(2));
    store.put(first.toBuilder().createdAt(StoreFixtures.T0.plusSeconds(1)).build(), vector(3));
    SessionWindow w =
        store.sessionWindows(A, List.of(MemoryId.of("t-a")), 2).get(MemoryId.of("t-a"));
    assertEquals(List.of(), values(w.before()));
    assertEquals(
        List.of("t-b", "t-c"), values(w.after()), "equal times: by when stored, then by id");
  }

  @Test
  default void sessionWindows_holdTheScopesLatestVersionsOnly() {
    MemoryStore store = store();
    store.put(turn("s1", "chat-1", 1), vector(1));
    Memory s2 = turn("s2", "chat-1", 2);
    store.put(s2, vector(2));
    store.put(turn("s3", "chat-1", 3), vector(3));
    store.put(
        memory("b1", B, "same session name, other scope").toBuilder()
            .sourceSession("chat-1")
            .occurredAt(StoreFixtures.T0.plusSeconds(150))
            .createdAt(StoreFixtures.T0.plusSeconds(150))
            .build(),
        vector(4));
    store.putNewVersion(
        nextVersion(s2, "s2v2", "turn s2, corrected").toBuilder()
            .sourceSession("chat-1")
            .occurredAt(StoreFixtures.T0.plusSeconds(120))
            .createdAt(StoreFixtures.T0.plusSeconds(600))
            .build(),
        vector(5));
    Map<MemoryId, SessionWindow> windows =
        store.sessionWindows(
            A, List.of(MemoryId.of("s1"), MemoryId.of("s2"), MemoryId.of("b1")), 1);
    assertEquals(
        List.of("s1"),
        windows.keySet().stream().map(MemoryId::value).toList(),
        "a superseded version and a memory of another scope have no window");
    assertEquals(List.of("s2v2"), values(windows.get(MemoryId.of("s1")).after()));
    assertEquals(
        List.of("s1"),
        values(
            store
                .sessionWindows(A, List.of(MemoryId.of("s2v2")), 1)
                .get(MemoryId.of("s2v2"))
                .before()));
    assertThrows(
        IllegalArgumentException.class,
        () -> store.sessionWindows(A, List.of(MemoryId.of("s1")), 0));
  }

  // ---------------------------------------------------------------------------------------------
  // scope and versions

  @Test
  default void everySearch_isFilteredByScope() {
    MemoryStore store = store();
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
  default void searches_returnLatestVersionsOnly_butGetReturnsOldVersions() {
    MemoryStore store = store();
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
  default void putNewVersion_hidesTheOldVersionFromEverySearch_andGetShowsItNotLatest() {
    MemoryStore store = store();
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
  default void putNewVersion_withAnInvalidSupersede_throwsIllegalArgument_andWritesNothing() {
    MemoryStore store = store();
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
}
