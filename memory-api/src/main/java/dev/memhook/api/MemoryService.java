package dev.memhook.api;

import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.ListenerStats;
import java.time.Duration;
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
   * Imports many memories: each draft is sanitized and completed as by {@link #remember}, the
   * drafts are embedded in batches and stored one batch per store write, and {@code progress} is
   * told after each batch. Much faster than one {@code remember} per draft: the model embeds a
   * batch at a fraction of the cost per text, and a durable store commits once per batch.
   *
   * <p>Memhook's service checks and sanitizes all drafts before it stores anything: a draft that
   * {@code remember} would reject fails the call with an {@link IllegalArgumentException} naming
   * its index ({@code drafts[17]}), and nothing is stored. Once storing has begun, each batch is
   * acknowledged when {@code progress} hears of it; if the store or embedder then fails (a {@link
   * MemoryException}) or {@code progress} throws, the batches reported stay stored and the rest are
   * not. This default implementation, for other services, calls {@code remember} once per draft and
   * reports after each, so a rejected draft stops it with the drafts before it stored.
   *
   * @param drafts the memories to store, in order
   * @param progress told after each stored batch, on the calling thread
   * @return the stored memories, in the order of {@code drafts}
   * @throws NullPointerException if {@code drafts}, one of its drafts or {@code progress} is null
   * @throws IllegalArgumentException if a draft is rejected
   * @throws MemoryException if the store or embedder fails
   */
  default List<Memory> rememberAll(List<MemoryDraft> drafts, Consumer<ImportProgress> progress) {
    java.util.Objects.requireNonNull(progress, "progress");
    List<MemoryDraft> all = List.copyOf(drafts);
    long start = System.nanoTime();
    java.util.List<Memory> out = new java.util.ArrayList<>(all.size());
    for (MemoryDraft d : all) {
      out.add(remember(d));
      progress.accept(
          new ImportProgress(out.size(), all.size(), Duration.ofNanos(System.nanoTime() - start)));
    }
    return List.copyOf(out);
  }

  /** {@link #rememberAll(List, Consumer)} without progress reports. */
  default List<Memory> rememberAll(List<MemoryDraft> drafts) {
    return rememberAll(drafts, p -> {});
  }

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
   *     counted in {@link #unreadableRecords()}
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
   * #sources(MemoryId)} says beforehand which they are. Forgetting a captured observation, named or
   * as a source, also clears the context of the captured turn that quoted it, the quotes in its
   * session's record (first prompt, summary, last turn) and the capture journal's processed
   * records, so its text is left nowhere. A consolidation made from more sources than a memory can
   * name keeps the newest names; the older observations are not found and stay.
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
   * The observations that {@link #forget(MemoryId, String, String, ForgetMode) forget} with {@link
   * ForgetMode#WITH_SOURCES} would remove with this memory: those it and its older versions were
   * consolidated from that are still stored in its scope, the newest version's first. Empty for an
   * unknown id and for a memory that names no sources (an observation, a memory the host
   * remembered). A read: what a forget removes is decided again when it runs, so a consolidation or
   * a forget in between may change it.
   *
   * @throws NullPointerException if {@code id} is null
   */
  List<MemoryId> sources(MemoryId id);

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
   * Hands every readable forget record to {@code sink}, of every scope, in no particular order:
   * with {@link #export}, everything a backup needs; see {@link
   * dev.memhook.api.spi.MemoryStore#exportForgotten}.
   *
   * @return how many records were handed over
   * @throws UnsupportedOperationException if the store cannot list its forget records
   */
  long exportForgotten(Consumer<? super ForgetRecord> sink);

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
   * Captures a lifecycle event: validates it, sanitizes every string of it, writes it to the
   * capture journal and returns; a background pipeline compresses it, stores it as an observation
   * ({@link MemoryType#OBSERVATION}, findable by every signal) and keeps its session's record. It
   * never waits for the store or the embedder, and never throws for a failure of the pipeline:
   * those are counted in {@link #captureStats()} and logged.
   *
   * <p>An event delivered twice (the same {@code eventId}, or, without one, the same session, hook
   * type, timestamp and content) is stored once. An unknown session is created by an event that
   * names its project and cwd.
   *
   * @return whether the event was accepted, recognised as a duplicate, or shed (a full queue, or a
   *     capture journal that could not take it)
   * @throws IllegalArgumentException naming the field, if the event is invalid (a required field
   *     missing or blank, a field over its limit, data its hook type requires missing, an unknown
   *     session without project and cwd); nothing of it is stored
   * @throws IllegalStateException if the service is closed or read-only
   */
  ObserveResult observe(LifecycleEvent event);

  /**
   * {@link #observe(LifecycleEvent)} for an event as JSON, in the shape a coding agent's hook
   * script posts: {@code {"hookType": "PostToolUse", "sessionId": "…", "project": "…", "cwd": "…",
   * "timestamp": "2026-11-30T10:15:00Z" or epoch milliseconds, "eventId": "…", "data": {"toolName":
   * "…", "input": …, "output": …, "prompt": "…", "error": "…", "agentName": "…", "message": "…",
   * "speaker": "…"}}}. Input and output may be any JSON value; an object or array is kept as its
   * JSON text. Unknown fields are ignored.
   *
   * @throws IllegalArgumentException if the text is not one JSON object, or names a field that is
   *     missing or malformed (the message names it); nothing of it is stored
   */
  ObserveResult observeJson(String json);

  /**
   * Waits until every event accepted before this call has been processed, at most {@code timeout},
   * and forces the capture journal to the disk.
   *
   * @return whether everything accepted before the call was processed in time; true at once for a
   *     service that captures nothing (read-only, or built with {@code noCapture()})
   * @throws IllegalStateException if the service is closed
   */
  boolean flush(Duration timeout);

  /** The capture pipeline's counters since this service was built. */
  CaptureStats captureStats();

  /** The captured session with this id, as processed so far, or empty if none. */
  Optional<Session> session(String sessionId);

  /** Every captured session, most recent activity first. */
  List<Session> sessions();

  /**
   * Consolidates a session's observations into durable memories now, whatever its status: near
   * duplicates of memories already held become new versions of them. Waits for the events accepted
   * so far to be processed first (see {@link #flush}). The session keeps its status.
   *
   * <p>A host rarely needs this: a session is consolidated when it ends, by its {@link
   * LifecycleEventType#SESSION_END} event, by the idle timeout, or when the service closes (see
   * {@link #close()}), so a host that runs one conversation per process gets its memories by
   * closing the service. Call it to consolidate a session that goes on, or one captured with {@code
   * CaptureOptions.Builder.consolidateOnDemandOnly()}.
   *
   * @return how many memories were written or updated
   * @throws IllegalArgumentException if no session has this id
   * @throws IllegalStateException if the service is closed or read-only
   */
  int consolidate(String sessionId);

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
   * The most recent injection receipts of all this service's hooks, latest versions, oldest first:
   * at most {@value #MAX_RECENT_RECEIPTS}.
   */
  List<InjectionReceipt> recentReceipts();

  /** The most receipts {@link #recentReceipts()} keeps. */
  int MAX_RECENT_RECEIPTS = 1024;

  /** What happened to the events meant for this service's listeners. */
  ListenerStats listenerStats();

  /** The number of latest memories in {@code scope}. */
  long count(Scope scope);

  /**
   * How many stored records the store has found unreadable (damaged) since this service opened it,
   * each counted once: a number to monitor, 0 in a healthy store, that only grows. One damaged
   * record costs that memory only: {@link #recall} and {@link #export} skip it and {@link #get} of
   * it throws {@link MemoryStoreException}. To rescue what is readable, open the directory
   * read-only and {@link #export} it; see {@link
   * dev.memhook.api.spi.MemoryStore#unreadableRecords}.
   *
   * @throws IllegalStateException if the service is closed
   */
  long unreadableRecords();

  /**
   * Merges the store's files for the fastest search, after a bulk import ({@link #rememberAll}):
   * see {@link dev.memhook.api.spi.MemoryStore#compact}. For the embedded Lucene store it merges
   * the index into one segment, which needs free disk space up to the index's size while it runs
   * and makes each later forget rewrite the whole index; recall goes on meanwhile, writes wait. The
   * default does nothing.
   *
   * @throws IllegalStateException if the service is closed or read-only
   * @throws MemoryStoreException if merging failed (no memory is lost)
   */
  default void compact() {}

  /**
   * Detaches all hooks, ends the captured sessions this service holds open, stops capture and
   * releases what the service owns. Idempotent; never throws: what fails is logged and the rest
   * still closes. Safe to call from any thread, once the host's other calls on the service are done
   * (a call racing with close may fail with {@link IllegalStateException}).
   *
   * <p>Each session an event was captured of in this lifetime (a hooked conversation, an observed
   * session without its {@link LifecycleEventType#SESSION_END} yet) and still active is ended as
   * {@link SessionStatus#CLOSED} and consolidated, as a session end would be, so a host that runs
   * one conversation per process gets its durable memories without calling {@link #consolidate}.
   * Sessions another lifetime left open are left to the idle timeout. {@code
   * CaptureOptions.Builder.keepSessionsOpenOnClose()} turns this off, for a host whose every
   * lifetime is one step of a longer session (a coding agent's hook command).
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
