package dev.memhook.core.internal.inject;

import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallTimeoutException;
import dev.memhook.api.trace.FetchRecord;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.api.trace.RequestAppearance;
import dev.memhook.core.internal.logging.WarnLimiter;
import dev.memhook.core.internal.notify.ListenerDispatch;
import dev.memhook.core.internal.notify.ReceiptBook;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one hook tells its listeners, the service's receipt book and the log. Listeners hear of
 * every event through the service's {@link ListenerDispatch}, off the hook's path. Failures are
 * logged at WARN each time, except recall timeouts and refusals by the executor: those are signs of
 * overload and come in floods, so they are logged at WARN at most once per {@link
 * #OVERLOAD_WARN_INTERVAL}, each line saying how many were held back, and at DEBUG otherwise.
 *
 * <p>Thread-safe.
 */
public final class HookEvents {

  /** The hook's own logger name, so hosts keep one name to configure for everything a hook logs. */
  private static final Logger LOG = LoggerFactory.getLogger(HookEvents.class);

  /**
   * The least time between two WARN lines of one hook for recall timeouts and refusals: one line
   * per half minute per hook shows an overload as well as a line per event, and leaves the rest of
   * the log readable.
   */
  static final Duration OVERLOAD_WARN_INTERVAL = Duration.ofSeconds(30);

  private final String hookId;
  private final MemoryListener listener;
  private final ListenerDispatch dispatch;
  private final ReceiptBook serviceReceipts;
  private final WarnLimiter overloadWarnings =
      new WarnLimiter(OVERLOAD_WARN_INTERVAL, System::nanoTime);

  /**
   * The events of a new hook with a fresh id.
   *
   * @param listener the hook's own listener (the service's is the dispatch's)
   * @param serviceReceipts the service's book of recent receipts
   */
  public HookEvents(
      MemoryListener listener, ListenerDispatch dispatch, ReceiptBook serviceReceipts) {
    this.hookId = "hook_" + UUID.randomUUID().toString().substring(0, 8);
    this.listener = Objects.requireNonNull(listener, "listener");
    this.dispatch = Objects.requireNonNull(dispatch, "dispatch");
    this.serviceReceipts = Objects.requireNonNull(serviceReceipts, "serviceReceipts");
  }

  /** Events that go nowhere but the log, for a tool or hook used on its own (in tests). */
  static HookEvents detached(MemoryListener listener) {
    return new HookEvents(listener, new ListenerDispatch(MemoryListener.NONE), new ReceiptBook(1));
  }

  /** The hook's id. */
  String hookId() {
    return hookId;
  }

  /** The hook injected {@code ids} in one call. */
  void injected(HookPhase phase, List<MemoryId> ids) {
    List<MemoryId> copy = List.copyOf(ids);
    dispatch.publish(listener, l -> l.injected(hookId, phase, copy));
  }

  /** An attempt ended with {@code receipt}. */
  void receipt(InjectionReceipt receipt) {
    serviceReceipts.put(receipt);
    dispatch.publish(listener, l -> l.receipt(receipt));
  }

  /** A submitted request carried the pair of {@code receipt}, its new version. */
  void delivered(InjectionReceipt receipt, RequestAppearance appearance) {
    serviceReceipts.put(receipt);
    dispatch.publish(listener, l -> l.delivered(receipt, appearance));
  }

  /** {@code receipt} has a new version listeners need not hear of (its tool-call id is known). */
  void updated(InjectionReceipt receipt) {
    serviceReceipts.put(receipt);
  }

  /** The model called the hook's tool. */
  void fetched(FetchRecord fetch) {
    dispatch.publish(listener, l -> l.fetched(fetch));
  }

  /** The callback in {@code phase} went on without memories because of {@code error}. */
  void failed(HookPhase phase, Throwable error) {
    if (error instanceof RecallTimeoutException || error instanceof RejectedExecutionException) {
      WarnLimiter.Decision decision = overloadWarnings.next();
      if (decision.warn()) {
        LOG.warn(
            "hook {} {}: the turn goes on without memories: {}"
                + " ({} like it logged at DEBUG since the last such warning;"
                + " for the next {} they go to DEBUG)",
            hookId,
            phase,
            error.toString(),
            decision.heldBack(),
            OVERLOAD_WARN_INTERVAL);
      } else {
        LOG.debug(
            "hook {} {}: the turn goes on without memories: {}", hookId, phase, error.toString());
      }
    } else {
      LOG.warn(
          "hook {} {}: the turn goes on without memories: {}", hookId, phase, error.toString());
    }
    dispatch.publish(listener, l -> l.failed(hookId, phase, error));
  }
}
