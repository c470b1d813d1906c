package dev.memhook.benchmarks.loop;

import dev.memhook.api.trace.ReceiptCandidate.Decision;
import java.util.Objects;
import java.util.Set;

/**
 * Why an on-topic probe missed, read from the hook's own receipts: what the hook did with the
 * memories that hold the probe's fact. A miss whose fact was stored has one of five causes on the
 * recall path, and each points at a different part of the system: the fact was never a candidate
 * (neither signal reached it: ranking, or the words of what was stored), it was left out as the
 * probe's own conversation, it was a candidate and the relevance gate dropped it, it passed the
 * gate and ranked below what the hook injects, or it was injected and what the model reads of it
 * (its title and summary) lacks the expected string.
 *
 * <p>When several memories hold the fact, the one that came nearest to the model decides, in the
 * order of the constants from {@link #SHOWN_WITHOUT_FACT} to {@link #NOT_CANDIDATE}: one memory
 * gated and another ranked out is a ranking miss, since the gate let one through.
 */
enum MissCause {
  /** The probe is off-topic or found its fact. */
  NONE("not a miss"),
  /** No memory of the store holds an expected string: capture or consolidation lost the fact. */
  NOT_STORED("not stored"),
  /** The hook's receipts could not be read (the probe ran the hook in another process). */
  UNTRACED("not traced"),
  /** A memory holding the fact was injected, but its title and summary lack the expected string. */
  SHOWN_WITHOUT_FACT("injected, but its summary lacks the fact"),
  /** A memory holding the fact passed the gate and ranked below what the hook injects. */
  RANKED_OUT("ranked below what the hook injects"),
  /** The relevance gate dropped the memories holding the fact. */
  GATED("dropped by the relevance gate"),
  /** The memories holding the fact were left out as the probe's own conversation. */
  EXCLUDED("left out as the probe's own conversation"),
  /** No memory holding the fact is among the candidates the receipts list. */
  NOT_CANDIDATE("not among the recall's candidates");

  /** How the report names the cause. */
  final String label;

  MissCause(String label) {
    this.label = label;
  }

  /**
   * A probe's cause and the receipt entry that decided it.
   *
   * @param cause the cause
   * @param holder the entry of the memory holding the fact that came nearest to the model; null
   *     when no such entry decided it ({@link #NONE}, {@link #NOT_STORED}, {@link #UNTRACED},
   *     {@link #NOT_CANDIDATE})
   */
  record Traced(MissCause cause, ProbeOutcome.Considered holder) {
    Traced {
      Objects.requireNonNull(cause, "cause");
    }
  }

  /**
   * Why {@code outcome} missed, given the ids of the memories holding its fact ({@link
   * StoreCensus#holders}).
   */
  static Traced of(ProbeOutcome outcome, Set<String> holders) {
    if (outcome.probe().offTopic() || outcome.hit()) {
      return new Traced(NONE, null);
    }
    if (holders.isEmpty()) {
      return new Traced(NOT_STORED, null);
    }
    if (outcome.considered() == null) {
      return new Traced(UNTRACED, null);
    }
    MissCause best = NOT_CANDIDATE;
    ProbeOutcome.Considered decided = null;
    for (ProbeOutcome.Considered c : outcome.considered()) {
      if (holders.contains(c.id())) {
        MissCause cause = of(c.decision());
        if (cause.ordinal() < best.ordinal()) {
          best = cause;
          decided = c;
        }
      }
    }
    return new Traced(best, decided);
  }

  private static MissCause of(Decision decision) {
    return switch (decision) {
      case SELECTED, STANDING, ALREADY_INJECTED -> SHOWN_WITHOUT_FACT;
      case LIMIT, FUSED_OUT, OVER_CAP, SESSION_CAP -> RANKED_OUT;
      case RELEVANCE_GATE -> GATED;
      case OWN_CONVERSATION -> EXCLUDED;
    };
  }
}
