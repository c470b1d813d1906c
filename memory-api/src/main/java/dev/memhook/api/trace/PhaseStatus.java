package dev.memhook.api.trace;

import java.time.Duration;
import java.util.Objects;

/**
 * How one phase of an injection attempt ended, with how long it took (or how long the hook waited
 * before it gave up) and a detail a person can read.
 *
 * <p>Immutable and thread-safe.
 *
 * @param status how the phase ended
 * @param took how long it took, or waited before giving up; {@link Duration#ZERO} when the phase
 *     did not run
 * @param detail what happened, with the numbers behind it; empty when there is nothing to add
 */
public record PhaseStatus(Status status, Duration took, String detail) {

  /**
   * How a phase ended. Each phase uses the values its Javadoc on {@link InjectionReceipt} names.
   */
  public enum Status {
    /** The phase did its work: recall answered, some candidates passed, the pair was queued. */
    OK,
    /** Recall answered, and the gate passed no candidate: an empty recall is a good answer. */
    EMPTY,
    /** The phase failed; {@link PhaseStatus#detail()} says how. */
    FAILED,
    /** The hook stopped waiting; {@link PhaseStatus#took()} is how long it waited. */
    TIMED_OUT,
    /** The phase had nothing to do, because an earlier one ended without work for it. */
    SKIPPED,
    /** Delivery: the injected pair reached at least one request the chat service submitted. */
    DELIVERED,
    /** Delivery: the chat service reports submissions, and none carried the pair yet. */
    PENDING,
    /** Delivery: the chat service does not report what it submits, so nobody can tell. */
    UNKNOWN
  }

  /** Validates the status. */
  public PhaseStatus {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(took, "took");
    Objects.requireNonNull(detail, "detail");
    if (took.isNegative()) {
      throw new IllegalArgumentException("took must not be negative, got " + took);
    }
  }

  /** A phase that did not run, for the reason given. */
  public static PhaseStatus skipped(String detail) {
    return new PhaseStatus(Status.SKIPPED, Duration.ZERO, detail);
  }
}
