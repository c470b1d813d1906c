package dev.memhook.core.internal.recall;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import java.util.Map;

/**
 * A test embedder that puts each known text at a given cosine from the query direction (1, 0), and
 * any other text at cosine 1: the gate's floors can then be tested with exact cosines.
 */
final class AngleEmbedder implements Embedder {
  private final Map<String, Double> cosines;

  AngleEmbedder(Map<String, Double> cosines) {
    this.cosines = Map.copyOf(cosines);
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
