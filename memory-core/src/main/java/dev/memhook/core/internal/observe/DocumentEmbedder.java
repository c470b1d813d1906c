package dev.memhook.core.internal.observe;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The one step that embeds what a store keeps of a memory: its vector, of {@link EmbeddingText},
 * and, when the store keeps passage vectors ({@link StoreCapability#PASSAGE_VECTORS}), its
 * passages' vectors, of {@link PassageText}; for a batch of memories in one {@link
 * Embedder#embedDocuments} call, so that a model that batches embeds the passages alongside. Every
 * place that stores a memory's vectors (a remember, an update, an import, a restore, capture) goes
 * through it, so a memory is stored with the same vectors whichever way it came in.
 *
 * <p>Thread-safe when the embedder is (the {@link Embedder} contract asks it to be).
 */
public final class DocumentEmbedder {

  /**
   * What a store is given for one memory.
   *
   * @param memory the memory's own vector
   * @param passages its passages' vectors, in {@link PassageText}'s order; empty when it has none
   *     or the store keeps none
   */
  public record Vectors(Embedding memory, List<Embedding> passages) {
    public Vectors {
      Objects.requireNonNull(memory, "memory");
      passages = List.copyOf(passages);
    }
  }

  private final Embedder embedder;
  private final boolean passages;

  /**
   * @param passages whether passages are embedded: only for a store that keeps them
   */
  public DocumentEmbedder(Embedder embedder, boolean passages) {
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    this.passages = passages;
  }

  /** A document embedder for {@code store}: with passages when the store keeps them. */
  public static DocumentEmbedder forStore(Embedder embedder, MemoryStore store) {
    return new DocumentEmbedder(
        embedder, store.capabilities().contains(StoreCapability.PASSAGE_VECTORS));
  }

  /** The embedder vectors are made with. */
  public Embedder embedder() {
    return embedder;
  }

  /** The vectors of one memory. */
  public Vectors embed(Memory memory) {
    return embedAll(List.of(memory), Map.of()).get(0);
  }

  /** The vectors of {@code memories}, in order, in one embedding call. */
  public List<Vectors> embedAll(List<Memory> memories) {
    return embedAll(memories, Map.of());
  }

  /**
   * The vectors of {@code memories}, in order, in one embedding call, a memory whose id {@code
   * reused} maps keeping that vector as its own (a restore's exported vector) and only its passages
   * embedded.
   *
   * @throws EmbeddingException if the embedder fails or returns another number of vectors than it
   *     was given texts
   */
  public List<Vectors> embedAll(List<Memory> memories, Map<MemoryId, Embedding> reused) {
    List<String> texts = new ArrayList<>();
    List<List<String>> passageTexts = new ArrayList<>(memories.size());
    for (Memory m : memories) {
      if (!reused.containsKey(m.id())) {
        texts.add(EmbeddingText.of(m));
      }
      List<String> p = passages ? PassageText.of(m) : List.of();
      passageTexts.add(p);
      texts.addAll(p);
    }
    List<Embedding> vectors = texts.isEmpty() ? List.of() : embedder.embedDocuments(texts);
    if (vectors.size() != texts.size()) {
      throw new EmbeddingException(
          "the embedder returned " + vectors.size() + " vectors for " + texts.size() + " texts");
    }
    List<Vectors> out = new ArrayList<>(memories.size());
    int next = 0;
    for (int i = 0; i < memories.size(); i++) {
      Embedding own = reused.get(memories.get(i).id());
      if (own == null) {
        own = vectors.get(next++);
      }
      int count = passageTexts.get(i).size();
      out.add(new Vectors(own, vectors.subList(next, next + count)));
      next += count;
    }
    return out;
  }

  /**
   * Stores {@code memories} with their vectors in one {@link MemoryStore#putAll(Map, Map)}, in
   * order.
   */
  public static void putAll(MemoryStore store, List<Memory> memories, List<Vectors> vectors) {
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    Map<MemoryId, List<Embedding>> passages = new LinkedHashMap<>();
    for (int i = 0; i < memories.size(); i++) {
      Vectors v = vectors.get(i);
      batch.put(memories.get(i), v.memory());
      if (!v.passages().isEmpty()) {
        passages.put(memories.get(i).id(), v.passages());
      }
    }
    store.putAll(batch, passages);
  }
}
