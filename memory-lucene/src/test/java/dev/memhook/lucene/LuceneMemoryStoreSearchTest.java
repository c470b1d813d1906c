package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.B;
import static dev.memhook.lucene.LuceneStoreFixtures.CONCEPTS;
import static dev.memhook.lucene.LuceneStoreFixtures.DIM;
import static dev.memhook.lucene.LuceneStoreFixtures.FILES;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.axes;
import static dev.memhook.lucene.LuceneStoreFixtures.ids;
import static dev.memhook.lucene.LuceneStoreFixtures.inMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomVector;
import static dev.memhook.lucene.LuceneStoreFixtures.randomWords;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.SessionWindow;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.testkit.Seeds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Vector and related search, and scope isolation across every search. */
class LuceneMemoryStoreSearchTest {
  @Test
  void vectorSearch_recallAgainstExactSearch_isAtLeast98Percent() {
    long seed = 42;
    Random random = new Random(seed);
    int dim = 32;
    EmbeddingSpace space = new EmbeddingSpace("recall", dim);
    try (LuceneMemoryStore store = LuceneMemoryStore.inMemory()) {
      store.attach(space);
      Map<String, Embedding> all = new HashMap<>();
      for (int batchStart = 0; batchStart < 3000; batchStart += 500) {
        Map<Memory, Embedding> batch = new LinkedHashMap<>();
        for (int i = batchStart; i < batchStart + 500; i++) {
          Embedding v = randomVector(random, dim);
          Scope scope = i % 3 == 0 ? B : A;
          Memory m = memory("v" + i, scope, "vector " + i);
          if (scope.equals(A)) {
            all.put(m.id().value(), v);
          }
          batch.put(m, v);
        }
        store.putAll(batch);
      }
      int k = 10;
      int found = 0;
      int queries = 50;
      for (int q = 0; q < queries; q++) {
        Embedding query = randomVector(random, dim);
        Set<String> exact =
            all.entrySet().stream()
                .sorted(
                    Comparator.comparingDouble(
                        (Map.Entry<String, Embedding> e) -> -e.getValue().cosine(query)))
                .limit(k)
                .map(Map.Entry::getKey)
                .collect(Collectors.toSet());
        List<StoreHit> hits = store.searchVector(A, query, k);
        assertEquals(k, hits.size());
        for (StoreHit h : hits) {
          if (exact.contains(h.id().value())) {
            found++;
          }
          assertEquals(
              all.get(h.id().value()).cosine(query), h.score(), 1e-4, "score is the cosine");
        }
      }
      double recall = found / (double) (k * queries);
      assertTrue(recall >= 0.98, "recall " + recall);
    }
  }

  @Test
  void searchVector_scoresAreTheCosine_whateverTheNormsOfStoredAndQueryVectors() {
    try (LuceneMemoryStore store = inMemory()) {
      store.put(memory("same", A, "x"), axes(1000f, 0f));
      store.put(memory("diagonal", A, "x"), axes(0.001f, 0.001f));
      store.put(memory("orthogonal", A, "x"), axes(0f, 3f));
      store.put(memory("opposite", A, "x"), axes(-5f, 0f));
      for (float scale : new float[] {1e-3f, 1f, 1e4f}) {
        List<StoreHit> hits = store.searchVector(A, axes(2f * scale, 0f), 4);
        assertEquals(
            List.of("same", "diagonal", "orthogonal", "opposite"), ids(hits), "scale " + scale);
        double[] expected = {1.0, Math.sqrt(0.5), 0.0, -1.0};
        for (int i = 0; i < 4; i++) {
          assertEquals(expected[i], hits.get(i).score(), 1e-5, hits.get(i) + " at scale " + scale);
        }
      }
    }
  }

