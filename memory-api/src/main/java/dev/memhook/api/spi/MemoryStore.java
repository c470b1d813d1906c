package dev.memhook.api.spi;

import dev.memhook.api.ExportResult;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Durable memory records and the searches that must run where the data lives. Fusion, graph
 * expansion, diversification and gating run above the store, so every store gets them.
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li>Thread-safe: any method may be called from any thread at any time before {@link #close()}.
 *   <li>{@link #put} is an upsert by id; when it returns the write is durable by the store's stated
 *       policy and visible to every later read and search.
 *   <li>Every search is filtered by scope inside the store and returns latest versions only, best
 *       first, at most {@code k} hits, never a forgotten memory.
 *   <li>{@link #attach} is called once, before any write, with the embedder's space; a store that
 *       already holds vectors of another space throws {@link
 *       dev.memhook.api.IncompatibleStoreException}.
 *   <li>I/O failures are thrown as {@link dev.memhook.api.MemoryStoreException}; after {@link
 *       #close()} every method throws {@link IllegalStateException}. Null arguments are rejected
 *       with {@link NullPointerException}.
 * </ul>
 *
 * {@code dev.memhook.testkit} ships the contract tests every implementation must pass, one class
 * per {@link StoreCapability} on top of the basic contract.
 */
public interface MemoryStore extends AutoCloseable {

  /**
   * What this store guarantees beyond this contract. Constant for the store's lifetime; callable
   * after {@link #close()}.
   */
  Set<StoreCapability> capabilities();

  /** Checks and records the vector space of the embeddings this store will be given. */
  void attach(EmbeddingSpace space);

  /** Stores or replaces {@code memory} with its embedding, which must be in the attached space. */
  void put(Memory memory, Embedding embedding);

  /**
   * The most passage vectors one memory may be stored with: a store that declares {@link
   * StoreCapability#PASSAGE_VECTORS} keeps at least this many.
   */
  int MAX_PASSAGES = 16;

  /**
   * {@link #put(Memory, Embedding)}, with the vectors of passages of the memory's text (its
   * sentences, say), each in the attached space, which a store that declares {@link
   * StoreCapability#PASSAGE_VECTORS} keeps with the memory for {@link #passageCosines}: as one
   * write with the memory, replaced by the next put of its id, dropped with it by {@link #delete}.
   * Which passages a memory has is the caller's rule; an empty list stores none.
   *
   * <p>The default ignores {@code passages} (after checking them as a store that keeps them would)
   * and puts the memory alone.
   *
   * @throws IllegalArgumentException if there are more than {@link #MAX_PASSAGES} passages or one
   *     of them has another dimension than {@code embedding}; nothing is written then
   */
  default void put(Memory memory, Embedding embedding, List<Embedding> passages) {
    checkPassages(embedding, passages);
    put(memory, embedding);
  }

  /**
   * Stores or replaces several memories. A store that declares {@link StoreCapability#ATOMIC_BATCH}
   * writes them as one write: all are visible afterwards or, if this throws, none of them is
   * written. The default puts them one by one in the map's iteration order and is <em>not</em>
   * atomic: if it throws, the memories before the failing one are stored.
   *
   * @throws IllegalArgumentException if two keys have the same id
   */
  default void putAll(Map<Memory, Embedding> batch) {
    Set<MemoryId> seen = new HashSet<>();
    for (Memory m : batch.keySet()) {
      if (!seen.add(m.id())) {
        throw new IllegalArgumentException("batch holds two memories with id " + m.id());
      }
    }
    batch.forEach(this::put);
  }

  /**
   * {@link #putAll(Map)}, with passage vectors for some of the batch's memories, keyed by id, as
   * {@link #put(Memory, Embedding, List)} takes them; a memory whose id is not a key has none. A
   * store that declares {@link StoreCapability#ATOMIC_BATCH} writes the memories and their passages
   * as one write. The default checks the passages and puts the batch without them.
   *
   * @throws IllegalArgumentException if two keys of {@code batch} have the same id, if {@code
   *     passages} names an id that is not in the batch, or if a memory's passages break {@link
   *     #put(Memory, Embedding, List)}'s rule; nothing is written then
   */
  default void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
    checkPassages(batch, passages);
    putAll(batch);
  }

  /**
   * Stores {@code next}, a new version of the memory {@code next.supersedes()} names, and marks
   * that version superseded (not latest), as one write: if this throws, neither change is visible.
   * The superseded version keeps its text and its vector; it is no longer searched, and {@link
   * #get} returns it with {@code latest() == false}. No embedding of the old version is needed.
   *
   * @throws IllegalArgumentException if {@code next.supersedes()} is null, if {@code next} is not
   *     latest, or if the memory it supersedes is not a latest memory of this store in {@code
   *     next}'s scope; nothing is written then
   */
  void putNewVersion(Memory next, Embedding embedding);

  /**
   * {@link #putNewVersion(Memory, Embedding)}, with the new version's passage vectors as {@link
   * #put(Memory, Embedding, List)} takes them; the superseded version keeps its own, unsearched.
   * The default checks the passages and stores the new version without them.
   *
   * @throws IllegalArgumentException as {@link #putNewVersion(Memory, Embedding)} does, or if the
   *     passages break {@link #put(Memory, Embedding, List)}'s rule; nothing is written then
   */
  default void putNewVersion(Memory next, Embedding embedding, List<Embedding> passages) {
    checkPassages(embedding, passages);
    putNewVersion(next, embedding);
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
   * <p>Forgetting erases: a store that declares {@link StoreCapability#DURABLE} holds no readable
   * copy of the deleted memory's record in any live file once this returns, also after a crash
   * right after it returned, and nothing derived from its text (index terms, vectors) once its
   * {@linkplain #purge purge} is done, within a delay the store documents (zero for a store that
   * erases everything before this returns). {@code audit} must not carry the text either: it holds
   * the id, scope, actor, reason and time.
   *
   * @return whether the memory existed
   */
  boolean delete(MemoryId id, ForgetRecord audit);

  /**
   * Deletes the memory each audit record names, as {@link #delete} does for each, keeping the audit
   * records of the memories that existed; a forget uses it for a memory and its older versions, so
   * that a store that rewrites files to erase (as the Lucene store does) rewrites them once. The
   * default deletes one by one and is not atomic; a store may do it in one write.
   *
   * @return how many of the memories existed
   * @throws IllegalArgumentException if two records name the same id
   */
  default int deleteAll(List<ForgetRecord> audits) {
    Set<MemoryId> seen = new HashSet<>();
    for (ForgetRecord audit : audits) {
      if (!seen.add(audit.id())) {
        throw new IllegalArgumentException("two audit records name " + audit.id());
      }
    }
    int deleted = 0;
    for (ForgetRecord audit : audits) {
      deleted += delete(audit.id(), audit) ? 1 : 0;
    }
    return deleted;
  }

  /** The audit records of forgotten memories in {@code scope}, oldest first. */
  List<ForgetRecord> forgotten(Scope scope);

  /**
   * Ranks the latest memories of {@code scope} by text relevance to {@code query} (BM25 or alike),
   * and says how high a score the query could reach: see {@link TextHits}. {@code query} is plain
   * text, never query syntax.
   */
  TextHits searchText(Scope scope, String query, int k);

  /** The latest memories of {@code scope} nearest to {@code query}, scored by cosine similarity. */
  List<StoreHit> searchVector(Scope scope, Embedding query, int k);

  /**
   * For each of {@code ids} that names a latest memory of {@code scope} stored with passage
   * vectors, the highest cosine similarity of one of its passages to {@code query}, keyed in the
   * order asked. Recall reads it for the candidates its searches found, so it is one call for at
   * most a few hundred ids and its work must be bounded by them, not by the scope; the vectors stay
   * in the store. A store may keep the passages at a lower precision than it was given them (int8,
   * say), so a cosine may differ from the exact one by about a hundredth.
   *
   * <p>An id that is unknown, forgotten, superseded, of another scope or stored without passages is
   * not in the map. The default keeps no passages and returns an empty map, as does every store
   * without {@link StoreCapability#PASSAGE_VECTORS}.
   *
   * @throws NullPointerException if {@code scope}, {@code ids}, an id or {@code query} is null
   * @throws IllegalArgumentException if {@code query} is not of the attached space's dimension
   */
  default Map<MemoryId, Double> passageCosines(
      Scope scope, Collection<MemoryId> ids, Embedding query) {
    Objects.requireNonNull(scope, "scope");
    ids.forEach(id -> Objects.requireNonNull(id, "id"));
    Objects.requireNonNull(query, "query");
    return Map.of();
  }

  /**
   * Checks the passage vectors of a memory as {@link #put(Memory, Embedding, List)} states: for a
   * store's own overrides and for the defaults.
   *
   * @throws NullPointerException if an argument or a passage is null
   * @throws IllegalArgumentException if there are more than {@link #MAX_PASSAGES} or one has
   *     another dimension than {@code embedding}
   */
  static void checkPassages(Embedding embedding, List<Embedding> passages) {
    Objects.requireNonNull(embedding, "embedding");
    Objects.requireNonNull(passages, "passages");
    if (passages.size() > MAX_PASSAGES) {
      throw new IllegalArgumentException(
          "at most " + MAX_PASSAGES + " passages per memory, got " + passages.size());
    }
    for (Embedding p : passages) {
      Objects.requireNonNull(p, "passage");
      if (p.dimension() != embedding.dimension()) {
        throw new IllegalArgumentException(
            "a passage has dimension " + p.dimension() + ", its memory " + embedding.dimension());
      }
    }
  }

  /**
   * Checks the passages of a batch as {@link #putAll(Map, Map)} states.
   *
   * @throws NullPointerException if an argument, a key or a passage is null
   * @throws IllegalArgumentException if {@code passages} names an id not in {@code batch}, or a
   *     memory's passages break {@link #checkPassages(Embedding, List)}
   */
  static void checkPassages(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(passages, "passages");
    Map<MemoryId, Embedding> byId = new HashMap<>();
    batch.forEach((m, e) -> byId.put(m.id(), e));
    passages.forEach(
        (id, list) -> {
          Embedding embedding = byId.get(Objects.requireNonNull(id, "passage id"));
          if (embedding == null) {
            throw new IllegalArgumentException(
                "passages for " + id + ", which is not in the batch");
          }
          checkPassages(embedding, list);
        });
  }

  /**
   * The latest memories of {@code scope} that share concepts or files with the given sets, scored
   * by how many they share (each shared concept or file counts 1).
   */
  List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k);

  /**
   * The memories told around each of {@code ids} in its source session: for each id that names a
   * latest memory of {@code scope} with a {@linkplain Memory#sourceSession() source session}, the
   * latest memories of the same scope and session just before and just after it in the session's
   * order, at most {@code span} on each side. A session's order is by {@link Memory#occurredAt()},
   * then {@link Memory#createdAt()}, then id, so turns stored one after another with the same time
   * keep the order they were stored in. Recall reads it for its best hits, so it is one call for a
   * few ids and its work must be bounded by their sessions, not by the scope.
   *
   * <p>An id that is unknown, forgotten, superseded, of another scope or without a session is not
   * in the map. The default knows no session order and returns an empty map: recall then adds no
   * neighbouring turns. The memories a store indexed before it implemented this may be left out of
   * sessions as well; the contract only holds for memories written since.
   *
   * @param span how many memories on each side, at least 1
   * @return a window per id found, keyed in the order asked
   * @throws NullPointerException if {@code scope}, {@code ids} or an id is null
   * @throws IllegalArgumentException if {@code span} is below 1
   */
  default Map<MemoryId, SessionWindow> sessionWindows(
      Scope scope, Collection<MemoryId> ids, int span) {
    Objects.requireNonNull(scope, "scope");
    ids.forEach(id -> Objects.requireNonNull(id, "id"));
    if (span < 1) {
      throw new IllegalArgumentException("span must be at least 1, got " + span);
    }
    return Map.of();
  }

  /** The number of latest memories in {@code scope}. */
  long count(Scope scope);

  /**
   * Lists the latest memories of {@code scope} whose type is one of {@code types}, without a query:
   * the first {@code limit} in {@linkplain TypeListing#order the listing's order} (every memory of
   * {@code types.get(0)} before any of {@code types.get(1)}; within a type the most important
   * first, then the newest), and how many there are in all. What a service offers a session at its
   * start ({@link dev.memhook.api.StandingProfile}) is read this way. Never a superseded version, a
   * forgotten memory or a memory of another scope.
   *
   * <p>The work must be bounded by what is listed, not by the scope's size: a scope of many
   * memories of other types (captured observations, mostly) must not be read to find the few of
   * these types. The default reads every memory through {@link #export} and so is correct but costs
   * a full export each call, and throws {@link UnsupportedOperationException} where {@code export}
   * does; a store that can filter by type where its data lives overrides it.
   *
   * @param types the types listed, in the order they are listed; at least one, none twice
   * @param limit the most memories returned, at least 1
   * @throws NullPointerException if {@code scope}, {@code types} or a type is null
   * @throws IllegalArgumentException if {@code types} is empty or names a type twice, or {@code
   *     limit} is below 1
   */
  default TypeListing listByType(Scope scope, List<MemoryType> types, int limit) {
    Objects.requireNonNull(scope, "scope");
    List<MemoryType> listed = TypeListing.checkTypes(types);
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
    List<Memory> found = new ArrayList<>();
    export(
        m -> {
          if (m.latest() && m.scope().equals(scope) && listed.contains(m.type())) {
            found.add(m);
          }
        });
    found.sort(TypeListing.order(listed));
    return new TypeListing(found.subList(0, Math.min(limit, found.size())), found.size());
  }

  /**
   * Hands every memory this store holds that can be read to {@code sink}, in no particular order:
   * every scope, every version (latest or not), never a forgotten one. A record that cannot be read
   * (a damaged store) is skipped and counted, not thrown, so that a damaged store can still be
   * exported; an exception from {@code sink} stops the export and is thrown as is.
   *
   * <p>The default throws {@link UnsupportedOperationException}: a store that cannot list what it
   * holds cannot export it.
   *
   * @return how many were exported and how many were skipped as unreadable
   * @throws UnsupportedOperationException if this store cannot list its memories
   */
  default ExportResult export(Consumer<? super Memory> sink) {
    throw new UnsupportedOperationException(
        getClass().getName() + " cannot list its memories, so it cannot export them");
  }

  /**
   * {@link #export} with the vector this store holds for each memory, in the attached space, so
   * that a restore into a store of the same space needs no embedding: a memory stored with a zero
   * embedding comes with a zero vector. The default hands every memory of {@link #export} with an
   * empty vector, for a store that keeps no vectors it can read back; a restore then embeds them.
   *
   * @return how many were exported and how many were skipped as unreadable
   * @throws UnsupportedOperationException if this store cannot list its memories
   */
  default ExportResult exportWithVectors(
      BiConsumer<? super Memory, ? super Optional<Embedding>> sink) {
    Objects.requireNonNull(sink, "sink");
    return export(m -> sink.accept(m, Optional.empty()));
  }

  /**
   * Hands every readable forget record this store keeps to {@code sink}, of every scope, in no
   * particular order: the audit half of an {@link #export}, so that a backup keeps who forgot what
   * and when, also in a scope with no memory left. An unreadable record is skipped and counted as
   * {@link #export} does; an exception from {@code sink} stops it and is thrown as is.
   *
   * <p>The default throws {@link UnsupportedOperationException}, as {@link #export} does: a store
   * that cannot list its records cannot export them.
   *
   * @return how many records were handed to {@code sink}
   * @throws UnsupportedOperationException if this store cannot list its forget records
   */
  default long exportForgotten(Consumer<? super ForgetRecord> sink) {
    throw new UnsupportedOperationException(
        getClass().getName() + " cannot list its forget records, so it cannot export them");
  }

  /**
   * How many stored records this store has found unreadable (damaged) since it opened, each counted
   * once: records that reads of several memories and {@link #export} skip, and whose {@link #get}
   * throws {@link dev.memhook.api.MemoryStoreException}. A number to monitor: 0 in a healthy store;
   * it only grows while the store is open (rewriting or deleting a damaged record does not take it
   * back).
   *
   * <p>The default returns 0: a store that finds no damage, or cannot tell, reports none.
   */
  default long unreadableRecords() {
    return 0;
  }

  /**
   * Makes every write that has returned durable now, for a store whose policy defers it (a group
   * commit); a store durable when each write returns has nothing to do, which is the default.
   *
   * @throws dev.memhook.api.MemoryStoreException if the writes could not be made durable (they are
   *     still visible; retry)
   */
  default void flush() {}

  /**
   * Completes now the erasure of every memory deleted before the call: when it returns, no file of
   * the store holds anything derived from their text. A store that erases everything before {@link
   * #delete} returns has nothing to do, which is the default.
   *
   * @throws dev.memhook.api.MemoryStoreException if it failed (the deleted memories stay deleted;
   *     retry)
   */
  default void purge() {}

  /**
   * Rewrites what the store keeps so that searches are as fast as it can make them, for after a
   * bulk import; it may take minutes on a large store, and writes may wait meanwhile. A store with
   * nothing to merge does nothing, which is the default. No memory is changed.
   *
   * @throws dev.memhook.api.MemoryStoreException if it failed (no memory is lost)
   */
  default void compact() {}

  /** Flushes and releases resources. Idempotent. */
  @Override
  void close();
}
