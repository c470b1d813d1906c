package dev.memhook.api;

import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.MemoryCapture;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.trace.MemoryTrace;
import java.util.List;
import java.util.Optional;

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
 * <p>Lifecycle: {@link #close()} detaches every hook, ends the captured sessions the service holds
 * open, stops background work and closes the store and embedder the service owns; it is idempotent.
 * After close every other method throws {@link IllegalStateException}.
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
   *
   * @throws MemoryStoreException naming the id and what to do if the memory's stored record is
   *     unreadable (damaged); the other memories stay readable, {@link #recall} skips it, and it is
   *     counted in {@link MemoryMaintenance#unreadableRecords()}
   */
  Optional<Memory> get(MemoryId id);

  /**
   * Recalls the latest memories of the query's scope that matter for its text, best first, at most
   * {@code query.limit()}. An empty result means nothing was relevant enough.
   */
  RecallResult recall(RecallQuery query);

  /**
   * The standing memories of {@code scope} within {@code maxChars}: the latest preferences,
   * decisions, designs, conventions, workflows and facts, in the order and under the budget {@link
   * StandingProfile} states, with how many were left out. What a session should know at its start,
   * whatever it asks first: a hook offers it with its first injection ({@link
   * HookOptions#standingChars()}); a host that builds its own prompt puts these summaries in it.
   *
   * <p>Reads the store only as far as the profile needs: memories of other types (captured
   * observations) are filtered out where the data lives, see {@link
   * dev.memhook.api.spi.MemoryStore#listByType}. Thread-safe, like every method.
   *
   * @param maxChars the budget in characters of what the model reads, 1 to {@link
   *     StandingProfile#MAX_CHARS}; {@link StandingProfile#DEFAULT_MAX_CHARS} is the hook's default
   * @throws NullPointerException if {@code scope} is null
   * @throws IllegalArgumentException if {@code maxChars} is out of range
   * @throws IllegalStateException if the service is closed
   * @throws MemoryException if the store fails
   */
  StandingProfile standing(Scope scope, int maxChars);

  /**
   * Forgets a memory, every older version it supersedes and, with {@link ForgetMode#WITH_SOURCES},
   * the observations they were consolidated from: removed from every index at once, never recalled,
   * injected or fetched again. Leaves a {@link ForgetRecord} per removed id, each listing every id
   * removed ({@link ForgetRecord#removed()}).
   *
   * <p>A memory that capture's consolidation made names the observations it was made from; each new
   * version keeps the names of the version it supersedes. With {@code WITH_SOURCES} the forget
   * removes those still stored in the memory's scope, never another scope's, and an observation
   * another memory was also made from goes too: privacy wins, and that other memory stays. {@link
   * MemoryMaintenance#sources(MemoryId)} says beforehand which they are. Forgetting a captured
   * observation, named or as a source, also clears the context of the captured turn that quoted it,
   * the quotes in its session's record (first prompt, summary, last turn) and the capture journal's
   * processed records, so its text is left nowhere. A consolidation made from more sources than a
   * memory can name keeps the newest names; the older observations are not found and stay.
   *
   * <p>The memory, its versions and its sources are removed in one store write where the store can
   * ({@link dev.memhook.api.spi.MemoryStore#deleteAll}); a forget of more than {@link
   * ForgetRecord#MAX_REMOVED} ids is written in parts, the memory named last, so that asking again
   * after a failure finds what is left. The actor and reason are sanitized like any stored text.
   * Forgetting erases: what a durable store guarantees about the forgotten text on disk is stated
   * on {@link dev.memhook.api.spi.MemoryStore#delete}.
   *
   * <p>Forgets and updates run one at a time (one writer), so a forget never races the version it
   * follows back, nor a consolidation adding a version of the memory it removes.
   *
   * @param id the memory to forget, latest or not: a forget follows versions back, never forward
   * @param mode whether its sources go too
   * @return the audit records of this forget, one per removed id, the memory named first, then its
   *     older versions, then its sources; empty if there was nothing to forget (an unknown or
   *     forgotten id)
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the actor is blank, or the actor or reason is over its
   *     limit on {@link ForgetRecord}
   * @throws MemoryException if the store fails; records written before the failure stay
   */
  List<ForgetRecord> forget(MemoryId id, String actor, String reason, ForgetMode mode);

  /**
   * {@link #forget(MemoryId, String, String, ForgetMode)} with {@link ForgetMode#WITH_SOURCES}: the
   * memory, its older versions and the observations they were made from.
   *
   * @return whether anything was forgotten
   * @throws IllegalArgumentException if the actor is blank, or the actor or reason is over its
   *     limit on {@link ForgetRecord}
   */
  default boolean forget(MemoryId id, String actor, String reason) {
    return !forget(id, actor, reason, ForgetMode.WITH_SOURCES).isEmpty();
  }

  /**
   * {@link #forget(MemoryId, String, String)} with actor {@code "host"} and reason {@code
   * "unspecified"}.
   */
  default boolean forget(MemoryId id) {
    return forget(id, "host", "unspecified");
  }

  /**
   * A view of this service confined to {@code scope}: its get, update, forget and recall cannot
   * reach a memory of another scope. The methods above take a bare id and act across scopes; hand
   * tenant code a scoped view instead. See {@link ScopedMemory}.
   */
  default ScopedMemory scoped(Scope scope) {
    return new ScopedView(this, scope);
  }

  /**
   * Hooks this service into a chat service with {@link HookOptions#defaults()}.
   *
   * @see #hookInto(ChatService, HookOptions)
   */
  default MemoryHook hookInto(ChatService chat) {
    return hookInto(chat, HookOptions.defaults());
  }

  /**
   * Creates a fresh {@link MemoryHook} on {@code chat}: registers the memory tool (named {@link
   * HookOptions#toolName()}, {@code get_memory} by default) and the {@code beforeSendLoop} and
   * {@code afterSend} callbacks, as {@link ChatService} describes. If the conversation is already
   * under way, the hook starts from its latest user message. Close the hook to detach.
   *
   * @throws IllegalStateException if this service already has a live hook on {@code chat}, or the
   *     chat service already has a tool of that name (another service's hook, say: give the second
   *     hook its own {@link HookOptions.Builder#toolName(String) tool name})
   */
  MemoryHook hookInto(ChatService chat, HookOptions options);

  /**
   * Capture: what a coding agent's lifecycle events and hooked conversations leave, and the
   * sessions they form. On a service that captures nothing (opened read-only, or built with {@code
   * noCapture()}) the view is empty: it holds no sessions, its counters stay zero, and it refuses
   * to observe or consolidate.
   */
  MemoryCapture capture();

  /**
   * Administration: bulk import, export and restore, counts, damage, the forget audit and
   * compaction.
   */
  MemoryMaintenance maintenance();

  /** What the hooks did: their recent injection receipts and the listeners' delivery counters. */
  MemoryTrace trace();

  /**
   * Detaches all hooks, ends the captured sessions this service holds open, stops capture and
   * releases what the service owns. Idempotent; never throws: what fails is logged and the rest
   * still closes. Safe to call from any thread, once the host's other calls on the service are done
   * (a call racing with close may fail with {@link IllegalStateException}).
   *
   * <p>Each session an event was captured of in this lifetime (a hooked conversation, an observed
   * session without its {@link LifecycleEventType#SESSION_END} yet) and still active is ended as
   * {@link SessionStatus#CLOSED} and consolidated, as a session end would be, so a host that runs
   * one conversation per process gets its durable memories without calling {@link
   * dev.memhook.api.capture.MemoryCapture#consolidate}. Sessions another lifetime left open are
   * left to the idle timeout. {@code CaptureOptions.Builder.keepSessionsOpenOnClose()} turns this
   * off, for a host whose every lifetime is one step of a longer session (a coding agent's hook
   * command).
   *
   * <p>Close waits at most {@code CaptureOptions.closeTimeout()} for capture to store what it
   * accepted and end those sessions; then it cuts capture short, and what is left stays in the
   * capture journal, journaled before the wait began: the next open on the same journal finishes
   * it, ending each session once, also after a crash during close. A service without a journal
   * directory loses what is left.
   */
  @Override
  void close();
}
