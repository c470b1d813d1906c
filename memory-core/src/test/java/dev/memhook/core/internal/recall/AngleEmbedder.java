package dev.memhook.core.internal.recall;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.SimilarityCalibration;
import java.util.Map;
import java.util.Optional;

/**
 * A test embedder that puts each known text at a given cosine from the query direction (1, 0), and
 * any other text at cosine 1: the gate's floors can then be tested with exact cosines.
 */
final class AngleEmbedder implements Embedder {
  private final Map<String, Double> cosines;
  private final Optional<SimilarityCalibration> calibration;

  AngleEmbedder(Map<String, Double> cosines) {
    this(cosines, Optional.empty());
  }

  /** An embedder that declares {@code calibration}. */
  AngleEmbedder(Map<String, Double> cosines, Optional<SimilarityCalibration> calibration) {
    this.cosines = Map.copyOf(cosines);
    this.calibration = calibration;
  }

  @Override
  public Optional<SimilarityCalibration> similarityCalibration() {
    return calibration;
  }

  @Override
  public Embedding embed(String text) {
    double c = cosines.getOrDefault(text, 1.0);
    return Embedding.of((float) c, (float) Math.sqrt(1 - c * c));
  }

  @Override
  public int dimension() {
    return 2;
  }

  @Override
  public String modelId() {
    return "angle-test";
  }
}
