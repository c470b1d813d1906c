package dev.memhook.api;

/**
 * What {@link MemoryMaintenance#restoreExported} did: how many forget records it skipped, and for
 * how many memories it reused the vector the export carried rather than embedding them again.
 *
 * <p>An immutable value; thread-safe.
 *
 * @param skippedForgotten forget records skipped because their id is held as a memory, at least 0
 * @param reusedVectors memories stored with the vector they were exported with, at least 0
 * @param embedded memories embedded again (no vector given, one of another model or dimension, or
 *     text this service's redaction changed), at least 0
 */
public record RestoreResult(int skippedForgotten, int reusedVectors, int embedded) {
  /**
   * @throws IllegalArgumentException if a count is negative
   */
  public RestoreResult {
    if (skippedForgotten < 0 || reusedVectors < 0 || embedded < 0) {
      throw new IllegalArgumentException(
          "counts must be >= 0, got " + skippedForgotten + ", " + reusedVectors + ", " + embedded);
    }
  }
}
