package dev.memhook.api;

import java.util.Objects;

/**
 * How one signal ranked one candidate.
 *
 * @param signal the signal
 * @param rank 1-based rank within that signal's list
 * @param score the signal's raw score (BM25 score, cosine similarity, or graph weight)
 */
public record SignalHit(Signal signal, int rank, double score) {
  /** Validates the hit. */
  public SignalHit {
    Objects.requireNonNull(signal, "signal");
    if (rank < 1) {
      throw new IllegalArgumentException("rank must be >= 1, got " + rank);
    }
  }
}
