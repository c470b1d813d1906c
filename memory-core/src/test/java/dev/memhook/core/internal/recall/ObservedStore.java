package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.SessionWindow;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * An in-memory Lucene store for the stage tests that writes memories with chosen ids and records
 * the calls the recall stages make: each {@code getAll}'s ids, each search. Not thread-safe.
 */
final class ObservedStore extends ForwardingMemoryStore {

  /** One {@code searchRelated} call's arguments. */
  record RelatedSearch(Set<String> concepts, Set<String> files, int k) {}

  final HashingEmbedder embedder = HashingEmbedder.create();
  final List<List<MemoryId>> reads = new ArrayList<>();
  final List<String> textSearches = new ArrayList<>();
  final List<Integer> textDepths = new ArrayList<>();
  final List<TextHits> textResults = new ArrayList<>();
  final List<Integer> vectorDepths = new ArrayList<>();
  final List<RelatedSearch> relatedSearches = new ArrayList<>();
  final List<List<MemoryId>> windowRequests = new ArrayList<>();

  ObservedStore() {
    super(LuceneMemoryStore.inMemory());
    delegate().attach(embedder.space());
  }

  /** Stores a memory in {@link Scope#DEFAULT} with id {@code id}, changed by {@code details}. */
  Memory add(String id, String content, UnaryOperator<Memory.Builder> details) {
    Memory base =
        Memory.builder()
            .id(MemoryId.of(id))
            .scope(Scope.DEFAULT)
            .content(content)
            .occurredAt(Instant.EPOCH)
            .createdAt(Instant.EPOCH)
            .build();
    // toBuilder() starts from the base's values, which each setter may then change once
    Memory m = details.apply(base.toBuilder()).build();
    delegate().put(m, embedder.embed(content));
    return m;
  }

  /** Stores a memory in {@link Scope#DEFAULT} with id {@code id} and nothing but its content. */
  Memory add(String id, String content) {
    return add(id, content, b -> b);
  }

  /** Stores {@code newId} as the next version of {@code oldId}, which is then no longer latest. */
  Memory supersede(String oldId, String newId) {
    Memory old = delegate().get(MemoryId.of(oldId)).orElseThrow();
    Memory next =
        old.toBuilder()
            .id(MemoryId.of(newId))
            .version(old.version() + 1)
            .supersedes(old.id())
            .build();
    delegate().putNewVersion(next, embedder.embed(next.content()));
    return next;
  }

  /** Forgets every call recorded so far. */
  void clearCalls() {
    reads.clear();
    textSearches.clear();
    textDepths.clear();
    textResults.clear();
    vectorDepths.clear();
    relatedSearches.clear();
    windowRequests.clear();
  }

  /** Every id read, in the order asked. */
  List<MemoryId> idsRead() {
    List<MemoryId> out = new ArrayList<>();
    reads.forEach(out::addAll);
    return out;
  }

  @Override
  public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    reads.add(List.copyOf(ids));
    return super.getAll(ids);
  }

  @Override
  public TextHits searchText(Scope scope, String query, int k) {
    textSearches.add(query);
    textDepths.add(k);
    TextHits found = super.searchText(scope, query, k);
    textResults.add(found);
    return found;
  }

  @Override
  public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
    vectorDepths.add(k);
    return super.searchVector(scope, query, k);
  }

  @Override
  public Map<MemoryId, SessionWindow> sessionWindows(
      Scope scope, Collection<MemoryId> ids, int span) {
    windowRequests.add(List.copyOf(ids));
    return super.sessionWindows(scope, ids, span);
  }

  @Override
  public List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k) {
    relatedSearches.add(new RelatedSearch(Set.copyOf(concepts), Set.copyOf(files), k));
    return super.searchRelated(scope, concepts, files, k);
  }
}
