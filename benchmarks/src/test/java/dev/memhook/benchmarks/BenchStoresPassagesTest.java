package dev.memhook.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.lucene.LuceneMemoryStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A benchmark corpus stored with passage vectors when {@code memhook.bench.passages} asks. */
class BenchStoresPassagesTest {

  private static final String KEY = "memhook.bench.passages";

  @AfterEach
  void clear() {
    System.clearProperty(KEY);
  }

  @Test
  void passages_areTheSameForTheSameItem_unitLength_andNearTheirItem() {
    SyntheticCorpus corpus = SyntheticCorpus.generate(7, 20, 32);

    List<Embedding> first = corpus.passages(3, 3);

    assertEquals(first, corpus.passages(3, 3));
    assertNotEquals(first, corpus.passages(4, 3));
    for (Embedding p : first) {
      assertEquals(1.0, p.norm(), 1e-5);
      assertTrue(p.cosine(corpus.embedding(3)) > 0.5, "near its own item: " + p);
    }
  }

  @Test
  void fill_storesEachMemoryWithTheAskedPassages_andNoneByDefault() {
    SyntheticCorpus corpus = SyntheticCorpus.generate(7, 20, 32);
    Scope scope = Scope.of("bench");
    EmbeddingSpace space = new EmbeddingSpace("synthetic", 32);
    Embedding query = corpus.passages(5, 2).get(1);
    MemoryId id = corpus.items().get(5).id();

    try (LuceneMemoryStore none = LuceneMemoryStore.inMemory()) {
      BenchStores.fill(none, corpus, scope, space, corpus::embedding);
      assertEquals(Map.of(), none.passageCosines(scope, List.of(id), query));
    }
    System.setProperty(KEY, "2");
    try (LuceneMemoryStore two = LuceneMemoryStore.inMemory()) {
      BenchStores.fill(two, corpus, scope, space, corpus::embedding);
      assertEquals(1.0, two.passageCosines(scope, List.of(id), query).get(id), 0.01);
    }
  }
}
