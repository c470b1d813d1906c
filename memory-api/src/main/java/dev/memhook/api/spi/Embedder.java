package dev.memhook.api.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns text into vectors in one fixed {@link EmbeddingSpace}.
 *
 * <p>Implementations must be thread-safe and deterministic for a given model (the same text gives
 * the same vector, up to the tolerance the implementation states). Null text is rejected with a
 * {@link NullPointerException}; empty or whitespace-only text must give a well-defined vector (the
 * implementation states which) rather than fail. Failures are thrown as {@link
 * dev.memhook.api.EmbeddingException}.
 *
 * <h2>Queries and documents</h2>
 *
 * Some retrieval models are trained asymmetrically: a search query is embedded with an instruction
 * or a prefix (such as {@code "query: "}) and a stored text with another or none. Such an embedder
 * overrides {@link #embedQuery} for the query side and applies its document convention in {@link
 * #embed}, {@link #embedAll} and {@link #embedDocuments}, which all embed stored texts (documents):
 * {@code embed(t)} equals {@code embedDocuments(List.of(t)).get(0)}, within the implementation's
 * stated batch tolerance. For a symmetric embedder both sides are the same, which is what the
 * defaults give. A service embeds recall queries with {@link #embedQuery} and everything it stores
 * with {@link #embed} or {@link #embedDocuments}.
 *
 * <p>{@link #modelId()} names the model <em>and</em> its query/document convention: two embedders
 * of one model with different prefixes have different ids, so a store built under one convention
 * refuses to be searched under another. An embedder that wraps another and forwards the calls must
 * forward {@link #embedQuery}, {@link #embedDocuments} and {@link #similarityCalibration} too, or
 * the delegate's query side or calibration is lost.
 *
 * <p>{@link #close()} releases native resources; it is idempotent, and the service that was given
 * an embedder closes it when the service closes.
 */
public interface Embedder extends AutoCloseable {

  /** Embeds one text to be stored (the document side; see the class description). */
  Embedding embed(String text);

  /**
   * Embeds many texts to be stored, in order. The default embeds them one at a time with {@link
   * #embed}; implementations that batch override it.
   */
  default List<Embedding> embedAll(List<String> texts) {
    List<Embedding> out = new ArrayList<>(texts.size());
    for (String text : texts) {
      out.add(embed(text));
    }
    return out;
  }

  /**
   * Embeds a search query: the text a recall searches with, in the same space as the stored texts.
   * The default is {@link #embed}, right for symmetric models; an embedder whose model wants a
   * query instruction or prefix overrides it.
   *
   * @throws NullPointerException if {@code text} is null
   */
  default Embedding embedQuery(String text) {
    return embed(text);
  }

  /**
   * Embeds many texts to be stored (the document side), in order. The default is {@link #embedAll};
   * an embedder whose model wants a document prefix applies it here and in {@link #embed} and
   * {@link #embedAll} alike.
   *
   * @throws NullPointerException if {@code texts} or one of its elements is null
   */
  default List<Embedding> embedDocuments(List<String> texts) {
    return embedAll(texts);
  }

  /** The number of dimensions of every vector this embedder returns. */
  int dimension();

  /**
   * A stable name of the model and of its query/document convention, recorded by stores to refuse
   * mixing vector spaces. A symmetric model's id is its name ({@code all-minilm-l6-v2-q}); an
   * asymmetric one appends its convention after a {@code +} ({@code
   * bge-small-en-v1.5-q+bge-query-instruction}).
   */
  String modelId();

  /** This embedder's space: {@code new EmbeddingSpace(modelId(), dimension())}. */
  default EmbeddingSpace space() {
    return new EmbeddingSpace(modelId(), dimension());
  }

  /**
   * How the model scores unrelated text ({@link SimilarityCalibration}), if the embedder declares
   * it: the relevance gate reads cosines against it. The default declares nothing, and a service
   * then measures the calibration with this embedder over a fixed sample of ordinary sentences,
   * once, at its first recall. A declaration must describe this embedder's own query and document
   * sides (its {@link #modelId()}); an embedder that wraps another forwards it.
   */
  default Optional<SimilarityCalibration> similarityCalibration() {
    return Optional.empty();
  }

  /** Releases resources. The default does nothing. */
  @Override
  default void close() {}
}
