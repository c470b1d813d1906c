package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The service embeds recall queries with {@link Embedder#embedQuery} and everything it stores with
 * the document side ({@link Embedder#embed}, {@link Embedder#embedDocuments}).
 */
class AsymmetricEmbedderTest {

  @Test
  void service_embedsStoredTextsAsDocuments_andRecallQueriesAsQueries() {
    SidedEmbedder embedder = new SidedEmbedder();
    try (MemoryService memory = Memhook.builder().inMemory().embedder(embedder).build()) {
      // building warms the query side once, with a fixed question, and embeds no document but the
      // gate's background sample
      assertEquals(
          List.of(dev.memhook.core.internal.recall.RecallEngine.WARM_UP_QUERY), embedder.queries);
      assertEquals(
          dev.memhook.core.internal.recall.RecallEngine.backgroundSample(), embedder.documents);
      embedder.queries.clear();
      embedder.documents.clear();
      Memory first =
          memory.remember(MemoryDraft.of(Scope.DEFAULT, "the billing service uses postgres"));
      memory.update(first.id(), MemoryDraft.of(Scope.DEFAULT, "the billing service uses mysql"));
      assertTrue(embedder.queries.isEmpty(), "queries embedded while storing: " + embedder.queries);
      int stored = embedder.documents.size();
      assertTrue(stored >= 2, "documents embedded: " + embedder.documents);

      memory.recall(RecallQuery.of(Scope.DEFAULT, "which database does billing use"));
      assertEquals(List.of("which database does billing use"), embedder.queries);
      assertEquals(stored, embedder.documents.size(), "recall embedded a document");
      assertFalse(embedder.documents.contains("which database does billing use"));
    }
  }

  @Test
  void building_warmsTheQuerySide_butNeverSearchesAStoreTheHostHandedOver() {
    SidedEmbedder embedder = new SidedEmbedder();
    java.util.concurrent.atomic.AtomicInteger searches =
        new java.util.concurrent.atomic.AtomicInteger();
    try (dev.memhook.lucene.LuceneMemoryStore lucene =
            dev.memhook.lucene.LuceneMemoryStore.inMemory();
        MemoryService memory =
            Memhook.builder()
                .store(
                    new dev.memhook.testkit.ForwardingMemoryStore(lucene) {
                      @Override
                      public dev.memhook.api.spi.TextHits searchText(
                          Scope scope, String text, int k) {
                        searches.incrementAndGet();
                        return super.searchText(scope, text, k);
                      }
                    })
                .embedder(embedder)
                .build()) {
      assertEquals(
          List.of(dev.memhook.core.internal.recall.RecallEngine.WARM_UP_QUERY), embedder.queries);
      assertEquals(0, searches.get(), "the host's store was searched while building");
      memory.recall(RecallQuery.of(Scope.DEFAULT, "anything"));
      assertEquals(1, searches.get());
    }
  }

  @Test
  void embedderDefaults_makeBothSidesTheSymmetricEmbedding() {
    HashingEmbedder hashing = HashingEmbedder.create();
    String text = "the gateway timeout is 30 seconds";
    assertEquals(hashing.embed(text), hashing.embedQuery(text));
    assertEquals(hashing.embedAll(List.of(text)), hashing.embedDocuments(List.of(text)));
  }
}
