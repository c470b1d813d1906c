package dev.memhook.cli;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.djl.DjlEmbedder;
import java.util.List;
import java.util.Objects;

/**
 * The embedding space of a store built with a model the {@code memhook} command does not have (a
 * host's own model, another bundled one, a {@code JointEmbedder} pair): it answers the store's
 * model id and dimension, so the store opens, and embeds nothing. What needs no new vector works on
 * such a store (stats, list, show, export, doctor, forget, compact, and search by words only, whose
 * options ask for no query vector); whatever would embed text fails with an {@link
 * EmbeddingException} that says what to do instead. Immutable and thread-safe.
 */
final class UnbundledModel implements Embedder {

  private final EmbeddingSpace space;

  UnbundledModel(EmbeddingSpace space) {
    this.space = Objects.requireNonNull(space, "space");
  }

  /** What a command that needs the store's model prints: why it cannot, and what works instead. */
  static String explain(EmbeddingSpace space) {
    return "the store's vectors are in model '"
        + space.modelId()
        + "' ("
        + space.dimension()
        + " dimensions), which memhook does not have (it has "
        + DjlEmbedder.MINILM_INT8_ID
        + " and the hashing embedder): stats, list, show, export, doctor, forget and compact work"
        + " on this store and search finds by words only, but adding to it needs that model; do"
        + " that from a program that configures it, or export the store and import the file into"
        + " a new directory, which memhook builds with "
        + DjlEmbedder.MINILM_INT8_ID;
  }

  @Override
  public Embedding embed(String text) {
    throw new EmbeddingException(explain(space));
  }

  @Override
  public List<Embedding> embedAll(List<String> texts) {
    throw new EmbeddingException(explain(space));
  }

  @Override
  public Embedding embedQuery(String text) {
    throw new EmbeddingException(explain(space));
  }

  @Override
  public List<Embedding> embedDocuments(List<String> texts) {
    throw new EmbeddingException(explain(space));
  }

  @Override
  public int dimension() {
    return space.dimension();
  }

  @Override
  public String modelId() {
    return space.modelId();
  }

  @Override
  public String toString() {
    return "UnbundledModel[" + space.modelId() + ", " + space.dimension() + "]";
  }
}
