package dev.memhook.springai.autoconfigure;

import dev.memhook.api.spi.Embedder;
import dev.memhook.djl.DjlEmbedder;

/**
 * The one place that names memory-djl-embeddings, an optional dependency: loaded only after the
 * auto-configuration has checked that the class is present.
 */
final class BundledMiniLm {

  private BundledMiniLm() {}

  static Embedder create() {
    return DjlEmbedder.bundledMiniLm();
  }
}
