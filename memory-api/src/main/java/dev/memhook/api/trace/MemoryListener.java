package dev.memhook.api.trace;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallTimeoutException;
import java.util.List;

/**
 * Receives what Memhook did, as linked records rather than log lines: injection receipts, the
 * model's full fetches, capture events, and (for existing listeners) the short injected/failed
 * notes. Give one to the whole service ({@code Memhook.builder().listener(...)}) or to one hook
 * ({@link HookOptions.Builder#listener(MemoryListener)}).
 *
 * <h2>Contract</h2>
 *
 * Methods are called on one Memhook listener thread per service, in the order the events happened,
 * never on the hook's or the host's path: a slow listener delays only later listener calls, and
 * past a bounded backlog events are dropped and counted ({@link ListenerStats#dropped()}). What a
 * listener gets is immutable; one that throws is logged and counted ({@link
 * ListenerStats#failed()}) and changes nothing: not the turn, the injection, nor the receipt. The
 * default methods do nothing. Implementations need not be thread-safe unless shared between
 * services.
 */
public interface MemoryListener {

  /** A listener that ignores everything. */
  MemoryListener NONE = new MemoryListener() {};

  /** An injection attempt ended: its receipt, once per attempt. */
  default void receipt(InjectionReceipt receipt) {}

  /**
   * A request the chat service submitted carried an attempt's pair: the receipt's new version (same
   * {@link InjectionReceipt#id()}, one more appearance) and that appearance, once per request.
   */
  default void delivered(InjectionReceipt receipt, RequestAppearance appearance) {}

  /** The model called the real {@code get_memory} tool. */
  default void fetched(FetchRecord fetch) {}

  /** The capture pipeline stored, fell back or shed; or a memory was forgotten. */
  default void captured(CaptureEvent event) {}

  /**
   * A hook injected memories in one batched {@code get_memory} call; the receipt says more.
   *
   * @param hookId the hook
   * @param phase when
   * @param ids the injected ids, in the order shown to the model
   */
  default void injected(String hookId, HookPhase phase, List<MemoryId> ids) {}

  /**
   * A hook's recall or injection failed or timed out; the turn went on without memories. The
   * receipt says which phase.
   *
   * @param hookId the hook
   * @param phase when
   * @param cause what went wrong; a {@link RecallTimeoutException} for a timeout, a {@link
   *     java.util.concurrent.RejectedExecutionException} when the recall executor refused the
   *     recall (the default executor does when its queue is full)
   */
  default void failed(String hookId, HookPhase phase, Throwable cause) {}
}
