package dev.memhook.api;

import java.util.List;
import java.util.function.Consumer;

/**
 * The administration of a {@link MemoryService}, from {@link MemoryService#maintenance()}: bulk
 * import, export and restore, counts, damaged records, the forget audit and compaction. What a
 * host's admin tools and the {@code memhook} command need, and a chat host rarely does.
 *
 * <p>Thread-safe, like the service it belongs to, and valid as long as the service is open: after
 * the service closes, every method throws {@link IllegalStateException}. Methods reject null
 * arguments with a {@link NullPointerException}.
 */
public interface MemoryMaintenance {

  /**
   * Imports many memories: each draft is sanitized and completed as by {@link
   * MemoryService#remember}, the drafts are embedded in batches and stored one batch per store
   * write, and {@code progress} is told after each batch. Much faster than one {@code remember} per
   * draft: the model embeds a batch at a fraction of the cost per text, and a durable store commits
   * once per batch. The calling thread embeds the next batch while a thread of the import stores
   * the previous one; a batch is stored only after the one before it was reported, so at most two
   * batches are held at a time.
   *
   * <p>The service checks and sanitizes all drafts before it stores anything: a draft that {@code
   * remember} would reject fails the call with an {@link IllegalArgumentException} naming its index
   * ({@code drafts[17]}), and nothing is stored. Once storing has begun, each batch is acknowledged
   * when {@code progress} hears of it; if the store or embedder then fails (a {@link
   * MemoryException}, whose message names the batch) or {@code progress} throws, the batches
   * reported stay stored and the rest are not: a batch already stored when a later one fails is
   * reported before the failure is thrown.
   *
   * <p>If the calling thread is interrupted, the import stops: the batch being stored is finished
   * and reported (a store write is never cut off halfway), nothing after it is stored, and a {@link
   * MemoryException} is thrown with the thread's interrupt flag set.
   *
   * @param drafts the memories to store, in order
   * @param progress told after each stored batch, on the calling thread
   * @return the stored memories, in the order of {@code drafts}
   * @throws NullPointerException if {@code drafts}, one of its drafts or {@code progress} is null
   * @throws IllegalArgumentException if a draft is rejected
   * @throws MemoryException if the store or embedder fails
   */
  List<Memory> rememberAll(List<MemoryDraft> drafts, Consumer<ImportProgress> progress);

  /** {@link #rememberAll(List, Consumer)} without progress reports. */
  default List<Memory> rememberAll(List<MemoryDraft> drafts) {
    return rememberAll(drafts, p -> {});
  }

  /**
   * Puts back what {@link #export} and {@link #exportForgotten} handed out (from a backup, or
   * another store): each memory keeps its id, version, supersedes link, latest flag and times, and
   * each forget record is kept as the audit of a memory this store does not hold. Unlike {@link
   * #rememberAll}, nothing is derived or renumbered, so an export restored into an empty store
   * exports again equal. Every text is sanitized as a draft's is, so a memory that holds what this
   * service's redaction removes comes back without it. Memories are embedded in batches and stored
   * one batch per store write, as by {@link #rememberAll}; {@code progress} is told after each
   * batch of memories and after the forget records, on the calling thread.
   *
   * <p>A memory whose id the store holds is replaced. A forget record whose id the store holds as a
   * memory is skipped (restoring it would forget that memory). Not atomic: if it fails, the batches
   * reported stay stored. Meant for a store nobody else writes meanwhile.
   *
   * @param memories memories as exported, any versions of any scopes
   * @param forgotten forget records as exported
   * @param progress told after each stored batch; its total counts memories and forget records
   * @return how many forget records were skipped because their id is held as a memory
   * @throws NullPointerException if an argument or an element is null
   * @throws IllegalArgumentException naming the index ({@code memories[3]}), if two memories or two
   *     forget records share an id, a forget record names a memory being restored, or a memory's
   *     content is empty once sanitized; nothing is stored then
   * @throws IllegalStateException if the service is closed or read-only
   * @throws MemoryException if the store or the embedder fails
   */
  int restore(
      List<Memory> memories, List<ForgetRecord> forgotten, Consumer<ImportProgress> progress);

