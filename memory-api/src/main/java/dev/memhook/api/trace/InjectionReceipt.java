package dev.memhook.api.trace;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one injection attempt did, phase by phase: which messages triggered it, every candidate it
 * considered and why each was kept or dropped, what it injected, and whether the requests the chat
 * service submitted carried it. A hook makes one attempt per callback that has new messages to
 * recall for.
 *
 * <p>The phases have separate statuses, so "recall answered, injection failed" is never read as a
 * recall outage:
 *
 * <ul>
 *   <li>{@link #recall()}: {@code OK}, {@code FAILED} (the cause in the detail) or {@code
 *       TIMED_OUT} (how long the hook waited in {@code took});
 *   <li>{@link #gate()}: {@code OK} (some recalled candidate passed), {@code EMPTY} (none did), or
 *       {@code SKIPPED} when recall did not answer; standing memories pass no gate (they are not
 *       recalled), so a first injection may carry them with the gate {@code EMPTY};
 *   <li>{@link #injection()}: {@code OK} (the pair was queued), {@code FAILED}, or {@code SKIPPED}
 *       when nothing new was left to inject;
 *   <li>{@link #delivery()}: {@code DELIVERED} (see {@link #appearances()}), {@code PENDING},
 *       {@code UNKNOWN} when the chat service does not report what it submits, or {@code SKIPPED}
 *       when nothing was injected.
 * </ul>
 *
 * <p>Immutable and thread-safe. A receipt is created when the attempt ends; each request that later
 * carries its pair makes a new version with one more appearance ({@link
 * #withAppearance(RequestAppearance, String)}), under the same {@link #id()}.
 *
 * @param id a random id naming this attempt
 * @param hookId the hook that made it
 * @param scopes the scopes it recalled in, in order
 * @param phase the callback that made it
 * @param at when the attempt ended
 * @param triggerMessageIds the messages it recalled for, in conversation order
 * @param candidates every memory it considered, in the order it considered them
 * @param injectedIds the ids it injected, in the order shown to the model (standing memories first,
 *     see {@link ReceiptCandidate.Decision#STANDING}); empty if none
 * @param toolCallId the id of the synthetic tool call that carried them, once the hook has seen the
 *     pair in the conversation or a submitted request; null before that and when nothing was
 *     injected
 * @param representation how the injected memories were shown: {@link Representation#SUMMARY}
 * @param recall the recall phase
 * @param gate the relevance gate
 * @param injection queueing the pair on the chat service
 * @param delivery whether a submitted request carried the pair
 * @param appearances every submitted request that carried the pair, each once, in order
 * @param recallTimes how long each signal's searches took, summed over the attempt's recalls (the
 *     vector signal's includes embedding the query); empty when recall did not answer
 */
public record InjectionReceipt(
    String id,
    String hookId,
    List<Scope> scopes,
    HookPhase phase,
    Instant at,
    List<String> triggerMessageIds,
    List<ReceiptCandidate> candidates,
    List<MemoryId> injectedIds,
    String toolCallId,
    Representation representation,
    PhaseStatus recall,
    PhaseStatus gate,
    PhaseStatus injection,
    PhaseStatus delivery,
    List<RequestAppearance> appearances,
    Map<Signal, Duration> recallTimes) {

  /** How memories were shown to the model. */
  public enum Representation {
    /** {@code [{id, summary}, …]}: the batched form the hook injects. */
    SUMMARY,
    /** Full memories, as a {@code get_memory} call without {@code summary} returns them. */
    FULL,
    /** One page of one memory's content, from an offset. */
    PAGE
  }

  /** Validates and copies. */
  public InjectionReceipt {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(hookId, "hookId");
    scopes = List.copyOf(Objects.requireNonNull(scopes, "scopes"));
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(at, "at");
    triggerMessageIds = List.copyOf(Objects.requireNonNull(triggerMessageIds, "triggerMessageIds"));
    candidates = List.copyOf(Objects.requireNonNull(candidates, "candidates"));
    injectedIds = List.copyOf(Objects.requireNonNull(injectedIds, "injectedIds"));
    Objects.requireNonNull(representation, "representation");
    Objects.requireNonNull(recall, "recall");
    Objects.requireNonNull(gate, "gate");
    Objects.requireNonNull(injection, "injection");
    Objects.requireNonNull(delivery, "delivery");
    appearances = List.copyOf(Objects.requireNonNull(appearances, "appearances"));
    recallTimes = Map.copyOf(Objects.requireNonNull(recallTimes, "recallTimes"));
  }

  /** The candidates about {@code memory}: why it was (or was not) injected in this attempt. */
  public List<ReceiptCandidate> about(MemoryId memory) {
    Objects.requireNonNull(memory, "memory");
    return candidates.stream().filter(c -> c.id().equals(memory)).toList();
  }

  /** This receipt with the synthetic tool call's id, once the hook has seen its pair. */
  public InjectionReceipt withToolCallId(String callId) {
    Objects.requireNonNull(callId, "callId");
    return new InjectionReceipt(
        id,
        hookId,
        scopes,
        phase,
        at,
        triggerMessageIds,
        candidates,
        injectedIds,
        callId,
        representation,
        recall,
        gate,
        injection,
        delivery,
        appearances,
        recallTimes);
  }

  /**
   * This receipt with one more appearance of its pair, delivery {@code DELIVERED}, and the tool
   * call's id ({@code callId}, as the request carried it) if it was not known yet. An appearance of
   * a request already listed is ignored.
   */
  public InjectionReceipt withAppearance(RequestAppearance appearance, String callId) {
    Objects.requireNonNull(appearance, "appearance");
    Objects.requireNonNull(callId, "callId");
    for (RequestAppearance a : appearances) {
      if (a.attemptId().equals(appearance.attemptId())) {
        return this;
      }
    }
    List<RequestAppearance> more = new ArrayList<>(appearances);
    more.add(appearance);
    return new InjectionReceipt(
        id,
        hookId,
        scopes,
        phase,
        at,
        triggerMessageIds,
        candidates,
        injectedIds,
        toolCallId != null ? toolCallId : callId,
        representation,
        recall,
        gate,
        injection,
        new PhaseStatus(
            PhaseStatus.Status.DELIVERED,
            delivery.took(),
            more.size() + " submitted request(s) carried the pair"),
        more,
        recallTimes);
  }
}
