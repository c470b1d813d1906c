package dev.memhook.api;

import java.util.List;
import java.util.Objects;

/**
 * A candidate that a recall considered and left out, and the rule that left it out.
 *
 * @param id the candidate's id
 * @param rule the rule
 * @param detail a human-readable reason with the numbers behind it
 * @param signals how each signal ranked it, in {@link Signal} order
 */
public record DroppedCandidate(MemoryId id, Rule rule, String detail, List<SignalHit> signals) {

  /** The rules that drop candidates after fusion. */
  public enum Rule {
    /** More candidates from the same source session than the cap allows. */
    SESSION_CAP,
    /** No signal cleared its absolute relevance floor. */
    RELEVANCE_GATE,
    /** Ranked below the requested limit. */
    LIMIT
  }

  /** Validates and copies. */
  public DroppedCandidate {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(detail, "detail");
    signals = List.copyOf(Objects.requireNonNull(signals, "signals"));
  }

  /** A drop whose signal ranks are not known. */
  public DroppedCandidate(MemoryId id, Rule rule, String detail) {
    this(id, rule, detail, List.of());
  }
}