  @Test
  void hits_spreadOverManySegments_eachCarryTheirOwnId() {
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().inMemory().groupCommit(Duration.ofMinutes(1)).build()) {
      store.attach(SPACE);
      Map<String, Embedding> vectors = new HashMap<>();
      int maxSegments = 0;
      for (int i = 0; i < 40; i++) {
        Memory m =
            memory("s" + i, A, "segment note seg" + i).toBuilder()
                .concepts(List.of("segmented"))
                .build();
        vectors.put(m.id().value(), vector(i));
        store.put(m, vector(i));
        maxSegments = Math.max(maxSegments, store.segmentCount()); // a refresh: one more segment
      }
      assertTrue(maxSegments > 1, "precondition: hits from several segments, got " + maxSegments);
      Set<String> all =
          new HashSet<>(ids(store.searchRelated(A, Set.of("segmented"), Set.of(), 100)));
      assertEquals(vectors.keySet(), all);
      for (int i = 0; i < 40; i++) {
        assertEquals(List.of("s" + i), ids(store.searchText(A, "seg" + i, 1)));
        Embedding query = vector(i);
        List<StoreHit> hits = store.searchVector(A, query, 40);
        assertEquals("s" + i, hits.get(0).id().value());
        for (StoreHit h : hits) {
          // A hit given another hit's id would have another vector's cosine.
          assertEquals(vectors.get(h.id().value()).cosine(query), h.score(), 1e-5, h.toString());
        }
      }
    }
  }

  @Test
  void sessionWindows_spreadOverManySegments_withForgottenAndOtherScopes_matchTheSessionsOrder() {
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().inMemory().groupCommit(Duration.ofMinutes(1)).build()) {
      store.attach(SPACE);
      // two sessions told side by side, a third scope reusing one session's name, each memory
      // written on its own so the sessions lie across many segments, stored out of time order
      Map<String, List<String>> told = new HashMap<>(); // session -> ids in time order
      int maxSegments = 0;
      int[] order = {7, 2, 9, 0, 5, 3, 8, 1, 6, 4};
      for (int i : order) {
        for (String session : List.of("chat-x", "chat-y")) {
          String id = session.substring(5) + i;
          store.put(
              memory(id, A, "turn " + id).toBuilder()
                  .sourceSession(session)
                  .occurredAt(LuceneStoreFixtures.T0.plusSeconds(60L * i))
                  .build(),
              vector(i));
          maxSegments = Math.max(maxSegments, store.segmentCount());
        }
        store.put(
            memory("b" + i, B, "other scope " + i).toBuilder()
                .sourceSession("chat-x")
                .occurredAt(LuceneStoreFixtures.T0.plusSeconds(60L * i + 30))
                .build(),
            vector(i));
      }
      assertTrue(maxSegments > 1, "precondition: several segments, got " + maxSegments);
      for (String forgotten : List.of("x5", "y0", "b4")) {
        assertTrue(
            store.delete(
                MemoryId.of(forgotten),
                new ForgetRecord(
                    MemoryId.of(forgotten),
                    forgotten.startsWith("b") ? B : A,
                    "alice",
                    "gone",
                    LuceneStoreFixtures.T0)));
      }
      for (String session : List.of("x", "y")) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
          ids.add(session + i);
        }
        ids.removeAll(List.of("x5", "y0"));
        told.put(session, ids);
      }
      List<MemoryId> asked =
          List.of("x6", "y1", "x0", "y9", "x5", "b3").stream().map(MemoryId::of).toList();
      Map<MemoryId, SessionWindow> windows = store.sessionWindows(A, asked, 2);
      assertEquals(
          List.of("x6", "y1", "x0", "y9"),
          windows.keySet().stream().map(MemoryId::value).toList(),
          "in the order asked; none for a forgotten memory or one of another scope");
      for (Map.Entry<MemoryId, SessionWindow> e : windows.entrySet()) {
        String id = e.getKey().value();
        List<String> session = told.get(id.substring(0, 1));
        int at = session.indexOf(id);
        List<String> before = new ArrayList<>();
        for (int i = at - 1; i >= Math.max(0, at - 2); i--) {
          before.add(session.get(i));
        }
        List<String> after = session.subList(at + 1, Math.min(session.size(), at + 3));
        assertEquals(before, values(e.getValue().before()), id + " before");
        assertEquals(after, values(e.getValue().after()), id + " after");
      }
    }
  }

  private static List<String> values(List<MemoryId> ids) {
    return ids.stream().map(MemoryId::value).toList();
  }

  @Test
  void searchVector_withAZeroVector_isEmpty_andZeroEmbeddingsAreStoredWithoutVector() {
    try (LuceneMemoryStore store = inMemory()) {
      store.put(memory("z", A, "zero vector memory"), Embedding.of(new float[DIM]));
      assertEquals(List.of("z"), ids(store.searchText(A, "zero", 5)));
      assertTrue(store.searchVector(A, vector(1), 5).isEmpty());
      assertTrue(store.searchVector(A, Embedding.of(new float[DIM]), 5).isEmpty());
    }
  }

  @Test
  void searchRelated_conceptsIgnoreCase_filesAreExact() {
    try (LuceneMemoryStore store = inMemory()) {
      store.put(
          memory("m1", A, "x").toBuilder()
              .concepts(List.of("auth", "auth"))
              .files(List.of("a/B.java"))
              .build(),
          vector(1));
      List<StoreHit> hits =
          store.searchRelated(A, Set.of("AUTH"), Set.of("a/B.java", "a/b.java"), 5);
      assertEquals(List.of("m1"), ids(hits));
      assertEquals(2.0, hits.get(0).score(), 1e-9, "a duplicated concept counts once");
      assertTrue(store.searchRelated(A, Set.of(), Set.of(), 5).isEmpty());
    }
  }

  @Test
  void scopeIsolation_noSearchOfOneScopeEverReturnsAnotherScopesMemory() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    List<Scope> scopes = List.of(A, B, Scope.of("acme"), Scope.of("acme", "alice", "project-x"));
    Map<String, Scope> scopeOf = new HashMap<>();
    try (LuceneMemoryStore store = inMemory()) {
      Map<Memory, Embedding> batch = new LinkedHashMap<>();
      for (int i = 0; i < 120; i++) {
        Scope scope = scopes.get(random.nextInt(scopes.size()));
        Memory m = randomMemory(random, "m" + i, scope);
        scopeOf.put(m.id().value(), scope);
        batch.put(m, randomVector(random));
      }
      store.putAll(batch);
      for (int q = 0; q < 200; q++) {
        Scope scope = scopes.get(random.nextInt(scopes.size()));
        String query = randomWords(random, 1 + random.nextInt(4));
        Set<String> concepts = Set.of(CONCEPTS.get(random.nextInt(CONCEPTS.size())));
        Set<String> files = Set.of(FILES.get(random.nextInt(FILES.size())));
        List<StoreHit> hits = new ArrayList<>();
        TextHits found = store.searchText(scope, query, 50);
        List<StoreHit> textHits = found.hits();
        double ceiling = found.ceiling();
        for (StoreHit h : textHits) {
          assertTrue(
              h.score() <= ceiling,
              h + " above ceiling " + ceiling + " for '" + query + "'; seed " + seed);
        }
        hits.addAll(textHits);
        hits.addAll(store.searchVector(scope, randomVector(random), 50));
        hits.addAll(store.searchRelated(scope, concepts, files, 50));
        for (StoreHit hit : hits) {
          assertEquals(
              scope,
              scopeOf.get(hit.id().value()),
              "query '" + query + "' in " + scope + "; " + Seeds.replay(seed));
        }
      }
      for (Scope scope : scopes) {
        assertEquals(
            scopeOf.values().stream().filter(scope::equals).count(),
            store.count(scope),
            Seeds.replay(seed));
      }
    }
  }
}
