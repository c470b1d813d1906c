package dev.memhook.api.spi;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns text into vectors in one fixed {@link EmbeddingSpace}.
 *
 * <p>Implementations must be thread-safe and deterministic for a given model (the same text gives
 * the same vector, up to the tolerance the implementation states). Null text is rejected with a
 * {@link NullPointerException}; empty or whitespace-only text must give a well-defined vector (the
 * implementation states which) rather than fail. Failures are thrown as {@link
 * dev.memhook.api.EmbeddingException}.
 *
 * <p>{@link #close()} releases native resources; it is idempotent, and the service that was given
 * an embedder closes it when the service closes.
 */
public interface Embedder extends AutoCloseable {

  /** Embeds one text. */
  Embedding embed(String text);

  /**
   * Embeds many texts, in order. The default embeds them one at a time; implementations that batch
   * override it.
   */
  default List<Embedding> embedAll(List<String> texts) {
    List<Embedding> out = new ArrayList<>(texts.size());
    for (String text : texts) {
      out.add(embed(text));
    }
    return out;
  }

  /** The number of dimensions of every vector this embedder returns. */
  int dimension();

  /** A stable name of the model, recorded by stores to refuse mixing vector spaces. */
  String modelId();

  /** This embedder's space: {@code new EmbeddingSpace(modelId(), dimension())}. */
  default EmbeddingSpace space() {
    return new EmbeddingSpace(modelId(), dimension());
  }

  /** Releases resources. The default does nothing. */
  @Override
  default void close() {}
}
