package dev.memhook.benchmarks;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.SimilarityCalibration;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Views of a store and an embedder whose {@code close()} does nothing, so several services (each
 * with its own {@code RecallOptions}) can share one store and one model: a service owns and closes
 * what it is given. The caller closes the real ones. Thread-safe if the delegate is.
 */
public final class Unowned {

  private Unowned() {}

  /** {@code store} with a no-op {@code close()}. */
  public static MemoryStore store(MemoryStore store) {
    return new StoreView(store);
  }

  /** {@code embedder} with a no-op {@code close()}. */
  public static Embedder embedder(Embedder embedder) {
    return new EmbedderView(embedder);
  }

  private static final class StoreView extends ForwardingMemoryStore {
    StoreView(MemoryStore delegate) {
      super(delegate);
    }

    @Override
    public void close() {
      // not ours to close
    }
  }

  private record EmbedderView(Embedder delegate) implements Embedder {
    EmbedderView {
      Objects.requireNonNull(delegate, "embedder");
    }

    @Override
    public Embedding embed(String text) {
      return delegate.embed(text);
    }

    @Override
    public List<Embedding> embedAll(List<String> texts) {
      return delegate.embedAll(texts);
    }

    @Override
    public Embedding embedQuery(String text) {
      return delegate.embedQuery(text);
    }

    @Override
    public List<Embedding> embedDocuments(List<String> texts) {
      return delegate.embedDocuments(texts);
    }

    @Override
    public int dimension() {
      return delegate.dimension();
    }

    @Override
    public String modelId() {
      return delegate.modelId();
    }

    @Override
    public Optional<SimilarityCalibration> similarityCalibration() {
      return delegate.similarityCalibration();
    }

    @Override
    public void close() {}
  }
}
