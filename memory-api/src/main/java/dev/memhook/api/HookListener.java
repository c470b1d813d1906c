package dev.memhook.api;

import java.util.List;

/**
 * Receives what a hook did, so nothing is only a log line. Methods are called on Memhook's threads,
 * possibly concurrently for different hooks; they must be quick and must not throw (what they throw
 * is logged and ignored). The default methods do nothing.
 */
public interface HookListener {

  /** A listener that ignores everything. */
  HookListener NONE = new HookListener() {};

  /**
   * A hook injected memories in one batched {@code get_memory} call.
   *
   * @param hookId the hook
   * @param phase when
   * @param ids the injected ids, in the order shown to the model
   */
  default void injected(String hookId, HookPhase phase, List<MemoryId> ids) {}

  /**
   * A hook's recall or injection failed or timed out; the turn went on without memories.
   *
   * @param hookId the hook
   * @param phase when
   * @param cause what went wrong; a {@link RecallTimeoutException} for a timeout, a {@link
   *     java.util.concurrent.RejectedExecutionException} when the recall executor refused the
   *     recall (the default executor does when its queue is full)
   */
  default void failed(String hookId, HookPhase phase, Throwable cause) {}
}
