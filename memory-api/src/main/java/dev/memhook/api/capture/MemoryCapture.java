package dev.memhook.api.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Capture, from {@link MemoryService#capture()}: the lifecycle events a coding agent's hooks post
 * and the conversations a hook observes become sanitized observations, grouped in sessions that are
 * consolidated into durable memories when they end.
 *
 * <p>On a service that captures nothing (opened read-only, or built with {@code noCapture()}),
 * {@link #enabled()} is false, the view holds no sessions, its counters stay {@link
 * CaptureStats#NONE}, {@link #flush} returns true at once, and {@link #observe}, {@link
 * #observeJson} and {@link #consolidate} throw {@link IllegalStateException}.
 *
 * <p>Thread-safe, like the service it belongs to, and valid as long as the service is open: after
 * the service closes, every method but {@link #enabled()} throws {@link IllegalStateException}.
 * Methods reject null arguments with a {@link NullPointerException}.
 */
public interface MemoryCapture {

  /** Whether this service captures: false when it was opened read-only or built without capture. */
  boolean enabled();

  /**
   * Captures a lifecycle event: validates it, sanitizes every string of it, writes it to the
   * capture journal and returns; a background pipeline compresses it, stores it as an observation
   * ({@link MemoryType#OBSERVATION}, findable by every signal) and keeps its session's record. It
   * never waits for the store or the embedder, and never throws for a failure of the pipeline:
   * those are counted in {@link #stats()} and logged.
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
   * {@link #observeJson(String)}, stored in {@code scope} instead of the scope {@link
   * CaptureOptions} gives the event: for a process that serves several scopes from one store, such
   * as a resident hook server whose every request names the scope it captures into. Its session's
   * memories, once consolidated, are stored in the scope of the event that started the session.
   *
   * @throws IllegalArgumentException if the text is not one JSON object, or names a field that is
   *     missing or malformed (the message names it); nothing of it is stored
   * @throws IllegalStateException if the service is closed or read-only
   */
  ObserveResult observeJson(String json, Scope scope);

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
  CaptureStats stats();

  /** The captured session with this id, as processed so far, or empty if none. */
  Optional<Session> session(String sessionId);

  /** Every captured session, most recent activity first. */
  List<Session> sessions();

  /**
   * The observations of a captured session that are still stored, in the order they happened: what
   * a viewer of the session's timeline shows. Forgotten observations are left out. The session's
   * record lists an observation once the batch that stored it is written, so the latest events may
   * show a moment after {@link Session#observationCount()} counts them; {@link #flush} first to see
   * every accepted one.
   *
   * @return the stored observations, oldest first; empty for an unknown session and on a service
   *     that captures nothing
   * @throws NullPointerException if {@code sessionId} is null
   * @throws IllegalStateException if the service is closed
   * @throws dev.memhook.api.MemoryStoreException if the session store or the memory store fails
   */
  List<Memory> observations(String sessionId);

  /**
   * Consolidates a session's observations into durable memories now, whatever its status: near
   * duplicates of memories already held become new versions of them. Waits for the events accepted
   * so far to be processed first (see {@link #flush}). The session keeps its status.
   *
   * <p>A host rarely needs this: a session is consolidated when it ends, by its {@link
   * LifecycleEventType#SESSION_END} event, by the idle timeout, or when the service closes (see
   * {@link MemoryService#close()}), so a host that runs one conversation per process gets its
   * memories by closing the service. Call it to consolidate a session that goes on, or one captured
   * with {@code CaptureOptions.Builder.consolidateOnDemandOnly()}.
   *
   * @return how many memories were written or updated
   * @throws IllegalArgumentException if no session has this id
   * @throws IllegalStateException if the service is closed or read-only
   */
  int consolidate(String sessionId);
}
