package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.B;
import static dev.memhook.lucene.LuceneStoreFixtures.DIM;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.api.ExportResult;
import dev.memhook.api.Memory;
import dev.memhook.api.spi.Embedding;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code exportWithVectors} hands each memory with the unit vector the index holds for it, across
 * segments and versions, and zeros for a memory put with a zero embedding.
 */
class LuceneMemoryStoreExportVectorsTest {
  @TempDir Path dir;

  private static Embedding vector(int seed) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) Math.sin(seed * 7 + i);
    }
    return Embedding.of(v);
  }

  @Test
  void everyMemoryComesWithItsUnitVector_andAZeroEmbeddingWithZeros() {
    Map<String, Embedding> put = new LinkedHashMap<>();
    try (LuceneMemoryStore store = LuceneStoreFixtures.open(dir)) {
      for (int i = 0; i < 40; i++) {
        Memory m = memory("mem_export" + i, i % 2 == 0 ? A : B, "note " + i);
        Embedding e = i == 7 ? Embedding.of(new float[DIM]) : vector(i);
        store.put(m, e);
        put.put(m.id().value(), e.normalized());
        if (i % 10 == 9) {
          store.searchText(A, "note", 1); // a read flushes a segment: several segments
        }
      }
      Memory v1 = memory("mem_export3", B, "note 3");
      Memory v2 =
          memory("mem_export3v2", B, "note 3, revised").toBuilder()
              .version(2)
              .supersedes(v1.id())
              .build();
      store.putNewVersion(v2, vector(99));
      put.put(v2.id().value(), vector(99).normalized());

      Map<String, Optional<Embedding>> exported = new LinkedHashMap<>();
      ExportResult result =
          store.exportWithVectors((m, e) -> exported.put(m.id().value(), e.map(x -> x)));
      assertEquals(new ExportResult(41, 0), result);
      assertEquals(put.keySet(), exported.keySet());
      put.forEach(
          (id, e) -> {
            float[] want = e.toArray();
            float[] got = exported.get(id).orElseThrow().toArray();
            for (int i = 0; i < DIM; i++) {
              assertEquals(want[i], got[i], 1e-6, id + "[" + i + "]");
            }
          });
      assertEquals(Embedding.of(new float[DIM]), exported.get("mem_export7").orElseThrow());
    }
  }
}
