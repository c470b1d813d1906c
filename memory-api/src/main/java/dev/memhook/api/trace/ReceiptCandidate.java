package dev.memhook.api.trace;

import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import dev.memhook.api.StandingProfile;
import java.util.List;
import java.util.Objects;

/**
 * One memory an injection attempt considered, how each signal ranked it, and what was decided.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id the memory
 * @param scope the scope it was recalled in
 * @param triggerMessageId the message it was recalled for
 * @param score its fused score, comparable within one recall only; {@link Double#NaN} for a
 *     candidate the gate dropped before it was scored against the others, and for a standing
 *     memory, which is offered without a query
 * @param signals how each signal ranked it, in {@link Signal} order
 * @param decision what the attempt did with it
 * @param detail the reason, with the numbers behind it (for a gate drop: each signal's value
 *     against the floor it missed)
 */
public record ReceiptCandidate(
    MemoryId id,
    Scope scope,
    String triggerMessageId,
    double score,
    List<SignalHit> signals,
    Decision decision,
    String detail) {

  /** What an injection attempt did with a candidate. */
  public enum Decision {
    /**
     * Selected for this attempt's injection; whether the pair reached the chat service is the
     * receipt's {@link InjectionReceipt#injection()} phase.
     */
    SELECTED,
    /** Already injected earlier by this hook: a memory is injected at most once per hook. */
    ALREADY_INJECTED,
    /** Captured from this very conversation, so already in the model's context. */
    OWN_CONVERSATION,
    /** Recalled, but the callback's cap ({@link HookOptions#maxPerCallback()}) was reached. */
    OVER_CAP,
    /** Recalled in its scope, but ranked below the per-message cap once the scopes were fused. */
    FUSED_OUT,
    /** Dropped by the relevance gate ({@link DroppedCandidate.Rule#RELEVANCE_GATE}). */
    RELEVANCE_GATE,
    /** Dropped by the per-session cap ({@link DroppedCandidate.Rule#SESSION_CAP}). */
    SESSION_CAP,
    /** Ranked below the recall's limit ({@link DroppedCandidate.Rule#LIMIT}). */
    LIMIT,
    /**
     * Selected as a standing memory: one of its scope's {@link StandingProfile}, which the hook's
     * first injection offers before what the message recalled. Not recalled, so it has no signals
     * and a {@link Double#NaN} score; its trigger is the first message of the attempt. Whether the
     * pair reached the chat service is the receipt's {@link InjectionReceipt#injection()} phase, as
     * for {@link #SELECTED}.
     */
    STANDING
  }

  /** Validates and copies. */
  public ReceiptCandidate {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(triggerMessageId, "triggerMessageId");
    signals = List.copyOf(Objects.requireNonNull(signals, "signals"));
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(detail, "detail");
  }
}
