package dev.memhook.api.spi;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import java.util.List;
import java.util.Optional;

/**
 * Where capture keeps its session records: per captured session, one record (a string whose format
 * is memory-core's, opaque to the store) and the ids of the session's stored observations in the
 * order they were appended. A store keeps strings; it never reads a record.
 *
 * <p>Memory-core keeps them in files beside the capture journal by default (in memory when there is
 * no journal directory); a host sets another with {@code Memhook.builder().sessionStore(..)}, such
 * as the PostgreSQL store's, which several service instances share.
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li><b>Threads</b>: thread-safe; any method may be called from any thread before {@link
 *       #close()}. Capture's worker writes (one thread at a time per service), and {@code
 *       MemoryCapture.session} and {@code sessions} read on the host's threads.
 *   <li><b>Records</b>: {@link #save} replaces a session's record as one write: a later {@link
 *       #load} or {@link #loadAll} returns the old record or the new one, never a mix, also after a
 *       crash. What a record says is the caller's business; a store returns the string it was
 *       given, character for character.
 *   <li><b>Observation ids</b> only grow: {@link #appendObservations} adds ids after those already
 *       listed, and appending an id the session already lists again changes nothing, so a caller
 *       may retry an append whose outcome it does not know.
 *   <li><b>Durability</b>: a write is durable by the store's stated policy when it returns, and
 *       visible to every later read of this store (and, for a {@linkplain #shared() shared} store,
 *       of every instance over the same data). A record may lag the memory store after a crash:
 *       capture's journal replays what it had not finished, and the record catches up.
 *   <li><b>Nulls</b>: every argument is required ({@link NullPointerException}); no method returns
 *       null.
 *   <li><b>Failures</b>: a failure to read or write is a {@link
 *       dev.memhook.api.MemoryStoreException} and writes nothing (or, for an append, some of the
 *       ids, which a retry completes). A string the store cannot hold faithfully (an unpaired
 *       UTF-16 surrogate, or U+0000 where the store cannot keep it) is refused with {@link
 *       IllegalArgumentException} naming the session, before anything of that call is written; a
 *       refusal is final and is not retried. A store failure never breaks the host's turn: capture
 *       logs it (rate-limited), counts it in {@code CaptureStats.sessionStoreFailures}, keeps its
 *       sessions in memory and writes what it could not with its next batch.
 *   <li><b>Lifecycle</b>: the service that was given the store closes it when it closes, after
 *       capture's last write; {@link #close()} is idempotent, and afterwards every other method but
 *       {@link #shared()} throws {@link IllegalStateException}.
 * </ul>
 */
public interface SessionStore extends AutoCloseable {

  /**
   * Whether other service instances may write the same records while this one runs (a store in a
   * database several JVMs share), rather than this service alone. Constant for the store's
   * lifetime; callable after {@link #close()}.
   *
   * <p>When false, capture reads the records once, when the service opens, and trusts what it holds
   * from then on. When true, it also reads the store when a session is listed or looked up, before
   * it processes events of a session (so a conversation that moved from another instance continues
   * with its counts and its last turn), and before it ends a session as idle (so it does not end
   * one that another instance is still capturing).
   */
  boolean shared();

  /** Every record, in no particular order; each record names its session itself. */
  List<String> loadAll();

  /** The record of {@code sessionId}, or empty if it has none. */
  Optional<String> load(String sessionId);

  /**
   * Stores {@code record} as the record of {@code sessionId}, replacing any it had, in one write.
   *
   * @param scope the session's scope, which a store may keep beside the record (to erase a tenant's
   *     sessions, say); it never changes for a session
   * @throws IllegalArgumentException if the store cannot hold {@code sessionId} or {@code record}
   *     faithfully; nothing was written
   */
  void save(String sessionId, Scope scope, String record);

  /**
   * Appends {@code ids}, in order, to the observation ids of {@code sessionId}, skipping ids it
   * lists already. A session may have ids before it has a record.
   *
   * @throws IllegalArgumentException if the store cannot hold {@code sessionId} faithfully; nothing
   *     was written
   */
  void appendObservations(String sessionId, List<MemoryId> ids);

  /** The observation ids of {@code sessionId}, each once, in the order they were first appended. */
  List<MemoryId> observations(String sessionId);

  /** Releases what the store holds; idempotent. Never closes a data source the host supplied. */
  @Override
  void close();
}
