package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.ids;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomVector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large {@code putAll} is added in parts by the store's workers ({@link
 * LuceneMemoryStore.Builder#workers}): every memory lands under its own id, earlier versions are
 * replaced, the batch is committed whole, and no read sees part of it.
 */
class LuceneMemoryStoreParallelBatchTest {
  @TempDir Path dir;

  @Test
  void parts_oneUnlessEachWorkerGetsAtLeastMinPart() {
    assertEquals(1, IndexWrites.parts(1, 4));
    assertEquals(1, IndexWrites.parts(2 * IndexWrites.MIN_PART - 1, 4));
    assertEquals(2, IndexWrites.parts(2 * IndexWrites.MIN_PART, 4));
    assertEquals(3, IndexWrites.parts(3 * IndexWrites.MIN_PART + 5, 4));
    assertEquals(4, IndexWrites.parts(10_000, 4));
    assertEquals(1, IndexWrites.parts(10_000, 1));
  }

  @Test
  void aLargeBatch_addedByTwoWorkers_storesEachMemoryUnderItsId_andReplacesEarlierVersions() {
    Path index = dir.resolve("index");
    Random random = new Random(11);
    int size = 1_000;
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).workers(2).build()) {
      store.attach(SPACE);
      store.putAll(batch(size, "first", random));
      store.putAll(batch(size, "second", random));

      assertEquals(size, store.count(A));
      for (int i = 0; i < size; i += 37) {
        assertEquals(content(i, "second"), store.get(MemoryId.of("m" + i)).orElseThrow().content());
        assertEquals(List.of("m" + i), ids(store.searchText(A, word(i, "second"), 5)));
        assertTrue(ids(store.searchText(A, word(i, "first"), 5)).isEmpty(), "old version " + i);
      }
    }
    try (LuceneMemoryStore reopened = LuceneMemoryStore.builder().directory(index).build()) {
      reopened.attach(SPACE);
      assertEquals(size, reopened.count(A), "the batch was committed whole");
      assertEquals(
          content(999, "second"), reopened.get(MemoryId.of("m999")).orElseThrow().content());
    }
  }

  @Test
  void aReadDuringLargeBatches_seesEachBatchWholeOrNotAtAll() throws Exception {
    int size = 4 * IndexWrites.MIN_PART;
    int batches = 20;
    Random random = new Random(5);
    List<Map<Memory, Embedding>> loads = new java.util.ArrayList<>();
    for (int b = 0; b < batches; b++) {
      Map<Memory, Embedding> load = new LinkedHashMap<>();
      for (int i = 0; i < size; i++) {
        String id = "b" + b + "-" + i;
        load.put(memory(id, A, "batch " + b + " memory " + i), randomVector(random));
      }
      loads.add(load);
    }
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(dir.resolve("index")).workers(4).build()) {
      store.attach(SPACE);
      AtomicBoolean writing = new AtomicBoolean(true);
      ConcurrentLinkedQueue<Long> seen = new ConcurrentLinkedQueue<>();
      Thread reader =
          new Thread(
              () -> {
                while (writing.get()) {
                  seen.add(store.count(A));
                }
              });
      reader.start();
      try {
        for (Map<Memory, Embedding> load : loads) {
          store.putAll(load);
        }
      } finally {
        writing.set(false);
        reader.join();
      }

      assertTrue(seen.size() > batches, "the reader read " + seen.size() + " times");
      for (long count : seen) {
        assertEquals(0, count % size, "a read saw " + count + " memories: part of a batch");
      }
      assertEquals((long) size * batches, store.count(A));
    }
  }

  private static Map<Memory, Embedding> batch(int size, String version, Random random) {
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    for (int i = 0; i < size; i++) {
      batch.put(memory("m" + i, A, content(i, version)), randomVector(random));
    }
    return batch;
  }

  private static String content(int i, String version) {
    return "memory " + i + " says " + word(i, version);
  }

  /** A word of letters only, one per memory and version: the analysis keeps it whole. */
  private static String word(int i, String version) {
    StringBuilder w = new StringBuilder("zq");
    for (int n = i; ; n /= 26) {
      w.append((char) ('a' + n % 26));
      if (n < 26) {
        break;
      }
    }
    return w.append(version).toString();
  }
}
