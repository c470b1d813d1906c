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
   * once per batch.
   *
   * <p>The service checks and sanitizes all drafts before it stores anything: a draft that {@code
   * remember} would reject fails the call with an {@link IllegalArgumentException} naming its index
   * ({@code drafts[17]}), and nothing is stored. Once storing has begun, each batch is acknowledged
   * when {@code progress} hears of it; if the store or embedder then fails (a {@link
   * MemoryException}) or {@code progress} throws, the batches reported stay stored and the rest are
   * not.
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
   * Hands every readable memory to {@code sink} (every scope, every version, never a forgotten one)
   * and says how many were exported and how many damaged records were skipped; see {@link
   * dev.memhook.api.spi.MemoryStore#export}. With a store opened read-only, the way to rescue a
   * damaged index.
   *
   * @throws UnsupportedOperationException if the store cannot list its memories
   */
  ExportResult export(Consumer<? super Memory> sink);

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
