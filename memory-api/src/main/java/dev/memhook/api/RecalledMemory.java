package dev.memhook.api;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One memory a recall returned, with its fused score and why it was returned.
 *
 * <p>Immutable and thread-safe; null components are rejected.
 *
 * @param memory the memory (always a latest version)
 * @param score the fused score; higher is better, comparable only within one recall
 * @param signals how each signal that returned this memory ranked it, in {@link Signal} order
 */
public record RecalledMemory(Memory memory, double score, List<SignalHit> signals) {

  /** Validates and copies. */
  public RecalledMemory {
    Objects.requireNonNull(memory, "memory");
    signals = List.copyOf(Objects.requireNonNull(signals, "signals"));
  }

  /** The memory's id. */
  public MemoryId id() {
    return memory.id();
  }

  /** A one-line explanation, such as {@code fused 0.0325: text #1 (7.41), vector #3 (0.62)}. */
  public String why() {
    return String.format(java.util.Locale.ROOT, "fused %.4f: ", score)
        + signals.stream()
            .map(
                h ->
                    String.format(
                        java.util.Locale.ROOT,
                        "%s #%d (%.3f)",
                        h.signal().name().toLowerCase(java.util.Locale.ROOT),
                        h.rank(),
                        h.score()))
            .collect(Collectors.joining(", "));
  }
}
