package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A store written by Memhook on Lucene 9.12 opens on Lucene 10, reads and searches as it did (its
 * memories, written before passages were kept, have none), and its first compaction rewrites it
 * without the old codecs. The fixtures were written by memory-lucene at {@code 307a2883} (Lucene
 * 9.12.3): 24 memories of scope A ("note i about WORD and WORD", vector {@link
 * LuceneStoreFixtures#vector}-like on axis {@code i % 8}), m5 forgotten and purged.
 */
class LuceneMemoryStoreUpgradeTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aStoreWrittenByLucene912_opensReadsAndSearches_andCompactsIntoLucene10(boolean quantized)
      throws IOException {
    Path index =
        unzip(
            quantized ? "store-lucene912-quantized.zip" : "store-lucene912.zip", dir.resolve("i"));
    assertTrue(fileNames(index).stream().anyMatch(f -> f.contains("Lucene912")), "a 9.12 index");
    try (LuceneMemoryStore store = open(index, quantized)) {
      assertWrittenContent(store);
      assertEquals(
          Map.of(),
          store.passageCosines(A, List.of(MemoryId.of("m0"), MemoryId.of("m1")), vector(0, 0f)),
          "memories written before passages were kept have none");
      store.put(
          LuceneStoreFixtures.memory("m100", A, "note 100 about kafka"),
          vector(3, 0.9f),
          List.of(vector(5, 0f)));
      store.compact();
    }
    Set<String> files = fileNames(index);
    assertTrue(
        files.stream().noneMatch(f -> f.contains("Lucene912") || f.contains("ScalarQuantized")),
        "no file of Lucene 9.12's codecs after a compaction: " + files);
    try (LuceneMemoryStore store = open(index, quantized)) {
      assertWrittenContent(store);
      assertEquals(24, store.count(A));
      assertEquals("note 100 about kafka", store.get(MemoryId.of("m100")).orElseThrow().content());
      assertEquals(
          1.0,
          store
              .passageCosines(A, List.of(MemoryId.of("m100")), vector(5, 0f))
              .get(MemoryId.of("m100")),
          0.01,
          "a memory put in an old store keeps its passages through the compaction");
    }
  }

  private static void assertWrittenContent(LuceneMemoryStore store) {
    assertEquals(
        "note 0 about kafka and postgres", store.get(MemoryId.of("m0")).orElseThrow().content());
    assertTrue(store.get(MemoryId.of("m5")).isEmpty(), "m5 stays forgotten");
    assertEquals(
        List.of(MemoryId.of("m5")),
        store.forgotten(A).stream().map(r -> r.id()).collect(Collectors.toList()));
    // "rollback" is word 4: in m4, m12, m20 first and in m1, m9, m17 second
    assertEquals(
        Set.of("m1", "m4", "m9", "m12", "m17", "m20"),
        Set.copyOf(ids(store.searchText(A, "rollback", 10))));
    assertEquals(List.of("m2", "m10", "m18"), ids(store.searchVector(A, vector(2, 0f), 3)));
  }

  private static LuceneMemoryStore open(Path index, boolean quantized) {
    LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).scalarQuantization(quantized).build();
    store.attach(SPACE);
    return store;
  }

  /** A vector on {@code axis}, with {@code next} on the axis after it. */
  private static Embedding vector(int axis, float next) {
    float[] v = new float[LuceneStoreFixtures.DIM];
    v[axis] = 1f;
    v[(axis + 1) % v.length] = next;
    return Embedding.of(v);
  }

  private static Path unzip(String resource, Path to) throws IOException {
    Files.createDirectories(to);
    try (InputStream in = LuceneMemoryStoreUpgradeTest.class.getResourceAsStream(resource);
        ZipInputStream zip = new ZipInputStream(in)) {
      for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        Path target = to.resolve(e.getName());
        if (e.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(zip, target);
        }
      }
    }
    return to;
  }

  private static Set<String> fileNames(Path index) throws IOException {
    try (Stream<Path> s = Files.list(index)) {
      return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    }
  }
}
