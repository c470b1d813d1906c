package dev.memhook.testkit;

import dev.memhook.api.ExportResult;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.SessionWindow;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.api.spi.TypeListing;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A {@link MemoryStore} that forwards every call to a delegate, for tests that break or observe one
 * method (a store that fails, stalls or counts calls) and benchmarks that wrap a store. Override
 * what you change; everything else behaves as the delegate does, so thread safety and null handling
 * are the delegate's.
 *
 * <p>Every write reaches one method of each kind: the two-argument {@code put}, {@code putAll} and
 * {@code putNewVersion} call the three-argument ones with no passages, and those forward to the
 * delegate. To break or observe writes, override the three-argument methods: they see every write,
 * whichever form the caller used (a service stores with them).
 */
public abstract class ForwardingMemoryStore implements MemoryStore {

  private final MemoryStore delegate;

  /** Forwards to {@code delegate}, which must not be null. */
  protected ForwardingMemoryStore(MemoryStore delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The store calls are forwarded to. */
  protected MemoryStore delegate() {
    return delegate;
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return delegate.capabilities();
  }

  /** Calls {@link #putNewVersion(Memory, Embedding, List)} with no passages. */
  @Override
  public void putNewVersion(Memory next, Embedding embedding) {
    putNewVersion(next, embedding, List.of());
  }

  @Override
  public void attach(EmbeddingSpace space) {
    delegate.attach(space);
  }

  /** Calls {@link #put(Memory, Embedding, List)} with no passages. */
  @Override
  public void put(Memory memory, Embedding embedding) {
    put(memory, embedding, List.of());
  }

  /** Calls {@link #putAll(Map, Map)} with no passages. */
  @Override
  public void putAll(Map<Memory, Embedding> batch) {
    putAll(batch, Map.of());
  }

  @Override
  public void put(Memory memory, Embedding embedding, List<Embedding> passages) {
    delegate.put(memory, embedding, passages);
  }

  @Override
  public void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
    delegate.putAll(batch, passages);
  }

  @Override
  public void putNewVersion(Memory next, Embedding embedding, List<Embedding> passages) {
    delegate.putNewVersion(next, embedding, passages);
  }

  @Override
  public Map<MemoryId, Double> passageCosines(
      Scope scope, Collection<MemoryId> ids, Embedding query) {
    return delegate.passageCosines(scope, ids, query);
  }

  @Override
  public Optional<Memory> get(MemoryId id) {
    return delegate.get(id);
  }

  @Override
  public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    return delegate.getAll(ids);
  }

  @Override
  public boolean delete(MemoryId id, ForgetRecord audit) {
    return delegate.delete(id, audit);
  }

  @Override
  public int deleteAll(List<ForgetRecord> audits) {
    return delegate.deleteAll(audits);
  }

  @Override
  public List<ForgetRecord> forgotten(Scope scope) {
    return delegate.forgotten(scope);
  }

  @Override
  public TextHits searchText(Scope scope, String query, int k) {
    return delegate.searchText(scope, query, k);
  }

  @Override
  public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
    return delegate.searchVector(scope, query, k);
  }

  @Override
  public Map<MemoryId, SessionWindow> sessionWindows(
      Scope scope, Collection<MemoryId> ids, int span) {
    return delegate.sessionWindows(scope, ids, span);
  }

  @Override
  public List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k) {
    return delegate.searchRelated(scope, concepts, files, k);
  }

  @Override
  public long count(Scope scope) {
    return delegate.count(scope);
  }

  @Override
  public TypeListing listByType(Scope scope, List<MemoryType> types, int limit) {
    return delegate.listByType(scope, types, limit);
  }

  @Override
  public ExportResult export(Consumer<? super Memory> sink) {
    return delegate.export(sink);
  }

  @Override
  public ExportResult exportWithVectors(
      BiConsumer<? super Memory, ? super Optional<Embedding>> sink) {
    return delegate.exportWithVectors(sink);
  }

  @Override
  public long exportForgotten(Consumer<? super ForgetRecord> sink) {
    return delegate.exportForgotten(sink);
  }

  @Override
  public long unreadableRecords() {
    return delegate.unreadableRecords();
  }

  @Override
  public void flush() {
    delegate.flush();
  }

  @Override
  public void purge() {
    delegate().purge();
  }

  @Override
  public void compact() {
    delegate.compact();
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + delegate + "]";
  }
}
