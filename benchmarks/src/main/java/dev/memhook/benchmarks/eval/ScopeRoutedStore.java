package dev.memhook.benchmarks.eval;

import dev.memhook.api.ExportResult;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.SessionWindow;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One store per scope behind the {@link MemoryStore} interface, for the harness's "one index per
 * conversation" option ({@code RetrievalEval --store lucene-per-scope}): each conversation's
 * memories get their own index, so BM25's statistics (document counts, term frequencies) are not
 * shared with unrelated conversations, as a host that gives every user a store of their own would
 * have it. Reads by id try the store the id was written to.
 *
 * <p>Thread-safe if the stores it makes are. Capabilities are those of the stores it makes (learnt
 * from one made at construction) but {@link StoreCapability#ATOMIC_BATCH}: a batch that spans
 * scopes spans stores.
 */
final class ScopeRoutedStore implements MemoryStore {

  private final Supplier<MemoryStore> stores;
  private final Map<Scope, MemoryStore> byScope = new ConcurrentHashMap<>();
  private final Map<MemoryId, Scope> scopeOf = new ConcurrentHashMap<>();
  private final Set<StoreCapability> capabilities;
  private volatile EmbeddingSpace space;
  private volatile boolean closed;

  ScopeRoutedStore(Supplier<MemoryStore> stores) {
    this.stores = Objects.requireNonNull(stores, "stores");
    try (MemoryStore probe = stores.get()) {
      Set<StoreCapability> found = EnumSet.noneOf(StoreCapability.class);
      found.addAll(probe.capabilities());
      found.remove(StoreCapability.ATOMIC_BATCH);
      this.capabilities = Set.copyOf(found);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the ScopeRoutedStore is closed");
    }
  }

  private MemoryStore of(Scope scope) {
    ensureOpen();
    return byScope.computeIfAbsent(
        Objects.requireNonNull(scope, "scope"),
        s -> {
          MemoryStore store = stores.get();
          if (space != null) {
            store.attach(space);
          }
          return store;
        });
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return capabilities;
  }

  @Override
  public synchronized void attach(EmbeddingSpace space) {
    Objects.requireNonNull(space, "space");
    ensureOpen();
    this.space = space;
    byScope.values().forEach(s -> s.attach(space));
  }

  @Override
  public void put(Memory memory, Embedding embedding) {
    of(memory.scope()).put(memory, embedding);
    scopeOf.put(memory.id(), memory.scope());
  }

  @Override
  public void put(Memory memory, Embedding embedding, List<Embedding> passages) {
    of(memory.scope()).put(memory, embedding, passages);
    scopeOf.put(memory.id(), memory.scope());
  }

  /**
   * Puts the memories one by one, each into its scope's store with its passages: not atomic, as
   * {@link MemoryStore#putAll(Map)}'s default is not.
   */
  @Override
  public void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
    MemoryStore.checkPassages(batch, passages);
    Set<MemoryId> seen = new HashSet<>();
    for (Memory m : batch.keySet()) {
      if (!seen.add(m.id())) {
        throw new IllegalArgumentException("batch holds two memories with id " + m.id());
      }
    }
    batch.forEach((m, e) -> put(m, e, passages.getOrDefault(m.id(), List.of())));
  }

  @Override
  public void putNewVersion(Memory next, Embedding embedding) {
    of(next.scope()).putNewVersion(next, embedding);
    scopeOf.put(next.id(), next.scope());
  }

  @Override
  public void putNewVersion(Memory next, Embedding embedding, List<Embedding> passages) {
    of(next.scope()).putNewVersion(next, embedding, passages);
    scopeOf.put(next.id(), next.scope());
  }

  @Override
  public Optional<Memory> get(MemoryId id) {
    ensureOpen();
    Scope scope = scopeOf.get(Objects.requireNonNull(id, "id"));
    return scope == null ? Optional.empty() : of(scope).get(id);
  }

  @Override
  public boolean delete(MemoryId id, ForgetRecord audit) {
    Objects.requireNonNull(audit, "audit");
    ensureOpen();
    Scope scope = scopeOf.get(Objects.requireNonNull(id, "id"));
    return scope != null && of(scope).delete(id, audit);
  }

  @Override
  public List<ForgetRecord> forgotten(Scope scope) {
    return of(scope).forgotten(scope);
  }

  @Override
  public TextHits searchText(Scope scope, String query, int k) {
    return of(scope).searchText(scope, query, k);
  }

  @Override
  public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
    return of(scope).searchVector(scope, query, k);
  }

  @Override
  public Map<MemoryId, SessionWindow> sessionWindows(
      Scope scope, Collection<MemoryId> ids, int span) {
    return of(scope).sessionWindows(scope, ids, span);
  }

  @Override
  public Map<MemoryId, Double> passageCosines(
      Scope scope, Collection<MemoryId> ids, Embedding query) {
    return of(scope).passageCosines(scope, ids, query);
  }

  @Override
  public List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k) {
    return of(scope).searchRelated(scope, concepts, files, k);
  }

  @Override
  public long count(Scope scope) {
    return of(scope).count(scope);
  }

  @Override
  public ExportResult export(Consumer<? super Memory> sink) {
    Objects.requireNonNull(sink, "sink");
    ensureOpen();
    long exported = 0;
    long unreadable = 0;
    for (MemoryStore store : new ArrayList<>(byScope.values())) {
      ExportResult r = store.export(sink);
      exported += r.exported();
      unreadable += r.unreadable();
    }
    return new ExportResult(exported, unreadable);
  }

  @Override
  public long exportForgotten(Consumer<? super ForgetRecord> sink) {
    Objects.requireNonNull(sink, "sink");
    ensureOpen();
    long exported = 0;
    for (MemoryStore store : new ArrayList<>(byScope.values())) {
      exported += store.exportForgotten(sink);
    }
    return exported;
  }

  @Override
  public long unreadableRecords() {
    ensureOpen();
    long unreadable = 0;
    for (MemoryStore store : new ArrayList<>(byScope.values())) {
      unreadable += store.unreadableRecords();
    }
    return unreadable;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException first = null;
    for (MemoryStore store : byScope.values()) {
      try {
        store.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
