package dev.memhook.core.internal.inject;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryId;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.api.trace.PhaseStatus.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * How an injection attempt's outcome becomes its receipt: which status each phase gets. The one
 * place these rules live.
 *
 * <ul>
 *   <li>Recall that threw or timed out: recall {@code FAILED} or {@code TIMED_OUT} (with how long
 *       the hook waited), every later phase {@code SKIPPED}, no candidates.
 *   <li>Recall that answered: recall {@code OK}; gate {@code OK} when some recalled candidate
 *       passed a recall's gate, else {@code EMPTY} (standing memories are not recalled and pass no
 *       gate, so an injection of standing memories alone has the gate {@code EMPTY}); injection
 *       {@code SKIPPED} when nothing new was selected, else {@code OK} or {@code FAILED} as
 *       queueing the pair went; delivery {@code PENDING} or {@code UNKNOWN} (the chat service
 *       reports submissions or not) after a queued pair, else {@code SKIPPED}.
 * </ul>
 *
 * <p>Stateless.
 */
final class AttemptReceipts {

  private AttemptReceipts() {}

  /** What every receipt of one attempt shares. */
  record Attempt(
      String hookId, HookOptions options, HookPhase phase, List<String> triggerMessageIds) {}

  /** The receipt of an attempt whose recall threw ({@code timedOut} false) or timed out. */
  static InjectionReceipt recallFailed(
      Attempt a, Instant at, Duration waited, Throwable cause, boolean timedOut) {
    return new InjectionReceipt(
        newId(),
        a.hookId(),
        a.options().scopes(),
        a.phase(),
        at,
        a.triggerMessageIds(),
        List.of(),
        List.of(),
        null,
        InjectionReceipt.Representation.SUMMARY,
        new PhaseStatus(timedOut ? Status.TIMED_OUT : Status.FAILED, waited, String.valueOf(cause)),
        PhaseStatus.skipped("recall did not answer"),
        PhaseStatus.skipped("recall did not answer"),
        PhaseStatus.skipped("nothing was injected"),
        List.of(),
        Map.of());
  }

  /**
   * The receipt of an attempt whose recall answered.
   *
   * @param injected the ids the pair carried; empty when none was queued
   * @param injection how queueing the pair went ({@code SKIPPED} when nothing was selected)
   * @param reportsDelivery whether the chat service reports the requests it submits
   */
  static InjectionReceipt answered(
      Attempt a,
      Instant at,
      Duration recallTook,
      ScopedRecall.Outcome outcome,
      List<MemoryId> injected,
      PhaseStatus injection,
      boolean reportsDelivery) {
    PhaseStatus gate =
        outcome.anyPassedGate()
            ? new PhaseStatus(Status.OK, Duration.ZERO, "")
            : new PhaseStatus(Status.EMPTY, Duration.ZERO, "no candidate passed the gate");
    PhaseStatus delivery;
    if (injection.status() != Status.OK) {
      delivery = PhaseStatus.skipped("nothing was injected");
    } else if (reportsDelivery) {
      delivery = new PhaseStatus(Status.PENDING, Duration.ZERO, "no submitted request yet");
    } else {
      delivery =
          new PhaseStatus(
              Status.UNKNOWN, Duration.ZERO, "the chat service does not report submissions");
    }
    return new InjectionReceipt(
        newId(),
        a.hookId(),
        a.options().scopes(),
        a.phase(),
        at,
        a.triggerMessageIds(),
        outcome.candidates(),
        injected,
        null,
        InjectionReceipt.Representation.SUMMARY,
        new PhaseStatus(Status.OK, recallTook, ""),
        gate,
        injection,
        delivery,
        List.of(),
        outcome.took());
  }

  private static String newId() {
    return "rcpt_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }
}
