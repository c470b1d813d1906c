package dev.memhook.api.spi;

/**
 * How an embedding model scores text that is unrelated: the mean and the standard deviation of the
 * cosines between a query and a document that do not answer it. Cosines mean different things in
 * different models (one model puts unrelated sentences near 0, another near 0.7, with a spread
 * several times narrower), so the relevance gate reads a cosine against the model's own calibration
 * rather than as an absolute number.
 *
 * <p>An {@link Embedder} declares its model's calibration with {@link
 * Embedder#similarityCalibration()}; without one, a service measures the same two numbers with the
 * embedder itself, once, over a fixed sample of ordinary sentences. A declared calibration should
 * be measured the same way, over generic text and never over the data the model will serve:
 * query-side embeddings of a list of unrelated sentences against document-side embeddings of the
 * others, every ordered pair of different sentences.
 *
 * <p>A value: immutable and thread-safe.
 *
 * @param unrelatedMean the mean cosine of unrelated query–document pairs, in {@code [-1, 1]}
 * @param unrelatedDeviation their standard deviation, in {@code (0, 1]}
 * @throws IllegalArgumentException if a value is out of its range or not a number
 */
public record SimilarityCalibration(double unrelatedMean, double unrelatedDeviation) {

  /** Validates the calibration. */
  public SimilarityCalibration {
    if (!(unrelatedMean >= -1 && unrelatedMean <= 1)) {
      throw new IllegalArgumentException("unrelatedMean must be in [-1, 1], got " + unrelatedMean);
    }
    if (!(unrelatedDeviation > 0 && unrelatedDeviation <= 1)) {
      throw new IllegalArgumentException(
          "unrelatedDeviation must be in (0, 1], got " + unrelatedDeviation);
    }
  }
}
