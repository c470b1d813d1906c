package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.SimilarityCalibration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CachingEmbedderTest {

  /** Records what it was asked to embed; the vector encodes the text's length. */
  static final class CountingEmbedder implements Embedder {
    final List<String> singles = new CopyOnWriteArrayList<>();
    final List<List<String>> batches = new CopyOnWriteArrayList<>();
    final List<String> queries = new CopyOnWriteArrayList<>();
    final AtomicInteger closes = new AtomicInteger();

    /** The query side: the document vector negated, so the two sides differ. */
    @Override
    public Embedding embedQuery(String text) {
      queries.add(text);
      float[] v = vector(text).toArray();
      return Embedding.of(-v[0], -v[1]);
    }

    @Override
    public Embedding embed(String text) {
      singles.add(text);
      return vector(text);
    }

    @Override
    public List<Embedding> embedAll(List<String> texts) {
      batches.add(List.copyOf(texts));
      List<Embedding> out = new ArrayList<>();
      for (String t : texts) {
        out.add(vector(t));
      }
      return out;
    }

    static Embedding vector(String text) {
      return Embedding.of(text.length() + 1f, text.hashCode() % 7);
    }

    @Override
    public int dimension() {
      return 2;
    }

    @Override
    public String modelId() {
      return "counting";
    }

    @Override
    public void close() {
      closes.incrementAndGet();
    }
  }

  @Test
  void embedQuery_cachesQueriesApartFromDocumentsAndUsesTheDelegatesQuerySide() {
    CountingEmbedder delegate = new CountingEmbedder();
    try (CachingEmbedder cache = CachingEmbedder.builder(delegate).build()) {
      Embedding document = cache.embed("billing uses postgres");
      Embedding query = cache.embedQuery("billing uses postgres");
      assertEquals(CountingEmbedder.vector("billing uses postgres"), document);
      assertEquals(delegate.embedQuery("billing uses postgres"), query);
      assertEquals(query, cache.embedQuery("billing uses postgres"));
      assertEquals(List.of(document), cache.embedDocuments(List.of("billing uses postgres")));
      // one query call from the cache, one from this test; the document side once
      assertEquals(2, delegate.queries.size(), delegate.queries.toString());
      assertEquals(List.of("billing uses postgres"), delegate.singles);
      assertTrue(delegate.batches.isEmpty(), delegate.batches.toString());
    }
  }

  @Test
  void similarityCalibration_isTheDelegates() {
    SimilarityCalibration declared = new SimilarityCalibration(0.4, 0.06);
    CountingEmbedder plain = new CountingEmbedder();
    Embedder calibrated =
        new Embedder() {
          @Override
          public Embedding embed(String text) {
            return CountingEmbedder.vector(text);
          }

          @Override
          public int dimension() {
            return 2;
          }

          @Override
          public String modelId() {
            return "calibrated-test";
          }

          @Override
          public Optional<SimilarityCalibration> similarityCalibration() {
            return Optional.of(declared);
          }
        };
    try (CachingEmbedder cache = CachingEmbedder.builder(calibrated).build();
        CachingEmbedder none = CachingEmbedder.builder(plain).build()) {
      assertEquals(Optional.of(declared), cache.similarityCalibration());
      assertEquals(Optional.empty(), none.similarityCalibration());
    }
  }

  @Test
  void embed_secondCallForSameTextDoesNotReachDelegate() {
    CountingEmbedder delegate = new CountingEmbedder();
    try (CachingEmbedder cache = CachingEmbedder.builder(delegate).build()) {
      Embedding first = cache.embed("hello");
      Embedding second = cache.embed("hello");
      assertEquals(first, second);
      assertEquals(List.of("hello"), delegate.singles);
      assertEquals(new CachingEmbedder.Stats(1, 1, 1), cache.stats());
    }
  }

  @Test
  void embedAll_embedsOnlyMissesInOneBatchAndKeepsOrder() {
    CountingEmbedder delegate = new CountingEmbedder();
    try (CachingEmbedder cache = CachingEmbedder.builder(delegate).build()) {
      cache.embed("a");
      List<Embedding> out = cache.embedAll(List.of("bb", "a", "ccc", "bb"));
      assertEquals(
          List.of(
              CountingEmbedder.vector("bb"),
              CountingEmbedder.vector("a"),
              CountingEmbedder.vector("ccc"),
              CountingEmbedder.vector("bb")),
          out);
      assertEquals(1, delegate.batches.size());
      assertEquals(List.of("bb", "ccc"), delegate.batches.get(0).stream().sorted().toList());
      cache.embedAll(List.of("a", "bb", "ccc"));
      assertEquals(1, delegate.batches.size(), "all cached: no further delegate call");
      assertEquals(List.of("a"), delegate.singles);
    }
  }

  @Test
  void maximumSize_boundsTheEntries() {
    CountingEmbedder delegate = new CountingEmbedder();
    try (CachingEmbedder cache = CachingEmbedder.builder(delegate).maximumSize(3).build()) {
      for (int i = 0; i < 50; i++) {
        cache.embed("text " + i);
      }
      assertTrue(cache.stats().size() <= 3, "size " + cache.stats().size());
      assertEquals(50, delegate.singles.size());
    }
  }

  @Test
  void spaceAndLifecycleFollowTheDelegate() {
    CountingEmbedder delegate = new CountingEmbedder();
    CachingEmbedder cache = CachingEmbedder.builder(delegate).build();
    assertEquals("counting", cache.modelId());
    assertEquals(2, cache.dimension());
    cache.close();
    cache.close();
    assertEquals(1, delegate.closes.get());
    assertThrows(IllegalStateException.class, () -> cache.embed("x"));
    assertThrows(IllegalStateException.class, () -> cache.embedAll(List.of("x")));
  }

  @Test
  void builderAndArgumentsAreChecked() {
    CountingEmbedder delegate = new CountingEmbedder();
    assertThrows(NullPointerException.class, () -> CachingEmbedder.builder(null));
    assertThrows(
        IllegalArgumentException.class, () -> CachingEmbedder.builder(delegate).maximumSize(0));
    assertThrows(
        IllegalStateException.class,
        () -> CachingEmbedder.builder(delegate).maximumSize(1).maximumSize(2));
    try (CachingEmbedder cache = CachingEmbedder.builder(delegate).build()) {
      assertThrows(NullPointerException.class, () -> cache.embed(null));
      List<String> withNull = new ArrayList<>();
      withNull.add(null);
      assertThrows(NullPointerException.class, () -> cache.embedAll(withNull));
    }
  }
}