  /**
   * {@link #restore} of memories that {@link #exportWithVectors} handed out, reusing their vectors:
   * a memory whose vector is of this service's model and dimension, and whose embedded text this
   * service's redaction left unchanged, is stored with that vector and not embedded again; every
   * other one is embedded as {@link #restore} does. Everything else, the checks and the progress
   * reports included, is as {@link #restore}.
   *
   * <p>The default restores every memory without its vector (all embedded again), for a maintenance
   * view that cannot take vectors.
   *
   * @return the forget records skipped and how many vectors were reused
   * @throws NullPointerException if an argument or an element is null
   * @throws IllegalArgumentException as {@link #restore}; nothing is stored then
   * @throws IllegalStateException if the service is closed or read-only
   * @throws MemoryException if the store or the embedder fails
   */
  default RestoreResult restoreExported(
      List<ExportedMemory> memories,
      List<ForgetRecord> forgotten,
      Consumer<ImportProgress> progress) {
    List<Memory> plain = memories.stream().map(ExportedMemory::memory).toList();
    int skipped = restore(plain, forgotten, progress);
    return new RestoreResult(skipped, 0, plain.size());
  }

  /**
   * Hands every readable memory to {@code sink} (every scope, every version, never a forgotten one)
   * and says how many were exported and how many damaged records were skipped; see {@link
   * dev.memhook.api.spi.MemoryStore#export}. With a store opened read-only, the way to rescue a
   * damaged index.
   *
   * @throws UnsupportedOperationException if the store cannot list its memories
   */
  ExportResult export(Consumer<? super Memory> sink);

  /**
   * {@link #export} with the vector the store holds for each memory, named by this service's model,
   * so that {@link #restoreExported} into a store of the same embedding space needs no embedding. A
   * memory stored with a zero embedding comes with a zero vector. A store that cannot give its
   * vectors ({@link dev.memhook.api.spi.MemoryStore#exportWithVectors}'s default) hands every
   * memory without one; so does this default.
   *
   * @throws UnsupportedOperationException if the store cannot list its memories
   */
  default ExportResult exportWithVectors(Consumer<? super ExportedMemory> sink) {
    return export(m -> sink.accept(ExportedMemory.withoutVector(m)));
  }

  /**
   * Hands every readable forget record to {@code sink}, of every scope, in no particular order:
   * with {@link #export}, everything a backup needs; see {@link
   * dev.memhook.api.spi.MemoryStore#exportForgotten}.
   *
   * @return how many records were handed over
   * @throws UnsupportedOperationException if the store cannot list its forget records
   */
  long exportForgotten(Consumer<? super ForgetRecord> sink);

  /** The number of latest memories in {@code scope}. */
  long count(Scope scope);

  /**
   * How many stored records the store has found unreadable (damaged) since this service opened it,
   * each counted once: a number to monitor, 0 in a healthy store, that only grows. One damaged
   * record costs that memory only: {@link MemoryService#recall} and {@link #export} skip it and
   * {@link MemoryService#get} of it throws {@link MemoryStoreException}. To rescue what is
   * readable, open the directory read-only and {@link #export} it; see {@link
   * dev.memhook.api.spi.MemoryStore#unreadableRecords}.
   *
   * @throws IllegalStateException if the service is closed
   */
  long unreadableRecords();

  /**
   * Completes now what every forget so far left to do in the background: when it returns, no file
   * of the store holds anything of a forgotten memory, not even the words of its text in an index
   * or its vector (see {@link dev.memhook.api.spi.MemoryStore#purge}). When {@link
   * MemoryService#forget(MemoryId, String, String, ForgetMode) forget} returns, the memory can no
   * longer be read from any file; the embedded Lucene store rewrites the segments that held it
   * within its purge delay (ten minutes by default), and this does it now, for a host that must
   * wait for it (an erasure request). Recall and writes go on meanwhile.
   *
   * @throws IllegalStateException if the service is closed or read-only
   * @throws MemoryStoreException if the rewrite failed (the forgotten memories stay unreadable;
   *     retry)
   */
  void purge();

  /**
   * Merges the store's files for the fastest search, after a bulk import ({@link #rememberAll}):
   * see {@link dev.memhook.api.spi.MemoryStore#compact}. For the embedded Lucene store it merges
   * the index into one segment, which needs free disk space up to the index's size while it runs;
   * recall goes on meanwhile, writes wait.
   *
   * @throws IllegalStateException if the service is closed or read-only
   * @throws MemoryStoreException if merging failed (no memory is lost)
   */
  void compact();

  /**
   * The observations that {@link MemoryService#forget(MemoryId, String, String, ForgetMode) forget}
   * with {@link ForgetMode#WITH_SOURCES} would remove with this memory: those it and its older
   * versions were consolidated from that are still stored in its scope, the newest version's first.
   * Empty for an unknown id and for a memory that names no sources (an observation, a memory the
   * host remembered). A read: what a forget removes is decided again when it runs, so a
   * consolidation or a forget in between may change it.
   *
   * @throws NullPointerException if {@code id} is null
   */
  List<MemoryId> sources(MemoryId id);

  /** The audit records of memories forgotten in {@code scope}, oldest first. */
  List<ForgetRecord> forgotten(Scope scope);
}
