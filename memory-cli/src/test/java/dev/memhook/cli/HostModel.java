package dev.memhook.cli;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.core.HashingEmbedder;

/**
 * A model of a host's that the command does not have: hashing vectors under the id {@value #ID}, so
 * a store built with it records a space {@link EmbedderChoice} does not offer.
 */
final class HostModel implements Embedder {
  static final String ID = "host-model-v3";

  private final HashingEmbedder vectors = HashingEmbedder.create();

  @Override
  public Embedding embed(String text) {
    return vectors.embed(text);
  }

  @Override
  public int dimension() {
    return vectors.dimension();
  }

  @Override
  public String modelId() {
    return ID;
  }
}
