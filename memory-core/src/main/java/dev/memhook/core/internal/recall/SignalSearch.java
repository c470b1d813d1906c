package dev.memhook.core.internal.recall;

import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.time.Duration;
import java.util.List;

/**
 * The direct signals of a recall: the store's BM25 text top-k and nearest-vector top-k for the
 * query, as weighted lists for {@link Fusion}. A signal of weight 0 is not searched and gives an
 * empty list. Thread-safe: it holds the store, the options and the query-embedding cache.
 */
final class SignalSearch {

  /**
   * What the direct searches found.
   *
   * @param text the text hits, best first, with the text weight
   * @param vector the vector hits, best first, with the vector weight
   * @param textCeiling the query's text-score ceiling ({@link TextHits#ceiling()}), which the text
   *     shares of the relevance gate divide by; 0 when text was not searched or matched nothing
   * @param textTook how long the text search took
   * @param vectorTook how long embedding the query and the vector search took
   */
  record DirectSignals(
      Fusion.RankedList text,
      Fusion.RankedList vector,
      double textCeiling,
      Duration textTook,
      Duration vectorTook) {}

  private final MemoryStore store;
  private final RecallOptions options;
  private final QueryEmbeddings embeddings;

  SignalSearch(MemoryStore store, RecallOptions options, QueryEmbeddings embeddings) {
    this.store = store;
    this.options = options;
    this.embeddings = embeddings;
  }

  /** Searches text and vectors in {@code scope}, at most {@code depth} hits each. */
  DirectSignals search(Scope scope, String text, int depth) {
    long start = System.nanoTime();
    TextHits found =
        options.textWeight() > 0 ? store.searchText(scope, text, depth) : TextHits.none();
    long textDone = System.nanoTime();
    List<StoreHit> vectorHits =
        options.vectorWeight() > 0
            ? store.searchVector(scope, embeddings.of(text), depth)
            : List.of();
    long vectorDone = System.nanoTime();
    return new DirectSignals(
        new Fusion.RankedList(Signal.TEXT, options.textWeight(), found.hits(), depth),
        new Fusion.RankedList(Signal.VECTOR, options.vectorWeight(), vectorHits),
        found.ceiling(),
        Duration.ofNanos(textDone - start),
        Duration.ofNanos(vectorDone - textDone));
  }
}
