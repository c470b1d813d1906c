package dev.memhook.core.internal.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DocumentEmbedderTest {

  /** Embeds each text as a one-dimensional vector of its length; records each call's texts. */
  private final List<List<String>> calls = new ArrayList<>();

  private final Embedder lengths =
      new Embedder() {
        @Override
        public Embedding embed(String text) {
          return embedDocuments(List.of(text)).get(0);
        }

        @Override
        public List<Embedding> embedDocuments(List<String> texts) {
          calls.add(List.copyOf(texts));
          return texts.stream().map(t -> Embedding.of(t.length())).toList();
        }

        @Override
        public int dimension() {
          return 1;
        }

        @Override
        public String modelId() {
          return "lengths";
        }
      };

  private static Memory memory(String id, Origin origin, String content) {
    Instant t = Instant.parse("2024-01-01T10:00:00Z");
    return Memory.builder()
        .id(MemoryId.of(id))
        .scope(Scope.DEFAULT)
        .origin(origin)
        .content(content)
        .occurredAt(t)
        .createdAt(t)
        .build();
  }

  private final Memory split =
      memory("split", Origin.user("Ann"), "I moved to Lisbon in May. I work nights at the clinic.");
  private final Memory whole = memory("whole", Origin.agent(), "Noted. Lisbon is lovely in May.");

  @Test
  void aBatch_isOneCall_eachMemoryThenItsPassages_inOrder() {
    List<DocumentEmbedder.Vectors> vectors =
        new DocumentEmbedder(lengths, true).embedAll(List.of(split, whole));

    List<String> passages = PassageText.of(split);
    assertEquals(
        List.of(
            List.of(
                EmbeddingText.of(split),
                passages.get(0),
                passages.get(1),
                EmbeddingText.of(whole))),
        calls);
    assertEquals(Embedding.of(EmbeddingText.of(split).length()), vectors.get(0).memory());
    assertEquals(
        List.of(Embedding.of(passages.get(0).length()), Embedding.of(passages.get(1).length())),
        vectors.get(0).passages());
    assertEquals(Embedding.of(EmbeddingText.of(whole).length()), vectors.get(1).memory());
    assertEquals(List.of(), vectors.get(1).passages());
  }

  @Test
  void withoutPassages_onlyTheMemoriesAreEmbedded() {
    List<DocumentEmbedder.Vectors> vectors =
        new DocumentEmbedder(lengths, false).embedAll(List.of(split, whole));

    assertEquals(List.of(List.of(EmbeddingText.of(split), EmbeddingText.of(whole))), calls);
    assertEquals(List.of(), vectors.get(0).passages());
  }

  @Test
  void aReusedVector_isKept_andOnlyThePassagesAreEmbedded() {
    Embedding exported = Embedding.of(42f);

    List<DocumentEmbedder.Vectors> vectors =
        new DocumentEmbedder(lengths, true)
            .embedAll(List.of(split, whole), Map.of(split.id(), exported));

    assertSame(exported, vectors.get(0).memory());
    assertEquals(2, vectors.get(0).passages().size());
    assertEquals(
        List.of(
            List.of(
                PassageText.of(split).get(0),
                PassageText.of(split).get(1),
                EmbeddingText.of(whole))),
        calls);
  }

  @Test
  void anEmbedderThatReturnsTheWrongNumberOfVectors_isAnEmbeddingFailure() {
    Embedder short1 =
        new Embedder() {
          @Override
          public Embedding embed(String text) {
            return Embedding.of(1f);
          }

          @Override
          public List<Embedding> embedDocuments(List<String> texts) {
            return List.of(Embedding.of(1f));
          }

          @Override
          public int dimension() {
            return 1;
          }

          @Override
          public String modelId() {
            return "short";
          }
        };

    assertThrows(EmbeddingException.class, () -> new DocumentEmbedder(short1, true).embed(split));
  }

  @Test
  void forStore_embedsPassagesOnlyForAStoreThatKeepsThem() {
    try (LuceneMemoryStore lucene = LuceneMemoryStore.inMemory()) {
      ForwardingMemoryStore keeps =
          new ForwardingMemoryStore(lucene) {
            @Override
            public Set<StoreCapability> capabilities() {
              return EnumSet.of(StoreCapability.PASSAGE_VECTORS);
            }
          };
      ForwardingMemoryStore keepsNone =
          new ForwardingMemoryStore(lucene) {
            @Override
            public Set<StoreCapability> capabilities() {
              return EnumSet.noneOf(StoreCapability.class);
            }
          };

      assertEquals(2, DocumentEmbedder.forStore(lengths, keeps).embed(split).passages().size());
      assertEquals(0, DocumentEmbedder.forStore(lengths, keepsNone).embed(split).passages().size());
    }
  }
}
