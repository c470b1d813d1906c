package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.ids;
import static dev.memhook.lucene.LuceneStoreFixtures.inMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomVector;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.testkit.Seeds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Text search: BM25F field weights, phrases, both scope plans, and the analysis examples at the
 * store level.
 */
class LuceneMemoryStoreTextSearchTest {
  @Test
  void aReplyEchoingTheTurnBefore_doesNotOutrankIt_throughItsContext() {
    Memory said =
        memory("said", A, "I ran a charity race").toBuilder().context("Caroline: news?").build();
    Memory reply =
        memory("reply", A, "charity race sounds great fun").toBuilder()
            .context("Melanie: I ran a charity race")
            .build();
    Memory unrelated = memory("unrelated", A, "We painted the fence on Sunday");
    try (LuceneMemoryStore store = inMemory()) {
      store.putAll(Map.of(said, vector(1), reply, vector(2), unrelated, vector(3)));
      // counted once more through its context, the echo would rank the reply first
      assertEquals(List.of("said", "reply"), ids(store.searchText(A, "charity race", 10)));
      // the context still finds the reply for what only the turn before says
      assertEquals(List.of("reply"), ids(store.searchText(A, "Melanie", 10)));
    }
  }

  @Test
  void fieldWeights_orderMatchesInDifferentParts() {
    // the same word once in each memory, in parts of different weight (same length otherwise)
    Memory inTitle = memory("title", A, "notes from monday").toBuilder().title("kafka").build();
    Memory inContext =
        memory("context", A, "notes from monday").toBuilder().context("kafka").build();
    Memory inContent = memory("content", A, "notes from kafka");
    try (LuceneMemoryStore store = inMemory()) {
      store.putAll(Map.of(inTitle, vector(1), inContext, vector(2), inContent, vector(3)));
      assertEquals(List.of("title", "content", "context"), ids(store.searchText(A, "kafka", 10)));
    }
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().inMemory().fieldBoost(SearchField.CONTEXT, 4f).build()) {
      store.attach(SPACE);
      store.putAll(Map.of(inTitle, vector(1), inContext, vector(2), inContent, vector(3)));
      assertEquals(List.of("context", "title", "content"), ids(store.searchText(A, "kafka", 10)));
    }
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().inMemory().fieldBoost(SearchField.CONTEXT, 0f).build()) {
      store.attach(SPACE);
      store.putAll(Map.of(inTitle, vector(1), inContext, vector(2), inContent, vector(3)));
      assertEquals(
          List.of("title", "content"),
          ids(store.searchText(A, "kafka", 10)),
          "weight 0 leaves the part out");
    }
  }

  @Test
  void phrases_whenWeighted_rankTheVerbatimContentFirst() {
    Memory verbatim = memory("verbatim", A, "run mvn clean install before the release");
    Memory scattered = memory("scattered", A, "install the release, then run mvn clean");
    Memory other = memory("other", A, "the weekly report");
    double[] margin = new double[2];
    for (int weighted = 0; weighted < 2; weighted++) {
      try (LuceneMemoryStore store =
          LuceneMemoryStore.builder().inMemory().phraseWeight(weighted * 2f).build()) {
        store.attach(SPACE);
        store.putAll(Map.of(verbatim, vector(1), scattered, vector(2), other, vector(3)));
        TextHits found = store.searchText(A, "mvn clean install", 10);
        List<StoreHit> hits = found.hits();
        assertEquals(Set.of("verbatim", "scattered"), Set.copyOf(ids(hits)));
        Map<String, Double> score = new HashMap<>();
        hits.forEach(h -> score.put(h.id().value(), h.score()));
        margin[weighted] = score.get("verbatim") - score.get("scattered");
        double ceiling = found.ceiling();
        assertTrue(
            hits.stream().allMatch(h -> h.score() <= ceiling), "ceiling " + ceiling + ": " + hits);
      }
    }
    assertEquals(0.0, margin[0], 1e-6, "without phrases the word order does not matter");
    assertTrue(
        margin[1] > 0.5, "the phrase ranks the verbatim content first, clearly: " + margin[1]);
  }

  /**
   * Text search filters a scope of at least half the index by doc values after scoring, and a
   * smaller scope as a query filter; both must find exactly the scope's matching memories, and the
   * best k must be the head of the full ranking (pruning never drops a better hit).
   */
  @Test
  void
      searchText_inADominantAndInARareScope_findsExactlyTheScopesMatches_andTopKIsTheHeadOfTheRanking() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    List<String> vocabulary =
        List.of("kafka", "postgres", "redis", "rollback", "latency", "oauth", "schema", "timeout");
    Scope big = Scope.of("big");
    Scope small = Scope.of("small");
    Map<String, Set<String>> wordsOf = new HashMap<>();
    Map<String, Scope> scopeOf = new HashMap<>();
    try (LuceneMemoryStore store = inMemory()) {
      Map<Memory, Embedding> batch = new LinkedHashMap<>();
      for (int i = 0; i < 330; i++) {
        Scope scope = i < 300 ? big : small;
        List<String> words = new ArrayList<>();
        for (int w = 0, n = 1 + random.nextInt(5); w < n; w++) {
          words.add(vocabulary.get(random.nextInt(vocabulary.size())));
        }
        String id = "m" + i;
        wordsOf.put(id, Set.copyOf(words));
        scopeOf.put(id, scope);
        batch.put(memory(id, scope, String.join(" ", words)), randomVector(random));
      }
      store.putAll(batch);
      for (int q = 0; q < 60; q++) {
        Scope scope = q % 2 == 0 ? big : small;
        Set<String> query = new HashSet<>();
        for (int w = 0, n = 1 + random.nextInt(2); w < n; w++) {
          query.add(vocabulary.get(random.nextInt(vocabulary.size())));
        }
        String text = String.join(" ", query);
        Set<String> expected = new HashSet<>();
        wordsOf.forEach(
            (id, words) -> {
              if (scopeOf.get(id).equals(scope) && words.stream().anyMatch(query::contains)) {
                expected.add(id);
              }
            });
        List<StoreHit> all = store.searchText(scope, text, 1000).hits();
        String context = "'" + text + "' in " + scope + "; " + Seeds.replay(seed);
        assertEquals(expected, Set.copyOf(ids(all)), context);
        List<StoreHit> top = store.searchText(scope, text, 5).hits();
        assertEquals(Math.min(5, all.size()), top.size(), context);
        for (int i = 0; i < top.size(); i++) {
          assertEquals(
              all.get(i).score(), top.get(i).score(), 1e-6, "rank " + i + " of " + context);
        }
      }
    }
  }

  @Test
  void filePath_isFoundByWordsIdentifierPartialPathAndExactPath() {
    try (LuceneMemoryStore store = analysisCorpus()) {
      for (String q :
          List.of(
              "auth middleware",
              "AuthMiddleware",
              "middleware/AuthMiddleware.java",
              "src/middleware/AuthMiddleware.java")) {
        assertFirst(store, q, "auth");
      }
    }
  }

  @Test
  void snakeAndCamelCase_matchExactlyAndByParts() {
    try (LuceneMemoryStore store = analysisCorpus()) {
      assertFirst(store, "parse_user_id", "snake");
      assertFirst(store, "parseUserId", "camel");
      List<String> byParts = ids(store.searchText(A, "user id", 10));
      assertTrue(byParts.containsAll(List.of("snake", "camel")), byParts.toString());
      assertFalse(byParts.contains("payments"));
    }
  }

  @Test
  void errorCodes_match() {
    try (LuceneMemoryStore store = analysisCorpus()) {
      assertFirst(store, "ECONNREFUSED", "econn");
      assertEquals(List.of("rust"), ids(store.searchText(A, "E0425", 10)));
    }
  }

  @Test
  void commitSha_matchesExactly_andByItsSevenCharacterPrefix() {
    try (LuceneMemoryStore store = analysisCorpus()) {
      assertEquals(
          List.of("sha"), ids(store.searchText(A, "3f2a9c1b4d5e6f708192a3b4c5d6e7f8091a2b3c", 10)));
      assertEquals(List.of("sha"), ids(store.searchText(A, "3f2a9c1", 10)));
      assertFirst(store, "what did 3f2a9c1 break?", "sha");
      assertEquals(List.of("sha"), ids(store.searchText(A, "3F2A9C1B4D", 10)));
    }
  }

  @Test
  void commandLine_matchesExactly_andByParts() {
    try (LuceneMemoryStore store = analysisCorpus()) {
      assertFirst(store, "mvn -pl core test", "cmd");
      assertFirst(store, "mvn", "cmd");
      List<StoreHit> hits = store.searchText(A, "mvn -pl core test", 10).hits();
      assertTrue(ids(hits).contains("plan"), "the loose match is found too");
    }
  }

  @Test
  void englishProse_isStemmed() {
    try (LuceneMemoryStore store = analysisCorpus()) {
      assertFirst(store, "run integration test", "prose");
      assertTrue(ids(store.searchText(A, "runs", 10)).contains("prose"), "running ~ runs");
      assertTrue(ids(store.searchText(A, "test", 10)).contains("prose"), "tests ~ test");
    }
  }

  @Test
  void theExactSpelling_outranksAStemOfIt_andAPlainWordMatchesAsBefore() {
    Memory exact = memory("exact", A, "running the nightly import job");
    Memory stemmed = memory("stemmed", A, "runs the nightly import job");
    Memory other = memory("other", A, "the weekly export job");
    try (LuceneMemoryStore store = inMemory()) {
      store.putAll(Map.of(exact, vector(1), stemmed, vector(2), other, vector(3)));
      // "running" stems to "run": both match it, the exact form only the first
      assertEquals(List.of("exact", "stemmed"), ids(store.searchText(A, "running", 10)));
      assertEquals(List.of("stemmed", "exact"), ids(store.searchText(A, "runs", 10)));
      // "nightly" is spelled alike by both chains: one clause, the same score for both
      List<StoreHit> nightly = store.searchText(A, "nightly", 10).hits();
      assertEquals(Set.of("exact", "stemmed"), new HashSet<>(ids(nightly)));
    }
  }

  @Test
  void chineseAndJapanese_areSearchable() {
    try (LuceneMemoryStore store = analysisCorpus()) {
      assertEquals(List.of("zh"), ids(store.searchText(A, "主数据库是什么", 10)));
      assertEquals(List.of("ja"), ids(store.searchText(A, "会議はいつ", 10)));
    }
  }

  @Test
  void speakerSessionAttributesAndDate_makeAMemoryFindable() {
    try (LuceneMemoryStore store = analysisCorpus()) {
      assertFirst(store, "When did Caroline go to the support group?", "caroline");
      assertFirst(store, "8 May 2023", "caroline");
      assertFirst(store, "what happened in May 2023", "caroline");
      assertFirst(store, "session-77", "caroline");
      assertFirst(store, "team lgbtq-outreach", "caroline");
    }
  }

  @Test
  void querySyntaxCharacters_areTreatedAsPlainText() {
    try (LuceneMemoryStore store = analysisCorpus()) {
      assertFirst(
          store,
          "AuthMiddleware.java:42 (NullPointerException) /* ? */ AND OR NOT \\ ~ ^ [x TO y]",
          "auth");
      assertTrue(store.searchText(A, ":::???((", 10).isEmpty());
      assertEquals(0.0, store.searchText(A, ":::", 10).ceiling(), 0.0);
    }
  }

  private static LuceneMemoryStore analysisCorpus() {
    LuceneMemoryStore store = inMemory();
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    int i = 0;
    for (Memory m :
        List.of(
            memory("auth", A, "Fixed the token refresh bug in src/middleware/AuthMiddleware.java.")
                .toBuilder()
                .files(List.of("src/middleware/AuthMiddleware.java"))
                .build(),
            memory("payments", A, "The payment service retries failed charges three times."),
            memory("snake", A, "Call parse_user_id before saving the session record."),
            memory("camel", A, "The helper parseUserId trims whitespace first."),
            memory("econn", A, "connect ECONNREFUSED 127.0.0.1:5432 when postgres is down"),
            memory("rust", A, "rustc error E0425: cannot find value in this scope"),
            memory(
                "sha",
                A,
                "Reverted commit 3f2a9c1b4d5e6f708192a3b4c5d6e7f8091a2b3c because it broke login."),
            memory("cmd", A, "Run `mvn -pl core test` to test only the core module."),
            memory("plan", A, "The test plan for core flows lists what the mvn build must cover."),
            memory("prose", A, "Dana is running the integration tests every night."),
            memory("zh", A, "我们决定使用 PostgreSQL 作为主数据库。"),
            memory("zh2", A, "今天天气很好，我们去公园散步。"),
            memory("ja", A, "東京オフィスの会議は毎週月曜日です。"),
            memory("caroline", A, "went to the support group and felt welcome").toBuilder()
                .origin(Origin.user("Caroline"))
                .sourceSession("session-77")
                .attributes(Map.of("team", "lgbtq-outreach"))
                .occurredAt(Instant.parse("2023-05-08T15:00:00Z"))
                .build(),
            memory("other", A, "Melanie painted a sunrise over the lake").toBuilder()
                .origin(Origin.user("Melanie"))
                .occurredAt(Instant.parse("2023-07-20T10:00:00Z"))
                .build())) {
      batch.put(m, vector(i++));
    }
    store.putAll(batch);
    return store;
  }

  private static void assertFirst(LuceneMemoryStore store, String query, String expected) {
    List<StoreHit> hits = store.searchText(A, query, 10).hits();
    assertFalse(hits.isEmpty(), "no hit for '" + query + "'");
    assertEquals(expected, hits.get(0).id().value(), "'" + query + "' -> " + hits);
    assertTrue(
        hits.size() == 1 || hits.get(1).score() < hits.get(0).score(),
        "'" + query + "' ties: " + hits);
  }
}
