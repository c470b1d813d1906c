package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.B;
import static dev.memhook.lucene.LuceneStoreFixtures.DIM;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.T0;
import static dev.memhook.lucene.LuceneStoreFixtures.ids;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomVector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import dev.memhook.lucene.internal.vectors.GraphlessVectorsFormat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bulk load ({@code putAll} batches) writes its vectors without an HNSW graph, searches them
 * exactly meanwhile, and gets the graph once: from the idle merge, from {@code compact()}, or after
 * a reopen; a store that never merges while idle, and single puts, keep the graph.
 */
class LuceneMemoryStoreBulkLoadTest {
  private static final String GRAPH = "Lucene99HnswVectorsFormat";
  private static final String QUANTIZED_GRAPH = "Lucene104HnswBinaryQuantizedVectorsFormat";

  /**
   * More than a scope searched exhaustively anyway ({@link ScopedSearch#EXACT_SEARCH_MAX_DOCS}).
   */
  private static final int LOAD = ScopedSearch.EXACT_SEARCH_MAX_DOCS + 904;

  @TempDir Path dir;

  @Test
  void aBulkLoad_isGraphless_searchedExactly_thenTheIdleMergeBuildsTheGraphOnce() throws Exception {
    Path index = dir.resolve("index");
    Random random = new Random(3);
    Map<String, float[]> inA = new LinkedHashMap<>();
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).idleMerge(Duration.ofSeconds(5)).build()) {
      store.attach(SPACE);
      load(store, random, inA, LOAD, 100);
      // a deleted document is never found
      assertTrue(
          store.delete(
              MemoryId.of("a7"), new ForgetRecord(MemoryId.of("a7"), A, "test", "bulk", T0)));
      inA.remove("a7");

      List<String> formats = committedFormats(index);
      assertFalse(formats.isEmpty());
      assertTrue(
          formats.stream().allMatch(GraphlessVectorsFormat.NAME::equals),
          "the load's segments: " + formats);
      for (int q = 0; q < 10; q++) {
        Embedding query = randomVector(random);
        assertEquals(
            exactTop(inA, query, 10),
            ids(store.searchVector(A, query, 10)),
            "query " + q + ": a graphless search compares every vector of the scope");
      }

      awaitFormats(index, GRAPH);
      assertEquals(1, store.segmentCount(), "merged into one segment with one graph");
      assertEquals(inA.size(), store.count(A));
      Embedding query = randomVector(random);
      List<String> exact = exactTop(inA, query, 10);
      List<String> found = ids(store.searchVector(A, query, 10));
      assertTrue(
          found.stream().filter(exact::contains).count() >= 8,
          "the graph finds the nearest: " + found + " vs " + exact);
    }
  }

  @Test
  void compact_buildsTheGraph_ofALoadAtOnce_alsoQuantized() throws Exception {
    for (boolean quantized : List.of(false, true)) {
      Path index = dir.resolve("index-" + quantized);
      Random random = new Random(5);
      Map<String, float[]> inA = new LinkedHashMap<>();
      try (LuceneMemoryStore store =
          LuceneMemoryStore.builder()
              .directory(index)
              .scalarQuantization(quantized)
              .idleMerge(Duration.ofHours(1))
              .build()) {
        store.attach(SPACE);
        load(store, random, inA, 400, 50);
        assertTrue(committedFormats(index).contains(GraphlessVectorsFormat.NAME));

        store.compact();

        assertEquals(List.of(quantized ? QUANTIZED_GRAPH : GRAPH), committedFormats(index));
        Embedding query = randomVector(random);
        assertEquals(exactTop(inA, query, 5), ids(store.searchVector(A, query, 5)));
      }
    }
  }

  @Test
  void aGraphlessSegmentLeftAtClose_isReadAfterReopen_readOnlyToo_andGetsItsGraphWhenQuiet()
      throws Exception {
    Path index = dir.resolve("index");
    Random random = new Random(9);
    Map<String, float[]> inA = new LinkedHashMap<>();
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).idleMerge(Duration.ofHours(1)).build()) {
      store.attach(SPACE);
      load(store, random, inA, 300, 100);
    }
    assertTrue(committedFormats(index).contains(GraphlessVectorsFormat.NAME));
    try (LuceneMemoryStore readOnly =
        LuceneMemoryStore.builder().directory(index).readOnly().build()) {
      Embedding query = randomVector(random);
      assertEquals(exactTop(inA, query, 5), ids(readOnly.searchVector(A, query, 5)));
      assertEquals(0, readOnly.unreadableRecords());
    }
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).idleMerge(Duration.ofMillis(200)).build()) {
      Embedding query = randomVector(random);
      assertEquals(exactTop(inA, query, 5), ids(store.searchVector(A, query, 5)));
      awaitFormats(index, GRAPH);
      assertEquals(inA.size(), store.count(A));
    }
  }

  @Test
  void withoutIdleMerges_orOneAtATime_vectorsKeepTheirGraph() throws Exception {
    Random random = new Random(13);
    Path never = dir.resolve("never");
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(never).idleMerge(Duration.ZERO).build()) {
      store.attach(SPACE);
      load(store, random, new LinkedHashMap<>(), 200, 100);
    }
    assertEquals(List.of(GRAPH), committedFormats(never).stream().distinct().toList());

    Path single = dir.resolve("single");
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(single).idleMerge(Duration.ofHours(1)).build()) {
      store.attach(SPACE);
      for (int i = 0; i < 40; i++) {
        store.put(memory("s" + i, B, "one at a time " + i), randomVector(random));
      }
      store.putAll(
          Map.of(memory("x", B, "a batch of one"), randomVector(random))); // not a bulk load
    }
    assertEquals(List.of(GRAPH), committedFormats(single).stream().distinct().toList());
  }

  /** Writes {@code n} memories in scope A, in {@code putAll} batches, recording their vectors. */
  private static void load(
      LuceneMemoryStore store, Random random, Map<String, float[]> inA, int n, int batchSize) {
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      Embedding v = randomVector(random);
      batch.put(memory("a" + i, A, "bulk memory number " + i), v);
      inA.put("a" + i, unit(v.toArray()));
      if (batch.size() == batchSize || i == n - 1) {
        store.putAll(batch);
        batch = new LinkedHashMap<>();
      }
    }
  }

  private static List<String> exactTop(Map<String, float[]> vectors, Embedding query, int k) {
    float[] q = unit(query.toArray());
    List<Map.Entry<String, float[]>> all = new ArrayList<>(vectors.entrySet());
    all.sort(Comparator.comparingDouble(e -> -dot(e.getValue(), q)));
    return all.subList(0, k).stream().map(Map.Entry::getKey).toList();
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < DIM; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  private static float[] unit(float[] v) {
    double norm = Math.sqrt(dot(v, v));
    float[] u = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      u[i] = (float) (v[i] / norm);
    }
    return u;
  }

  /** The vector format of each committed segment that has vectors. */
  private static List<String> committedFormats(Path index) throws Exception {
    List<String> out = new ArrayList<>();
    try (Directory d = FSDirectory.open(index);
        DirectoryReader reader = DirectoryReader.open(d)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        FieldInfo field = leaf.reader().getFieldInfos().fieldInfo(IndexSchema.F_VECTOR);
        if (field != null && field.hasVectorValues()) {
          out.add(field.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY));
        }
      }
    }
    return out;
  }

  private static void awaitFormats(Path index, String format) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    List<String> formats = List.of();
    while (System.nanoTime() < deadline) {
      formats = committedFormats(index);
      if (!formats.isEmpty() && formats.stream().allMatch(format::equals)) {
        return;
      }
      Thread.sleep(50);
    }
    fail("every committed segment should have " + format + " by now: " + formats);
  }
}
