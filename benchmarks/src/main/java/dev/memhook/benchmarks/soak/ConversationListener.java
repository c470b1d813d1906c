package dev.memhook.benchmarks.soak;

import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallTimeoutException;
import dev.memhook.api.Scope;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.MemoryListener;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;

/**
 * The listener of one hook (one conversation): records every id the hook reports injected and
 * checks each injection as it happens, so a violation is seen at the moment it occurs:
 *
 * <ul>
 *   <li>an id injected a second time by this hook breaks at-most-once injection;
 *   <li>an id of another scope breaks scope isolation;
 *   <li>an id whose forget returned before the current turn started was recalled after its forget.
 * </ul>
 *
 * A recall timeout is the hook's documented answer to a slow recall, so it is counted; any other
 * reported failure is a violation (nothing in a healthy soak should fail a hook's recall). Holds
 * one conversation's ids, so its size is bounded by the conversation's length. Thread-safe.
 */
final class ConversationListener implements MemoryListener {

  private final Scope scope;
  private final MemoryLedger ledger;
  private final Findings findings;
  private final SoakStats stats;
  private final Set<MemoryId> injected = new LinkedHashSet<>();
  private final List<MemoryId> order = new ArrayList<>();
  private volatile long turnStarted = System.nanoTime();

  ConversationListener(Scope scope, MemoryLedger ledger, Findings findings, SoakStats stats) {
    this.scope = scope;
    this.ledger = ledger;
    this.findings = findings;
    this.stats = stats;
  }

  /** A turn starts now: injections from here on must not show what was forgotten before. */
  void turnStarts() {
    turnStarted = System.nanoTime();
  }

  @Override
  public void injected(String hookId, HookPhase phase, List<MemoryId> ids) {
    long started = turnStarted;
    stats.injections.increment();
    for (MemoryId id : ids) {
      stats.injectedIds.increment();
      boolean fresh;
      synchronized (injected) {
        fresh = injected.add(id);
        if (fresh) {
          order.add(id);
        }
      }
      if (!fresh) {
        findings.violation(
            "at-most-once", "hook " + hookId + " (" + phase + ") injected " + id + " again");
      }
      ledger.checkScope(id, scope, "hook " + hookId + " " + phase, findings);
      if (ledger.forgottenBefore(id, started)) {
        findings.violation(
            "forgotten injected",
            "hook " + hookId + " injected " + id + " forgotten before the turn");
      }
    }
  }

  @Override
  public void failed(String hookId, HookPhase phase, Throwable cause) {
    stats.hookFailures.add(cause.getClass().getSimpleName());
    // a timeout and the default executor's refusal when saturated are the documented ways a hook
    // sheds load; any other failure is a defect
    if (!(cause instanceof RecallTimeoutException || cause instanceof RejectedExecutionException)) {
      findings.violation("hook failure", "hook " + hookId + " " + phase + ": " + cause);
    }
  }

  /** The ids reported injected, in order, without repeats. */
  Set<MemoryId> injected() {
    synchronized (injected) {
      return new LinkedHashSet<>(injected);
    }
  }

  /** The {@code index}-th id injected (modulo how many), or null if none yet. */
  MemoryId injectedAt(int index) {
    synchronized (injected) {
      return order.isEmpty() ? null : order.get(Math.floorMod(index, order.size()));
    }
  }
}
