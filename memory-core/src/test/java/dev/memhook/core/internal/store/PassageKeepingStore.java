package dev.memhook.core.internal.store;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store that keeps passage vectors exactly as given, for the logged store's tests: a store (an
 * in-memory Lucene store, given no passages) for everything else, and each memory's passages,
 * exact, in a map beside it, so a test can compare what a replay gave back vector by vector. It
 * declares {@link StoreCapability#PASSAGE_VECTORS} on top of its store's capabilities, and passes
 * {@code PassageVectorsStoreContract}.
 *
 * <p>Thread-safe as far as its store is, but a write and its passages are two steps: a reader
 * between them may see the memory with its earlier passages. Tests that check passages write from
 * one thread.
 */
final class PassageKeepingStore extends ForwardingMemoryStore {

  private final Map<MemoryId, List<Embedding>> passages = new ConcurrentHashMap<>();

  /** The attached space's dimension; 0 before {@link #attach}. */
  private volatile int dimension;

  PassageKeepingStore(MemoryStore store) {
    super(store);
  }

  /** Over a new, unattached in-memory Lucene store. */
  static PassageKeepingStore inMemory() {
    return new PassageKeepingStore(LuceneMemoryStore.inMemory());
  }

  /** The passages kept for {@code id}, as given; empty if none. */
  List<Embedding> passagesOf(MemoryId id) {
    return passages.getOrDefault(id, List.of());
  }

  @Override
  public Set<StoreCapability> capabilities() {
    Set<StoreCapability> capabilities = EnumSet.of(StoreCapability.PASSAGE_VECTORS);
    capabilities.addAll(super.capabilities());
    return Collections.unmodifiableSet(capabilities);
  }

  @Override
  public void attach(EmbeddingSpace space) {
    super.attach(space);
    dimension = space.dimension();
  }

  @Override
  public void put(Memory memory, Embedding embedding, List<Embedding> passages) {
    MemoryStore.checkPassages(embedding, passages);
    delegate().put(memory, embedding);
    keep(memory.id(), passages);
  }

  @Override
  public void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
    MemoryStore.checkPassages(batch, passages);
    delegate().putAll(batch);
    batch.keySet().forEach(m -> keep(m.id(), passages.getOrDefault(m.id(), List.of())));
  }

  @Override
  public void putNewVersion(Memory next, Embedding embedding, List<Embedding> passages) {
    MemoryStore.checkPassages(embedding, passages);
    delegate().putNewVersion(next, embedding);
    keep(next.id(), passages);
  }

  @Override
  public boolean delete(MemoryId id, ForgetRecord audit) {
    boolean deleted = super.delete(id, audit);
    passages.remove(id);
    return deleted;
  }

  @Override
  public int deleteAll(List<ForgetRecord> audits) {
    int deleted = super.deleteAll(audits);
    audits.forEach(a -> passages.remove(a.id()));
    return deleted;
  }

  @Override
  public Map<MemoryId, Double> passageCosines(
      Scope scope, Collection<MemoryId> ids, Embedding query) {
    Objects.requireNonNull(scope, "scope");
    ids.forEach(id -> Objects.requireNonNull(id, "id"));
    Objects.requireNonNull(query, "query");
    if (query.dimension() != dimension) {
      throw new IllegalArgumentException(
          "query of dimension " + query.dimension() + ", the store's " + dimension);
    }
    Map<MemoryId, Memory> held = getAll(ids);
    Map<MemoryId, Double> cosines = new LinkedHashMap<>();
    for (MemoryId id : ids) {
      Memory m = held.get(id);
      List<Embedding> its = passages.get(id);
      if (m != null && m.latest() && m.scope().equals(scope) && its != null) {
        cosines.put(id, its.stream().mapToDouble(p -> p.cosine(query)).max().orElseThrow());
      }
    }
    return cosines;
  }

  @Override
  public String toString() {
    return "PassageKeepingStore[" + delegate() + "]";
  }

  private void keep(MemoryId id, List<Embedding> its) {
    if (its.isEmpty()) {
      passages.remove(id);
    } else {
      passages.put(id, List.copyOf(its));
    }
  }
}
