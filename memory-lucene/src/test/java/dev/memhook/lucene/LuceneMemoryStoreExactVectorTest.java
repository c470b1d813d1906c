package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.B;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A scope of at most {@link ScopedSearch#EXACT_SEARCH_MAX_DOCS} documents is searched exactly: the
 * hits are the true nearest neighbours. With many exact-duplicate vectors (repeated tool output,
 * templated text) in one graph shared with another scope, HNSW with the scope as a filter returned
 * hits with cosine near 0 while duplicates at cosine 1 were there (this test fails so with the
 * exact search turned off, even at the default candidates).
 */
class LuceneMemoryStoreExactVectorTest {

  private static final int PER_SCOPE = 3_000;
  private static final int K = 10;
  private static final int DIM = 128;

  @Test
  void aSmallScope_returnsTheTrueNearestNeighbours() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    List<float[]> centers = new ArrayList<>();
    for (int c = 0; c < 60; c++) {
      centers.add(gaussian(random, 1.0));
    }
    Map<String, Embedding> inA = new LinkedHashMap<>();
    // the fewest candidates HNSW may gather: exactness must not come from a generous graph search
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().inMemory().efSearch(1).build()) {
      store.attach(new EmbeddingSpace("clustered", DIM));
      Map<Memory, Embedding> batch = new LinkedHashMap<>();
      for (int i = 0; i < 2 * PER_SCOPE; i++) {
        Scope scope = i % 2 == 0 ? A : B;
        // most are exact duplicates, as generated or repeated tool output is; the rest vary
        float[] center = centers.get(random.nextInt(centers.size()));
        Embedding v = random.nextInt(10) < 9 ? Embedding.of(center.clone()) : near(center, random);
        Memory m = memory("m" + i, scope, "memory " + i);
        batch.put(m, v);
        if (scope.equals(A)) {
          inA.put(m.id().value(), v.normalized());
        }
        if (batch.size() == 500) {
          store.putAll(batch);
          batch.clear();
        }
      }
      store.putAll(batch);
      store.forceMerge(1); // one graph over both scopes: the scope is a filter on it

      for (int q = 0; q < 30; q++) {
        Embedding query = near(centers.get(random.nextInt(centers.size())), random);
        List<Double> truth =
            inA.values().stream()
                .map(v -> v.cosine(query))
                .sorted(Comparator.reverseOrder())
                .limit(K)
                .toList();
        List<StoreHit> hits = store.searchVector(A, query, K);
        assertEquals(K, hits.size(), "seed " + seed);
        double tenth = truth.get(K - 1);
        for (StoreHit h : hits) {
          assertTrue(inA.containsKey(h.id().value()), "another scope's memory; seed " + seed);
          assertTrue(
              inA.get(h.id().value()).cosine(query) >= tenth - 1e-5,
              "not among the true " + K + " nearest: " + h + "; seed " + seed);
        }
      }
    }
  }

  private static float[] gaussian(Random random, double sd) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) (random.nextGaussian() * sd);
    }
    return v;
  }

  private static Embedding near(float[] center, Random random) {
    float[] noise = gaussian(random, 0.02);
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = center[i] + noise[i];
    }
    return Embedding.of(v);
  }
}
