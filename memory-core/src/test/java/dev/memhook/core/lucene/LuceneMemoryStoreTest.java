package dev.memhook.core.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LuceneMemoryStoreTest {
  private static final int DIM = 8;
  private static final EmbeddingSpace SPACE = new EmbeddingSpace("test-model", DIM);
  private static final Scope A = Scope.of("acme", "alice");
  private static final Scope B = Scope.of("acme", "bob");
  private static final Instant T0 = Instant.parse("2024-03-01T12:00:00Z");

  @TempDir Path dir;

  // ---------------------------------------------------------------------------------------------
  // durability and reopen

  @Test
  void reopen_everyAcknowledgedPutIsFound() {
    Path index = dir.resolve("index");
    List<Memory> written = new ArrayList<>();
    try (LuceneMemoryStore store = open(index)) {
      for (int i = 0; i < 20; i++) {
        Memory m = memory("m" + i, A, "note about topic" + i + " and more");
        store.put(m, vector(i));
        written.add(m);
      }
      Map<Memory, Embedding> batch = new LinkedHashMap<>();
      for (int i = 20; i < 30; i++) {
        Memory m = memory("m" + i, A, "note about topic" + i + " and more");
        batch.put(m, vector(i));
        written.add(m);
      }
      store.putAll(batch);
    }
    try (LuceneMemoryStore store = open(index)) {
      assertEquals(30, store.count(A));
      for (int i = 0; i < written.size(); i++) {
        Memory m = written.get(i);
        assertEquals(m, store.get(m.id()).orElseThrow());
        assertEquals(m.id().value(), ids(store.searchText(A, "topic" + i, 5)).get(0));
        assertEquals(m.id().value(), ids(store.searchVector(A, vector(i), 1)).get(0));
      }
    }
  }

  @Test
  void reopen_withNothingToWrite_makesNoCommit() throws Exception {
    // A commit on open would cost an fsync and start pending merges beside the first searches.
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = open(index)) {
      store.put(memory("r1", A, "reopened kafka note"), vector(1));
    }
    long generation;
    try (Directory d = FSDirectory.open(index)) {
      generation = SegmentInfos.getLastCommitGeneration(d);
    }
    try (LuceneMemoryStore store = open(index)) {
      assertEquals(List.of("r1"), ids(store.searchText(A, "kafka", 5)));
    }
    try (Directory d = FSDirectory.open(index)) {
      assertEquals(generation, SegmentInfos.getLastCommitGeneration(d));
    }
  }

  @Test
  void reopen_withGroupCommit_closeCommitsPendingWrites() {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).groupCommit(Duration.ofMinutes(1)).build()) {
      store.attach(SPACE);
      store.put(memory("g1", A, "group committed kafka note"), vector(1));
      assertEquals(List.of("g1"), ids(store.searchText(A, "kafka", 5)), "visible before the commit");
    }
    try (LuceneMemoryStore store = open(index)) {
      assertTrue(store.get(MemoryId.of("g1")).isPresent());
    }
  }

  @Test
  void reopen_withAnotherDimension_throwsIncompatible_namingBothSpaces() {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = open(index)) {
      store.put(memory("m1", A, "x"), vector(1));
    }
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).build()) {
      IncompatibleStoreException e = assertThrows(IncompatibleStoreException.class,
          () -> store.attach(new EmbeddingSpace("test-model", DIM * 2)));
      assertTrue(e.getMessage().contains("dimension " + DIM), e.getMessage());
      assertTrue(e.getMessage().contains("dimension " + DIM * 2), e.getMessage());
      assertTrue(e.getMessage().contains("test-model"), e.getMessage());
      assertTrue(store.get(MemoryId.of("m1")).isPresent(), "a refused attach changes nothing");
    }
  }

  @Test
  void reopen_withAnotherModel_throwsIncompatible_namingBothModels() {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = open(index)) {
      store.put(memory("m1", A, "x"), vector(1));
    }
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).build()) {
      IncompatibleStoreException e = assertThrows(IncompatibleStoreException.class,
          () -> store.attach(new EmbeddingSpace("other-model", DIM)));
      assertTrue(e.getMessage().contains("'test-model'") && e.getMessage().contains("'other-model'"), e.getMessage());
    }
    try (LuceneMemoryStore store = open(index)) {
      assertEquals(1, store.count(A), "the original space still attaches");
    }
  }

  @Test
  void reopen_withOtherFieldWeights_throwsIncompatible_andTheOriginalWeightsStillOpen() {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = open(index)) {
      store.put(memory("m1", A, "kafka consumer lag"), vector(1));
    }
    IncompatibleStoreException e = assertThrows(IncompatibleStoreException.class,
        () -> LuceneMemoryStore.builder().directory(index).fieldBoost(LuceneMemoryStore.SearchField.TITLE, 3f).build());
    assertTrue(e.getMessage().contains("title=8") && e.getMessage().contains("title=12"), e.getMessage());
    try (LuceneMemoryStore store = open(index)) {
      assertEquals(List.of("m1"), ids(store.searchText(A, "kafka", 10)), "a refused open changes nothing");
    }
  }

  @Test
  void fieldWeights_orderMatchesInDifferentParts() {
    // the same word once in each memory, in parts of different weight (same length otherwise)
    Memory inTitle = memory("title", A, "notes from monday").toBuilder().title("kafka").build();
    Memory inContext = memory("context", A, "notes from monday").toBuilder().context("kafka").build();
    Memory inContent = memory("content", A, "notes from kafka");
    try (LuceneMemoryStore store = inMemory()) {
      store.putAll(Map.of(inTitle, vector(1), inContext, vector(2), inContent, vector(3)));
      assertEquals(List.of("title", "content", "context"), ids(store.searchText(A, "kafka", 10)));
    }
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().inMemory()
        .fieldBoost(LuceneMemoryStore.SearchField.CONTEXT, 4f).build()) {
      store.attach(SPACE);
      store.putAll(Map.of(inTitle, vector(1), inContext, vector(2), inContent, vector(3)));
      assertEquals(List.of("context", "title", "content"), ids(store.searchText(A, "kafka", 10)));
    }
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().inMemory()
        .fieldBoost(LuceneMemoryStore.SearchField.CONTEXT, 0f).build()) {
      store.attach(SPACE);
      store.putAll(Map.of(inTitle, vector(1), inContext, vector(2), inContent, vector(3)));
      assertEquals(List.of("title", "content"), ids(store.searchText(A, "kafka", 10)), "weight 0 leaves the part out");
    }
  }

  @Test
  void phrases_whenWeighted_rankTheVerbatimContentFirst() {
    Memory verbatim = memory("verbatim", A, "run mvn clean install before the release");
    Memory scattered = memory("scattered", A, "install the release, then run mvn clean");
    Memory other = memory("other", A, "the weekly report");
    double[] margin = new double[2];
    for (int weighted = 0; weighted < 2; weighted++) {
      try (LuceneMemoryStore store = LuceneMemoryStore.builder().inMemory().phraseWeight(weighted * 2f).build()) {
        store.attach(SPACE);
        store.putAll(Map.of(verbatim, vector(1), scattered, vector(2), other, vector(3)));
        TextHits found = store.searchText(A, "mvn clean install", 10);
        List<StoreHit> hits = found.hits();
        assertEquals(Set.of("verbatim", "scattered"), Set.copyOf(ids(hits)));
        Map<String, Double> score = new HashMap<>();
        hits.forEach(h -> score.put(h.id().value(), h.score()));
        margin[weighted] = score.get("verbatim") - score.get("scattered");
        double ceiling = found.ceiling();
        assertTrue(hits.stream().allMatch(h -> h.score() <= ceiling), "ceiling " + ceiling + ": " + hits);
      }
    }
    assertEquals(0.0, margin[0], 1e-6, "without phrases the word order does not matter");
    assertTrue(margin[1] > 0.5, "the phrase ranks the verbatim content first, clearly: " + margin[1]);
  }

  @Test
  void secondStoreOnTheSameDirectory_failsWithALockError() {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore first = open(index)) {
      MemoryStoreException e = assertThrows(MemoryStoreException.class,
          () -> LuceneMemoryStore.builder().directory(index).build());
      assertTrue(e.getMessage().contains("locked"), e.getMessage());
      first.put(memory("m1", A, "still usable"), vector(1));
    }
    try (LuceneMemoryStore again = open(index)) {
      assertEquals(1, again.count(A), "the lock is released by close");
    }
  }

  @Test
  void put_beforeAttach_isAnIllegalState() {
    try (LuceneMemoryStore store = LuceneMemoryStore.inMemory()) {
      assertThrows(IllegalStateException.class, () -> store.put(memory("m1", A, "x"), vector(1)));
    }
  }

  @Test
  void builder_rejectsInvalidSettings() {
    assertThrows(IllegalStateException.class, () -> LuceneMemoryStore.builder().build());
    assertThrows(IllegalStateException.class, () -> LuceneMemoryStore.builder().inMemory().directory(dir).build());
    assertThrows(IllegalArgumentException.class, () -> LuceneMemoryStore.builder().hnswMaxConn(1));
    assertThrows(IllegalArgumentException.class, () -> LuceneMemoryStore.builder().efSearch(0));
    assertThrows(IllegalArgumentException.class, () -> LuceneMemoryStore.builder().cacheSize(-1));
    assertThrows(IllegalArgumentException.class, () -> LuceneMemoryStore.builder().groupCommit(Duration.ZERO));
    assertThrows(IllegalArgumentException.class,
        () -> LuceneMemoryStore.builder().fieldBoost(LuceneMemoryStore.SearchField.TITLE, Float.NaN));
    assertThrows(IllegalArgumentException.class,
        () -> LuceneMemoryStore.builder().fieldBoost(LuceneMemoryStore.SearchField.TITLE, 0.1f));
    assertThrows(IllegalArgumentException.class,
        () -> LuceneMemoryStore.builder().fieldBoost(LuceneMemoryStore.SearchField.TITLE, 65f));
    assertThrows(NullPointerException.class, () -> LuceneMemoryStore.builder().directory(null));
  }

  @Test
  void hugeK_isFine() {
    try (LuceneMemoryStore store = inMemory()) {
      store.put(memory("m1", A, "kafka").toBuilder().concepts(List.of("c")).build(), vector(1));
      assertEquals(1, store.searchText(A, "kafka", Integer.MAX_VALUE).hits().size());
      assertEquals(1, store.searchVector(A, vector(1), Integer.MAX_VALUE).size());
      assertEquals(1, store.searchRelated(A, Set.of("c"), Set.of(), Integer.MAX_VALUE).size());
    }
  }

  @Test
  void k_mustBePositive() {
    try (LuceneMemoryStore store = inMemory()) {
      assertThrows(IllegalArgumentException.class, () -> store.searchText(A, "x", 0));
      assertThrows(IllegalArgumentException.class, () -> store.searchVector(A, vector(1), 0));
      assertThrows(IllegalArgumentException.class, () -> store.searchRelated(A, Set.of("x"), Set.of(), -1));
    }
  }

  @Test
  void reopen_ofAFormat1Index_throwsIncompatible_namingBothFormats() throws Exception {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = open(index)) {
      store.put(memory("m1", A, "x"), vector(1));
    }
    try (Directory d = FSDirectory.open(index)) {
      assertEquals("2", SegmentInfos.readLatestCommit(d).getUserData().get(LuceneMemoryStore.USER_DATA_FORMAT));
      // An index of format 1 (COSINE vectors, no id doc values), as far as the format check can tell.
      try (IndexWriter w = new IndexWriter(d, new IndexWriterConfig().setOpenMode(IndexWriterConfig.OpenMode.APPEND))) {
        Map<String, String> userData = new HashMap<>();
        w.getLiveCommitData().forEach(e -> userData.put(e.getKey(), e.getValue()));
        userData.put(LuceneMemoryStore.USER_DATA_FORMAT, "1");
        w.setLiveCommitData(userData.entrySet());
        w.commit();
      }
    }
    IncompatibleStoreException e = assertThrows(IncompatibleStoreException.class,
        () -> LuceneMemoryStore.builder().directory(index).build());
    assertTrue(e.getMessage().contains("index format 1") && e.getMessage().contains("reads format 2"), e.getMessage());
    assertTrue(e.getMessage().contains("rebuild the index"), e.getMessage());
    try (Directory d = FSDirectory.open(index)) {
      assertEquals("1", SegmentInfos.readLatestCommit(d).getUserData().get(LuceneMemoryStore.USER_DATA_FORMAT),
          "a refused open leaves the index as it was");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // write path: lazy refresh, segments, forceMerge

  @ParameterizedTest(name = "groupCommit={0}")
  @ValueSource(booleans = {false, true})
  void readYourWrites_putThenSearchAndGet_1000Times_alwaysFindTheJustWrittenMemory(boolean groupCommit) {
    LuceneMemoryStore.Builder builder = LuceneMemoryStore.builder().inMemory();
    if (groupCommit) {
      builder.groupCommit(Duration.ofMinutes(1));
    }
    try (LuceneMemoryStore store = builder.build()) {
      store.attach(SPACE);
      for (int i = 0; i < 1000; i++) {
        Memory m = memory("rw" + i, A, "note rwmark" + i);
        store.put(m, vector(i));
        // Alternate which read comes first, so each read path is at times the first after a write.
        if (i % 2 == 0) {
          assertEquals(List.of("rw" + i), ids(store.searchText(A, "rwmark" + i, 1)), "search after put " + i);
          assertEquals(m, store.get(m.id()).orElseThrow(), "get after put " + i);
        } else {
          assertEquals(m, store.get(m.id()).orElseThrow(), "get after put " + i);
          assertEquals(List.of("rw" + i), ids(store.searchText(A, "rwmark" + i, 1)), "search after put " + i);
        }
        assertEquals(i + 1, store.count(A), "count after put " + i);
      }
    }
  }

  @Test
  void concurrentReaders_alwaysSeeEveryWriteThatHasReturned() throws Exception {
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().inMemory().groupCommit(Duration.ofMinutes(1)).build()) {
      store.attach(SPACE);
      AtomicInteger written = new AtomicInteger(); // memories whose put has returned
      AtomicBoolean done = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<Integer>> readers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
          readers.add(pool.submit(() -> {
            int checks = 0;
            while (!done.get()) {
              int n = written.get();
              long seen = store.count(A);
              assertTrue(seen >= n, "count " + seen + " after " + n + " puts returned");
              if (n > 0) {
                MemoryId last = MemoryId.of("c" + (n - 1));
                assertTrue(store.get(last).isPresent(), last + " after " + n + " puts returned");
              }
              checks++;
            }
            return checks;
          }));
        }
        Future<?> writer = pool.submit(() -> {
          try {
            for (int i = 0; i < 400; i++) {
              store.put(memory("c" + i, A, "concurrent " + i), vector(i));
              written.set(i + 1);
            }
          } finally {
            done.set(true);
          }
          return null;
        });
        writer.get(120, TimeUnit.SECONDS);
        for (Future<Integer> r : readers) {
          assertTrue(r.get(120, TimeUnit.SECONDS) > 0);
        }
      } finally {
        done.set(true);
        pool.shutdownNow();
      }
      assertEquals(400, store.count(A));
    }
  }

  @Test
  void writesWithNoReadBetween_withGroupCommit_areFlushedAsOneSegment() {
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(dir.resolve("index"))
        .groupCommit(Duration.ofMinutes(1)).build()) {
      store.attach(SPACE);
      for (int i = 0; i < 50; i++) {
        store.put(memory("m" + i, A, "burst " + i), vector(i));
      }
      assertEquals(1, store.segmentCount(), "a refresh per write would flush a segment per write");
      assertEquals(50, store.count(A));
    }
  }

  @Test
  void delete_rightAfterPut_withNoReadBetween_findsTheMemory() {
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().inMemory().groupCommit(Duration.ofMinutes(1)).build()) {
      store.attach(SPACE);
      store.count(A); // the searcher is now current, and older than the put below
      store.put(memory("m1", A, "short lived"), vector(1));
      assertTrue(store.delete(MemoryId.of("m1"), new ForgetRecord(MemoryId.of("m1"), A, "alice", "x", T0)));
      assertTrue(store.get(MemoryId.of("m1")).isEmpty());
      assertEquals(1, store.forgotten(A).size());
    }
  }

  @Test
  void forceMerge_leavesThatManySegments_keepsEveryMemory_andCommits() throws Exception {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).groupCommit(Duration.ofMinutes(1)).build()) {
      store.attach(SPACE);
      int n = 0;
      int segments = 0;
      // Each read after a write flushes a segment; background merges may fold some together.
      while (n < 300 && segments < 3) {
        store.put(memory("m" + n, A, "merge note " + n).toBuilder().concepts(List.of("merge")).build(), vector(n));
        n++;
        segments = store.segmentCount();
      }
      assertTrue(segments >= 3, "precondition: several segments, got " + segments + " after " + n + " puts");
      try (Directory d = FSDirectory.open(index)) {
        assertEquals(0, SegmentInfos.readLatestCommit(d).totalMaxDoc(), "precondition: group commit has not run");
      }

      store.forceMerge(1);

      assertEquals(1, store.segmentCount());
      try (Directory d = FSDirectory.open(index)) {
        SegmentInfos committed = SegmentInfos.readLatestCommit(d);
        assertEquals(1, committed.size(), "the merged index is committed");
        assertEquals(n, committed.totalMaxDoc());
      }
      assertEquals(n, store.count(A));
      assertEquals(n, store.searchRelated(A, Set.of("merge"), Set.of(), 1000).size());
      for (int i = 0; i < n; i++) {
        assertEquals(List.of("m" + i), ids(store.searchText(A, "merge note " + i, 1)));
      }
      store.put(memory("after", A, "written after the merge"), vector(1));
      assertEquals(List.of("after"), ids(store.searchText(A, "after", 1)));
    }
  }

  @Test
  void forceMerge_rejectsFewerThanOneSegment_andAClosedStore() {
    LuceneMemoryStore store = inMemory();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.forceMerge(0));
    assertTrue(e.getMessage().contains("0"), e.getMessage());
    store.forceMerge(1); // an empty index merges to nothing, fine
    store.close();
    assertThrows(IllegalStateException.class, () -> store.forceMerge(1));
  }

  @Test
  void forceMerge_whileOtherThreadsWriteAndSearch_losesNothing() throws Exception {
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().inMemory().groupCommit(Duration.ofMillis(5)).build()) {
      store.attach(SPACE);
      ExecutorService pool = Executors.newFixedThreadPool(3);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
          int thread = t;
          futures.add(pool.submit(() -> {
            for (int i = 0; i < 150; i++) {
              Memory m = memory("t" + thread + "-" + i, A, "parallel " + i);
              store.put(m, vector(i));
              assertEquals(m, store.get(m.id()).orElseThrow());
            }
            return null;
          }));
        }
        futures.add(pool.submit(() -> {
          for (int i = 0; i < 10; i++) {
            store.forceMerge(1 + i % 3);
          }
          return null;
        }));
        for (Future<?> f : futures) {
          f.get(120, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      assertEquals(300, store.count(A));
      store.forceMerge(1);
      assertEquals(1, store.segmentCount());
      assertEquals(300, store.count(A));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // properties: scope isolation, forgetting, latest-only

  /**
   * Text search filters a scope of at least half the index by doc values after scoring, and a
   * smaller scope as a query filter; both must find exactly the scope's matching memories, and
   * the best k must be the head of the full ranking (pruning never drops a better hit).
   */
  @Test
  void searchText_inADominantAndInARareScope_findsExactlyTheScopesMatches_andTopKIsTheHeadOfTheRanking() {
    long seed = System.nanoTime();
    System.out.println("dominantAndRareScope seed " + seed);
    Random random = new Random(seed);
    List<String> vocabulary = List.of("kafka", "postgres", "redis", "rollback", "latency", "oauth", "schema", "timeout");
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
        wordsOf.forEach((id, words) -> {
          if (scopeOf.get(id).equals(scope) && words.stream().anyMatch(query::contains)) {
            expected.add(id);
          }
        });
        List<StoreHit> all = store.searchText(scope, text, 1000).hits();
        String context = "'" + text + "' in " + scope + "; seed " + seed;
        assertEquals(expected, Set.copyOf(ids(all)), context);
        List<StoreHit> top = store.searchText(scope, text, 5).hits();
        assertEquals(Math.min(5, all.size()), top.size(), context);
        for (int i = 0; i < top.size(); i++) {
          assertEquals(all.get(i).score(), top.get(i).score(), 1e-6, "rank " + i + " of " + context);
        }
      }
    }
  }

  @Test
  void scopeIsolation_noSearchOfOneScopeEverReturnsAnotherScopesMemory() {
    long seed = System.nanoTime();
    System.out.println("scopeIsolation seed " + seed);
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
          assertTrue(h.score() <= ceiling, h + " above ceiling " + ceiling + " for '" + query + "'; seed " + seed);
        }
        hits.addAll(textHits);
        hits.addAll(store.searchVector(scope, randomVector(random), 50));
        hits.addAll(store.searchRelated(scope, concepts, files, 50));
        for (StoreHit hit : hits) {
          assertEquals(scope, scopeOf.get(hit.id().value()), "query '" + query + "' in " + scope + "; seed " + seed);
        }
      }
      for (Scope scope : scopes) {
        assertEquals(scopeOf.values().stream().filter(scope::equals).count(), store.count(scope), "seed " + seed);
      }
    }
  }

  @Test
  void forgottenIds_neverComeBack_fromAnySearchOrGet_evenAfterReopen() {
    long seed = System.nanoTime();
    System.out.println("forgotten seed " + seed);
    Random random = new Random(seed);
    Path index = dir.resolve("index");
    Map<String, Embedding> vectors = new HashMap<>();
    Set<MemoryId> forgotten = new HashSet<>();
    List<ForgetRecord> audits = new ArrayList<>();
    try (LuceneMemoryStore store = open(index)) {
      for (int i = 0; i < 40; i++) {
        Embedding v = randomVector(random);
        vectors.put("m" + i, v);
        store.put(randomMemory(random, "m" + i, A), v);
      }
      for (int i = 0; i < 40; i++) {
        if (random.nextInt(3) == 0) {
          MemoryId id = MemoryId.of("m" + i);
          // Times out of id order, so "oldest first" is checked for real.
          ForgetRecord audit = new ForgetRecord(id, A, "alice", "test", T0.plusSeconds(random.nextInt(10_000)));
          assertTrue(store.delete(id, audit));
          forgotten.add(id);
          audits.add(audit);
        }
      }
      assertForgotten(store, random, seed, vectors, forgotten);
    }
    try (LuceneMemoryStore store = open(index)) {
      assertForgotten(store, random, seed, vectors, forgotten);
      List<ForgetRecord> expected = new ArrayList<>(audits);
      expected.sort(Comparator.comparing(ForgetRecord::at).thenComparing(r -> r.id().value()));
      assertEquals(expected, store.forgotten(A), "oldest first; seed " + seed);
      assertTrue(store.forgotten(B).isEmpty());
      assertEquals(40 - forgotten.size(), store.count(A));
    }
  }

  private static void assertForgotten(LuceneMemoryStore store, Random random, long seed,
      Map<String, Embedding> vectors, Set<MemoryId> forgotten) {
    for (MemoryId id : forgotten) {
      assertTrue(store.get(id).isEmpty(), id + "; seed " + seed);
      assertTrue(store.searchVector(A, vectors.get(id.value()), 40).stream().noneMatch(h -> h.id().equals(id)),
          id + "; seed " + seed);
    }
    assertTrue(store.getAll(forgotten).isEmpty(), "seed " + seed);
    for (String word : WORDS) {
      assertTrue(store.searchText(A, word, 40).hits().stream().noneMatch(h -> forgotten.contains(h.id())), word + "; seed " + seed);
    }
    assertTrue(store.searchRelated(A, new HashSet<>(CONCEPTS), new HashSet<>(FILES), 40).stream()
        .noneMatch(h -> forgotten.contains(h.id())), "seed " + seed);
  }

  @Test
  void delete_ofAnUnknownId_writesNoAudit() {
    try (LuceneMemoryStore store = inMemory()) {
      assertFalse(store.delete(MemoryId.of("nope"), new ForgetRecord(MemoryId.of("nope"), A, "alice", "x", T0)));
      assertTrue(store.forgotten(A).isEmpty());
      assertThrows(IllegalArgumentException.class,
          () -> store.delete(MemoryId.of("a"), new ForgetRecord(MemoryId.of("b"), A, "alice", "x", T0)));
    }
  }

  @Test
  void latestFalse_isNeverSearched_butIsReturnedByGet() {
    try (LuceneMemoryStore store = inMemory()) {
      Memory old = memory("old", A, "the flux capacitor needs 1.21 gigawatts").toBuilder()
          .concepts(List.of("flux")).files(List.of("src/Flux.java")).latest(false).build();
      store.put(old, vector(3));
      assertTrue(store.searchText(A, "flux capacitor gigawatts", 10).isEmpty());
      assertTrue(store.searchVector(A, vector(3), 10).isEmpty());
      assertTrue(store.searchRelated(A, Set.of("flux"), Set.of("src/Flux.java"), 10).isEmpty());
      assertEquals(0, store.count(A));
      assertEquals(old, store.get(old.id()).orElseThrow());
      store.put(old.withLatest(true), vector(3));
      assertEquals(List.of("old"), ids(store.searchText(A, "flux capacitor", 10)), "an upsert flips it back");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // analysis examples at the store level

  @Test
  void filePath_isFoundByWordsIdentifierPartialPathAndExactPath() {
    try (LuceneMemoryStore store = analysisCorpus()) {
      for (String q : List.of("auth middleware", "AuthMiddleware", "middleware/AuthMiddleware.java",
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
      assertEquals(List.of("sha"), ids(store.searchText(A, "3f2a9c1b4d5e6f708192a3b4c5d6e7f8091a2b3c", 10)));
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
      assertFirst(store, "AuthMiddleware.java:42 (NullPointerException) /* ? */ AND OR NOT \\ ~ ^ [x TO y]", "auth");
      assertTrue(store.searchText(A, ":::???((", 10).isEmpty());
      assertEquals(0.0, store.searchText(A, ":::", 10).ceiling(), 0.0);
    }
  }

  private LuceneMemoryStore analysisCorpus() {
    LuceneMemoryStore store = inMemory();
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    int i = 0;
    for (Memory m : List.of(
        memory("auth", A, "Fixed the token refresh bug in src/middleware/AuthMiddleware.java.")
            .toBuilder().files(List.of("src/middleware/AuthMiddleware.java")).build(),
        memory("payments", A, "The payment service retries failed charges three times."),
        memory("snake", A, "Call parse_user_id before saving the session record."),
        memory("camel", A, "The helper parseUserId trims whitespace first."),
        memory("econn", A, "connect ECONNREFUSED 127.0.0.1:5432 when postgres is down"),
        memory("rust", A, "rustc error E0425: cannot find value in this scope"),
        memory("sha", A, "Reverted commit 3f2a9c1b4d5e6f708192a3b4c5d6e7f8091a2b3c because it broke login."),
        memory("cmd", A, "Run `mvn -pl core test` to test only the core module."),
        memory("plan", A, "The test plan for core flows lists what the mvn build must cover."),
        memory("prose", A, "Dana is running the integration tests every night."),
        memory("zh", A, "我们决定使用 PostgreSQL 作为主数据库。"),
        memory("zh2", A, "今天天气很好，我们去公园散步。"),
        memory("ja", A, "東京オフィスの会議は毎週月曜日です。"),
        memory("caroline", A, "went to the support group and felt welcome").toBuilder()
            .origin(Origin.user("Caroline")).sourceSession("session-77")
            .attributes(Map.of("team", "lgbtq-outreach"))
            .occurredAt(Instant.parse("2023-05-08T15:00:00Z")).build(),
        memory("other", A, "Melanie painted a sunrise over the lake").toBuilder()
            .origin(Origin.user("Melanie")).occurredAt(Instant.parse("2023-07-20T10:00:00Z")).build())) {
      batch.put(m, vector(i++));
    }
    store.putAll(batch);
    return store;
  }

  private static void assertFirst(LuceneMemoryStore store, String query, String expected) {
    List<StoreHit> hits = store.searchText(A, query, 10).hits();
    assertFalse(hits.isEmpty(), "no hit for '" + query + "'");
    assertEquals(expected, hits.get(0).id().value(), "'" + query + "' -> " + hits);
    assertTrue(hits.size() == 1 || hits.get(1).score() < hits.get(0).score(), "'" + query + "' ties: " + hits);
  }

  // ---------------------------------------------------------------------------------------------
  // vectors, related, cache, concurrency

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
        Set<String> exact = all.entrySet().stream()
            .sorted(Comparator.comparingDouble((Map.Entry<String, Embedding> e) -> -e.getValue().cosine(query)))
            .limit(k).map(Map.Entry::getKey).collect(Collectors.toSet());
        List<StoreHit> hits = store.searchVector(A, query, k);
        assertEquals(k, hits.size());
        for (StoreHit h : hits) {
          if (exact.contains(h.id().value())) {
            found++;
          }
          assertEquals(all.get(h.id().value()).cosine(query), h.score(), 1e-4, "score is the cosine");
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
        assertEquals(List.of("same", "diagonal", "orthogonal", "opposite"), ids(hits), "scale " + scale);
        double[] expected = {1.0, Math.sqrt(0.5), 0.0, -1.0};
        for (int i = 0; i < 4; i++) {
          assertEquals(expected[i], hits.get(i).score(), 1e-5, hits.get(i) + " at scale " + scale);
        }
      }
    }
  }

  @Test
  void hits_spreadOverManySegments_eachCarryTheirOwnId() {
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().inMemory().groupCommit(Duration.ofMinutes(1)).build()) {
      store.attach(SPACE);
      Map<String, Embedding> vectors = new HashMap<>();
      int maxSegments = 0;
      for (int i = 0; i < 40; i++) {
        Memory m = memory("s" + i, A, "segment note seg" + i).toBuilder().concepts(List.of("segmented")).build();
        vectors.put(m.id().value(), vector(i));
        store.put(m, vector(i));
        maxSegments = Math.max(maxSegments, store.segmentCount()); // a refresh: one more segment
      }
      assertTrue(maxSegments > 1, "precondition: hits from several segments, got " + maxSegments);
      Set<String> all = new HashSet<>(ids(store.searchRelated(A, Set.of("segmented"), Set.of(), 100)));
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
      store.put(memory("m1", A, "x").toBuilder().concepts(List.of("auth", "auth")).files(List.of("a/B.java")).build(), vector(1));
      List<StoreHit> hits = store.searchRelated(A, Set.of("AUTH"), Set.of("a/B.java", "a/b.java"), 5);
      assertEquals(List.of("m1"), ids(hits));
      assertEquals(2.0, hits.get(0).score(), 1e-9, "a duplicated concept counts once");
      assertTrue(store.searchRelated(A, Set.of(), Set.of(), 5).isEmpty());
    }
  }

  @Test
  void get_afterPut_neverReturnsAStaleCachedRecord() {
    try (LuceneMemoryStore store = inMemory()) {
      for (int i = 0; i < 20; i++) {
        Memory m = memory("m", A, "version " + i);
        store.put(m, vector(i));
        assertEquals(m, store.get(m.id()).orElseThrow());
        assertEquals(m, store.getAll(List.of(m.id())).get(m.id()));
      }
      store.delete(MemoryId.of("m"), new ForgetRecord(MemoryId.of("m"), A, "alice", "x", T0));
      assertTrue(store.get(MemoryId.of("m")).isEmpty());
    }
  }

  @Test
  void concurrency_putsDeletesGetsAndSearches_fromSeveralThreads() throws Exception {
    long seed = System.nanoTime();
    System.out.println("concurrency seed " + seed);
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(dir.resolve("index"))
        .groupCommit(Duration.ofMillis(5)).build()) {
      store.attach(SPACE);
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          int thread = t;
          Random random = new Random(seed + t);
          futures.add(pool.submit(() -> {
            for (int i = 0; i < 40; i++) {
              Memory m = randomMemory(random, "t" + thread + "-" + i, A);
              store.put(m, randomVector(random));
              assertEquals(m, store.get(m.id()).orElseThrow());
              store.searchText(A, randomWords(random, 2), 5);
              store.searchVector(A, randomVector(random), 5);
              if (i % 4 == 0) {
                assertTrue(store.delete(m.id(), new ForgetRecord(m.id(), A, "t", "x", T0)));
              }
            }
            return null;
          }));
        }
        for (Future<?> f : futures) {
          f.get(120, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      assertEquals(4 * 30, store.count(A), "seed " + seed);
      assertEquals(4 * 10, store.forgotten(A).size(), "seed " + seed);
    }
  }

  @Test
  void afterClose_everyMethodThrowsIllegalState() {
    LuceneMemoryStore store = inMemory();
    store.close();
    store.close();
    assertThrows(IllegalStateException.class, () -> store.attach(SPACE));
    assertThrows(IllegalStateException.class, () -> store.count(A));
    assertThrows(IllegalStateException.class, () -> store.forgotten(A));
    assertThrows(IllegalStateException.class, () -> store.searchRelated(A, Set.of("x"), Set.of(), 1));
    assertThrows(IllegalStateException.class, () -> store.searchVector(A, vector(1), 1));
    assertThrows(IllegalStateException.class, () -> store.getAll(List.of(MemoryId.of("x"))));
    assertThrows(IllegalStateException.class,
        () -> store.delete(MemoryId.of("x"), new ForgetRecord(MemoryId.of("x"), A, "a", "r", T0)));
  }

  // ---------------------------------------------------------------------------------------------
  // fixtures

  private static final List<String> WORDS = List.of("kafka", "postgres", "redis", "deploy", "rollback",
      "latency", "oauth", "schema", "migration", "retry", "timeout", "parseUserId", "E0425", "mvn");
  private static final List<String> CONCEPTS = List.of("auth", "db", "cache", "ci", "infra");
  private static final List<String> FILES = List.of("pom.xml", "src/A.java", "src/b/C.java", "README.md");

  private LuceneMemoryStore open(Path index) {
    LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).build();
    store.attach(SPACE);
    return store;
  }

  private static LuceneMemoryStore inMemory() {
    LuceneMemoryStore store = LuceneMemoryStore.inMemory();
    store.attach(SPACE);
    return store;
  }

  private static Memory memory(String id, Scope scope, String content) {
    return Memory.builder().id(MemoryId.of(id)).scope(scope).type(MemoryType.FACT).content(content)
        .occurredAt(T0).createdAt(T0).build();
  }

  private static Memory randomMemory(Random random, String id, Scope scope) {
    return memory(id, scope, randomWords(random, 3 + random.nextInt(6))).toBuilder()
        .title(randomWords(random, 2))
        .concepts(List.of(CONCEPTS.get(random.nextInt(CONCEPTS.size()))))
        .files(List.of(FILES.get(random.nextInt(FILES.size()))))
        .build();
  }

  private static String randomWords(Random random, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(WORDS.get(random.nextInt(WORDS.size()))).append(' ');
    }
    return sb.toString().trim();
  }

  private static Embedding vector(int axis) {
    float[] v = new float[DIM];
    v[Math.floorMod(axis, DIM)] = 1f;
    v[Math.floorMod(axis + 1, DIM)] = 0.05f * (1 + Math.floorMod(axis / DIM, 5));
    return Embedding.of(v);
  }

  /** A vector with {@code x} and {@code y} on its first two axes, zero elsewhere. */
  private static Embedding axes(float x, float y) {
    float[] v = new float[DIM];
    v[0] = x;
    v[1] = y;
    return Embedding.of(v);
  }

  private static Embedding randomVector(Random random) {
    return randomVector(random, DIM);
  }

  private static Embedding randomVector(Random random, int dim) {
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = (float) random.nextGaussian();
    }
    return Embedding.of(v);
  }

  private static List<String> ids(TextHits hits) {
    return ids(hits.hits());
  }

  private static List<String> ids(List<StoreHit> hits) {
    return hits.stream().map(h -> h.id().value()).collect(Collectors.toList());
  }
}
