package dev.memhook.api;

/**
 * What {@link dev.memhook.api.spi.MemoryStore#export} did: how many memories it handed to the sink,
 * and how many records it found but could not read (damaged), which it skipped.
 *
 * <p>An immutable value; thread-safe.
 *
 * @param exported memories handed to the sink, at least 0
 * @param unreadable records skipped because they could not be read, at least 0
 */
public record ExportResult(long exported, long unreadable) {
  /**
   * @throws IllegalArgumentException if a count is negative
   */
  public ExportResult {
    if (exported < 0 || unreadable < 0) {
      throw new IllegalArgumentException(
          "counts must be >= 0, got exported " + exported + ", unreadable " + unreadable);
    }
  }
}
