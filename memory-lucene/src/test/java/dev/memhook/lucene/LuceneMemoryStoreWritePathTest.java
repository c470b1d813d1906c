package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.T0;
import static dev.memhook.lucene.LuceneStoreFixtures.ids;
import static dev.memhook.lucene.LuceneStoreFixtures.inMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomVector;
import static dev.memhook.lucene.LuceneStoreFixtures.randomWords;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.testkit.Seeds;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The write path: read-your-writes without a refresh per write, the record cache, {@code
 * forceMerge}, concurrent writers and readers.
 */
class LuceneMemoryStoreWritePathTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "groupCommit={0}")
  @ValueSource(booleans = {false, true})
  void readYourWrites_putThenSearchAndGet_1000Times_alwaysFindTheJustWrittenMemory(
      boolean groupCommit) {
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
          assertEquals(
              List.of("rw" + i),
              ids(store.searchText(A, "rwmark" + i, 1)),
              "search after put " + i);
          assertEquals(m, store.get(m.id()).orElseThrow(), "get after put " + i);
        } else {
          assertEquals(m, store.get(m.id()).orElseThrow(), "get after put " + i);
          assertEquals(
              List.of("rw" + i),
              ids(store.searchText(A, "rwmark" + i, 1)),
              "search after put " + i);
        }
        assertEquals(i + 1, store.count(A), "count after put " + i);
      }
    }
  }

  @Test
  void concurrentReaders_alwaysSeeEveryWriteThatHasReturned() throws Exception {
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().inMemory().groupCommit(Duration.ofMinutes(1)).build()) {
      store.attach(SPACE);
      AtomicInteger written = new AtomicInteger(); // memories whose put has returned
      AtomicBoolean done = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<Integer>> readers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
          readers.add(
              pool.submit(
                  () -> {
                    int checks = 0;
                    while (!done.get()) {
                      int n = written.get();
                      long seen = store.count(A);
                      assertTrue(seen >= n, "count " + seen + " after " + n + " puts returned");
                      if (n > 0) {
                        MemoryId last = MemoryId.of("c" + (n - 1));
                        assertTrue(
                            store.get(last).isPresent(), last + " after " + n + " puts returned");
                      }
                      checks++;
                    }
                    return checks;
                  }));
        }
        Future<?> writer =
            pool.submit(
                () -> {
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
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder()
            .directory(dir.resolve("index"))
            .groupCommit(Duration.ofMinutes(1))
            .build()) {
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
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().inMemory().groupCommit(Duration.ofMinutes(1)).build()) {
      store.attach(SPACE);
      store.count(A); // the searcher is now current, and older than the put below
      store.put(memory("m1", A, "short lived"), vector(1));
      assertTrue(
          store.delete(
              MemoryId.of("m1"), new ForgetRecord(MemoryId.of("m1"), A, "alice", "x", T0)));
      assertTrue(store.get(MemoryId.of("m1")).isEmpty());
      assertEquals(1, store.forgotten(A).size());
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
  void forceMerge_leavesThatManySegments_keepsEveryMemory_andCommits() throws Exception {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).groupCommit(Duration.ofMinutes(1)).build()) {
      store.attach(SPACE);
      int n = 0;
      int segments = 0;
      // Each read after a write flushes a segment; background merges may fold some together.
      while (n < 300 && segments < 3) {
        store.put(
            memory("m" + n, A, "merge note " + n).toBuilder().concepts(List.of("merge")).build(),
            vector(n));
        n++;
        segments = store.segmentCount();
      }
      assertTrue(
          segments >= 3,
          "precondition: several segments, got " + segments + " after " + n + " puts");
      try (Directory d = FSDirectory.open(index)) {
        assertEquals(
            0,
            SegmentInfos.readLatestCommit(d).totalMaxDoc(),
            "precondition: group commit has not run");
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
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> store.forceMerge(0));
    assertTrue(e.getMessage().contains("0"), e.getMessage());
    store.forceMerge(1); // an empty index merges to nothing, fine
    store.close();
    assertThrows(IllegalStateException.class, () -> store.forceMerge(1));
  }

  @Test
  void forceMerge_whileOtherThreadsWriteAndSearch_losesNothing() throws Exception {
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().inMemory().groupCommit(Duration.ofMillis(5)).build()) {
      store.attach(SPACE);
      ExecutorService pool = Executors.newFixedThreadPool(3);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
          int thread = t;
          futures.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < 150; i++) {
                      Memory m = memory("t" + thread + "-" + i, A, "parallel " + i);
                      store.put(m, vector(i));
                      assertEquals(m, store.get(m.id()).orElseThrow());
                    }
                    return null;
                  }));
        }
        futures.add(
            pool.submit(
                () -> {
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

  @Test
  void concurrency_putsDeletesGetsAndSearches_fromSeveralThreads() throws Exception {
    long seed = Seeds.seed();
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder()
            .directory(dir.resolve("index"))
            .groupCommit(Duration.ofMillis(5))
            .build()) {
      store.attach(SPACE);
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          int thread = t;
          Random random = new Random(seed + t);
          futures.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < 40; i++) {
                      Memory m = randomMemory(random, "t" + thread + "-" + i, A);
                      store.put(m, randomVector(random));
                      assertEquals(m, store.get(m.id()).orElseThrow(), Seeds.replay(seed));
                      store.searchText(A, randomWords(random, 2), 5);
                      store.searchVector(A, randomVector(random), 5);
                      if (i % 4 == 0) {
                        assertTrue(
                            store.delete(m.id(), new ForgetRecord(m.id(), A, "t", "x", T0)),
                            Seeds.replay(seed));
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
      assertEquals(4 * 30, store.count(A), Seeds.replay(seed));
      assertEquals(4 * 10, store.forgotten(A).size(), Seeds.replay(seed));
    }
  }
}
