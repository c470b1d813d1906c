package dev.memhook.djl;

import dev.memhook.api.spi.Embedding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Embeds a list of texts in batched model calls: each text becomes its token windows, all windows
 * are run through the model in batches of at most {@code batchSize}, and each text's window vectors
 * are combined into its vector by {@link WindowMean}.
 *
 * <p>Design note: the windows are sorted by length before batching (a stable sort, so windows of
 * equal length keep their order), so that each batch holds similar lengths and the padding added to
 * its shorter sequences stays small. The batches depend only on the list of texts, so the same list
 * always gives the same vectors; a text may get a slightly different vector in another list when
 * the model's arithmetic depends on the rest of the batch (see {@link DjlEmbedder}).
 *
 * <p>Thread-safe: it holds only its configuration. Each call uses the model function it is given,
 * which the caller must not share with a concurrent call unless that function is thread-safe (a DJL
 * predictor is not).
 */
final class BatchEmbedding {
  private final Function<String, List<long[]>> windows;
  private final int batchSize;
  private final boolean normalize;

  /**
   * @param windows a text's token windows in text order, at least one; may throw {@link
   *     dev.memhook.api.EmbeddingException}
   * @param batchSize the most sequences per model call; positive
   * @param normalize whether vectors are scaled to unit length (see {@link WindowMean})
   */
  BatchEmbedding(Function<String, List<long[]>> windows, int batchSize, boolean normalize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive, got " + batchSize);
    }
    this.windows = windows;
    this.batchSize = batchSize;
    this.normalize = normalize;
  }

  /**
   * One vector per text, in the order of {@code texts}; an unmodifiable list, empty for no texts
   * (without calling the model).
   *
   * @param model pools one vector per sequence of each batch of a list, in list and batch order (it
   *     may run the batches at once); its exceptions pass through
   */
  List<Embedding> embedAll(List<String> texts, Function<List<TokenBatch>, float[][][]> model) {
    if (texts.isEmpty()) {
      return List.of();
    }
    List<long[]> sequences = new ArrayList<>();
    // Text t owns the sequences from firstWindow[t] up to firstWindow[t + 1].
    int[] firstWindow = new int[texts.size() + 1];
    for (int t = 0; t < texts.size(); t++) {
      firstWindow[t] = sequences.size();
      sequences.addAll(windows.apply(texts.get(t)));
    }
    firstWindow[texts.size()] = sequences.size();
    List<float[]> vectors = Arrays.asList(runSorted(sequences, batchSize, model));
    List<Embedding> result = new ArrayList<>(texts.size());
    for (int t = 0; t < texts.size(); t++) {
      List<float[]> own = vectors.subList(firstWindow[t], firstWindow[t + 1]);
      result.add(Embedding.of(WindowMean.of(own, normalize)));
    }
    return Collections.unmodifiableList(result);
  }

  /**
   * Runs {@code sequences} through {@code model} in length-sorted batches of at most {@code
   * batchSize}, all handed to {@code model} in one call, and returns their vectors in the order of
   * {@code sequences}.
   */
  static float[][] runSorted(
      List<long[]> sequences, int batchSize, Function<List<TokenBatch>, float[][][]> model) {
    Integer[] order = new Integer[sequences.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingInt(i -> sequences.get(i).length));
    List<TokenBatch> batches = new ArrayList<>();
    for (int from = 0; from < order.length; from += batchSize) {
      int to = Math.min(order.length, from + batchSize);
      long[][] chunk = new long[to - from][];
      for (int i = from; i < to; i++) {
        chunk[i - from] = sequences.get(order[i]);
      }
      batches.add(new TokenBatch(chunk));
    }
    float[][][] out = model.apply(batches);
    float[][] vectors = new float[sequences.size()][];
    for (int b = 0; b < batches.size(); b++) {
      int from = b * batchSize;
      for (int i = 0; i < batches.get(b).size(); i++) {
        vectors[order[from + i]] = out[b][i];
      }
    }
    return vectors;
  }
}
