package dev.memhook.api;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How far a {@link MemoryMaintenance#rememberAll(java.util.List, java.util.function.Consumer)} has
 * come: reported after each batch it stored. The memories counted in {@link #stored()} are
 * acknowledged: they are stored as durably as by {@link MemoryService#remember}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param stored memories stored so far
 * @param total memories in the import
 * @param elapsed time since the import started
 */
public record ImportProgress(int stored, int total, Duration elapsed) {

  /** Validates. */
  public ImportProgress {
    Objects.requireNonNull(elapsed, "elapsed");
    if (stored < 0 || total < stored) {
      throw new IllegalArgumentException(
          "need 0 <= stored <= total, got stored " + stored + ", total " + total);
    }
    if (elapsed.isNegative()) {
      throw new IllegalArgumentException("elapsed must not be negative, got " + elapsed);
    }
  }

  /** Memories stored per second so far, or 0 before any time has passed. */
  public double perSecond() {
    double seconds = elapsed.toNanos() / 1e9;
    return seconds > 0 ? stored / seconds : 0;
  }

  /** The time left at the rate so far, or empty before any memory is stored. */
  public Optional<Duration> remaining() {
    if (stored == 0 || elapsed.isZero()) {
      return Optional.empty();
    }
    return Optional.of(
        Duration.ofNanos((long) ((double) elapsed.toNanos() / stored * (total - stored))));
  }
}
