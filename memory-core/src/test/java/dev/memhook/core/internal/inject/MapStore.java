package dev.memhook.core.internal.inject;

import dev.memhook.api.ExportResult;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The part of a store {@code get_memory} reads, over a map: memories come back exactly as they were
 * put (no store's encoding touches them), so tool tests can hold any text, lone surrogates
 * included. It exports, so the interface's default {@code listByType} lists what it holds (a hook's
 * standing memories). Searches and writes other than {@link #put} are not supported.
 */
final class MapStore implements MemoryStore {

  private final Map<MemoryId, Memory> memories = new ConcurrentHashMap<>();

  /** Puts {@code m} without an embedding. */
  Memory add(Memory m) {
    memories.put(m.id(), m);
    return m;
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return Set.of();
  }

  @Override
  public void attach(EmbeddingSpace space) {}

  @Override
  public void put(Memory memory, Embedding embedding) {
    add(memory);
  }

  @Override
  public void putNewVersion(Memory next, Embedding embedding) {
    throw unsupported();
  }

  @Override
  public Optional<Memory> get(MemoryId id) {
    return Optional.ofNullable(memories.get(id));
  }

  @Override
  public boolean delete(MemoryId id, ForgetRecord audit) {
    throw unsupported();
  }

  @Override
  public List<ForgetRecord> forgotten(Scope scope) {
    throw unsupported();
  }

  @Override
  public TextHits searchText(Scope scope, String query, int k) {
    throw unsupported();
  }

  @Override
  public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
    throw unsupported();
  }

  @Override
  public List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k) {
    throw unsupported();
  }

  @Override
  public long count(Scope scope) {
    return memories.values().stream().filter(m -> m.scope().equals(scope)).count();
  }

  @Override
  public ExportResult export(Consumer<? super Memory> sink) {
    memories.values().forEach(sink);
    return new ExportResult(memories.size(), 0);
  }

  @Override
  public void close() {}

  /** The tool only reads by id; a test that reaches a search or a delete is a broken test. */
  private static UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException(
        "MapStore serves get_memory's reads by id only; use a Lucene store for searches and deletes");
  }
}
