package dev.memhook.api;

import dev.memhook.api.chat.ChatService;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Long-term memory for one application: remember, recall, forget, and hook into chat services so
 * each turn is enriched with the memories that matter.
 *
 * <p>Obtain one from {@code dev.memhook.core.Memhook.builder()}. Implementations are thread-safe:
 * one instance serves every thread and every chat service of the application. Methods reject null
 * arguments with a {@link NullPointerException}. Run-time failures of the store or the embedder
 * surface as {@link MemoryException} subtypes from the direct methods ({@code remember}, {@code
 * recall}, …); inside a hook they never reach the host's turn.
 *
 * <p>Lifecycle: {@link #close()} detaches every hook, stops background work and closes the store
 * and embedder the service owns; it is idempotent. After close every other method throws {@link
 * IllegalStateException}.
 */
public interface MemoryService extends AutoCloseable {

  /**
   * Sanitizes, completes (title and summary when empty), embeds and durably stores a new memory.
   * When this returns, the memory is acknowledged: it survives a restart of a durable store.
   *
   * <p>Every string of the draft is sanitized before anything durable or any index sees it; the
   * returned memory is exactly what a later {@link #get} reads.
   *
   * @return the stored memory, with its new id, version 1 and timestamps
   * @throws IllegalArgumentException if the content is empty once sanitized (the draft itself
   *     rejects a field over its limit, see {@link MemoryDraft})
   * @throws MemoryException if the store or embedder fails; nothing is half-written
   */
  Memory remember(MemoryDraft draft);

  /**
   * Writes a new version of a memory: the new version gets a new id, {@code version + 1} and {@code
   * supersedes = id}; the old version stays readable by id but is no longer latest, so it is never
   * recalled.
   *
   * @throws IllegalArgumentException if {@code id} is unknown, not the latest version, or the
   *     draft's scope differs from the memory's
   */
  Memory update(MemoryId id, MemoryDraft draft);

  /**
   * The memory with this id, latest or not, in any scope, or empty if it is unknown or forgotten.
   * For tenant code, use {@link #scoped(Scope)}.
   */
  Optional<Memory> get(MemoryId id);

  /**
   * Recalls the latest memories of the query's scope that matter for its text, best first, at most
   * {@code query.limit()}. An empty result means nothing was relevant enough.
   */
  RecallResult recall(RecallQuery query);

  /**
   * Forgets a memory and every older version it supersedes: removed from every index at once, never
   * recalled, injected or fetched again. Leaves a {@link ForgetRecord} per removed version.
   *
   * <p>The actor and reason are sanitized like any stored text. Forgetting erases: what a durable
   * store guarantees about the forgotten text on disk is stated on {@link
   * dev.memhook.api.spi.MemoryStore#delete}.
   *
   * @return whether anything was forgotten
   * @throws IllegalArgumentException if the actor is blank, or the actor or reason is over its
   *     limit on {@link ForgetRecord}
   */
  boolean forget(MemoryId id, String actor, String reason);

  /**
   * {@link #forget(MemoryId, String, String)} with actor {@code "host"} and reason {@code
   * "unspecified"}.
   */
  default boolean forget(MemoryId id) {
    return forget(id, "host", "unspecified");
  }

  /** The audit records of memories forgotten in {@code scope}, oldest first. */
  List<ForgetRecord> forgotten(Scope scope);

  /**
   * A view of this service confined to {@code scope}: its get, update, forget and recall cannot
   * reach a memory of another scope. The methods above take a bare id and act across scopes; hand
   * tenant code a scoped view instead. See {@link ScopedMemory}.
   */
  default ScopedMemory scoped(Scope scope) {
    return new ScopedView(this, scope);
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
   * Hooks this service into a chat service with {@link HookOptions#defaults()}.
   *
   * @see #hookInto(ChatService, HookOptions)
   */
  default MemoryHook hookInto(ChatService chat) {
    return hookInto(chat, HookOptions.defaults());
  }

  /**
   * Creates a fresh {@link MemoryHook} on {@code chat}: registers the {@code get_memory} tool and
   * the {@code beforeSendLoop} and {@code afterSend} callbacks, as the hook contract in the project
   * design states. Close the hook to detach.
   *
   * @throws IllegalStateException if this service already has a live hook on {@code chat}, or the
   *     chat service already has a tool named {@code get_memory}
   */
  MemoryHook hookInto(ChatService chat, HookOptions options);

  /** Detaches all hooks and releases what the service owns. Idempotent. */
  @Override
  void close();
}
