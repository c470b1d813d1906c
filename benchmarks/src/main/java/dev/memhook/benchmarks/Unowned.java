package dev.memhook.benchmarks;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

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

  private record StoreView(MemoryStore delegate) implements MemoryStore {
    StoreView {
      Objects.requireNonNull(delegate, "store");
    }

    @Override public void attach(EmbeddingSpace space) { delegate.attach(space); }
    @Override public void put(Memory memory, Embedding embedding) { delegate.put(memory, embedding); }
    @Override public void putAll(Map<Memory, Embedding> batch) { delegate.putAll(batch); }
    @Override public Optional<Memory> get(MemoryId id) { return delegate.get(id); }
    @Override public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) { return delegate.getAll(ids); }
    @Override public boolean delete(MemoryId id, ForgetRecord audit) { return delegate.delete(id, audit); }
    @Override public List<ForgetRecord> forgotten(Scope scope) { return delegate.forgotten(scope); }
    @Override public List<StoreHit> searchText(Scope scope, String query, int k) { return delegate.searchText(scope, query, k); }
    @Override public double textScoreCeiling(Scope scope, String query) { return delegate.textScoreCeiling(scope, query); }
    @Override public List<StoreHit> searchVector(Scope scope, Embedding query, int k) { return delegate.searchVector(scope, query, k); }
    @Override public List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k) {
      return delegate.searchRelated(scope, concepts, files, k);
    }
    @Override public long count(Scope scope) { return delegate.count(scope); }
    @Override public void close() { }
  }

  private record EmbedderView(Embedder delegate) implements Embedder {
    EmbedderView {
      Objects.requireNonNull(delegate, "embedder");
    }

    @Override public Embedding embed(String text) { return delegate.embed(text); }
    @Override public List<Embedding> embedAll(List<String> texts) { return delegate.embedAll(texts); }
    @Override public int dimension() { return delegate.dimension(); }
    @Override public String modelId() { return delegate.modelId(); }
    @Override public void close() { }
  }
}
