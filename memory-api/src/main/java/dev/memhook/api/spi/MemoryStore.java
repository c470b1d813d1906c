package dev.memhook.api.spi;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Durable memory records and the searches that must run where the data lives. Fusion, graph
 * expansion, diversification and gating run above the store, so every store gets them.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>Thread-safe: any method may be called from any thread at any time before {@link #close()}.
 *   <li>{@link #put} is an upsert by id; when it returns the write is durable by the store's stated
 *       policy and visible to every later read and search.
 *   <li>Every search is filtered by scope inside the store and returns latest versions only, best
 *       first, at most {@code k} hits, never a forgotten memory.
 *   <li>{@link #attach} is called once, before any write, with the embedder's space; a store that
 *       already holds vectors of another space throws
 *       {@link dev.memhook.api.IncompatibleStoreException}.
 *   <li>I/O failures are thrown as {@link dev.memhook.api.MemoryStoreException}; after {@link #close()}
 *       every method throws {@link IllegalStateException}. Null arguments are rejected with
 *       {@link NullPointerException}.
 * </ul>
 * {@code dev.memhook.testkit.MemoryStoreContract} is the test every implementation must pass.
 */
public interface MemoryStore extends AutoCloseable {

  /** Checks and records the vector space of the embeddings this store will be given. */
  void attach(EmbeddingSpace space);

  /** Stores or replaces {@code memory} with its embedding, which must be in the attached space. */
  void put(Memory memory, Embedding embedding);

  /**
   * Stores or replaces several memories as one write: either all are visible afterwards or, if this
   * throws, none of them is. The default puts them one by one; transactional stores override it.
   */
  default void putAll(Map<Memory, Embedding> batch) {
    batch.forEach(this::put);
  }

  /** The memory with this id, latest or not; empty if unknown or forgotten. */
  Optional<Memory> get(MemoryId id);

  /** The memories with these ids that exist, keyed by id in the order asked. */
  default Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    Map<MemoryId, Memory> out = new LinkedHashMap<>();
    for (MemoryId id : ids) {
      get(id).ifPresent(m -> out.put(id, m));
    }
    return out;
  }

  /**
   * Removes a memory from the records and every index at once, and durably keeps {@code audit}.
   *
   * @return whether the memory existed
   */
  boolean delete(MemoryId id, ForgetRecord audit);

  /** The audit records of forgotten memories in {@code scope}, oldest first. */
  List<ForgetRecord> forgotten(Scope scope);

  /** Ranks the latest memories of {@code scope} by text relevance to {@code query} (BM25 or alike). */
  List<StoreHit> searchText(Scope scope, String query, int k);

  /**
   * The highest score {@link #searchText} could give any memory of {@code scope} for {@code query}:
   * for BM25, the sum over the analysed query terms of {@code idf(t) * (k1 + 1) * boost}, the limit
   * a document approaches when it holds every query term many times in every boosted field. The
   * relevance gate divides raw text scores by it, so a floor on text evidence means the same for
   * every query ("the memory reaches this fraction of what the query could match"). Zero when no
   * query term occurs in the store (statistics may be store-wide rather than per scope).
   */
  double textScoreCeiling(Scope scope, String query);

  /** The latest memories of {@code scope} nearest to {@code query}, scored by cosine similarity. */
  List<StoreHit> searchVector(Scope scope, Embedding query, int k);

  /**
   * The latest memories of {@code scope} that share concepts or files with the given sets, scored
   * by how many they share (each shared concept or file counts 1).
   */
  List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k);

  /** The number of latest memories in {@code scope}. */
  long count(Scope scope);

  /** Flushes and releases resources. Idempotent. */
  @Override
  void close();
}
