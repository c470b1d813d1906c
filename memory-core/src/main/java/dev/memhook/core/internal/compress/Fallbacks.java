package dev.memhook.core.internal.compress;

/**
 * How many calls to a guarded provider fell back to the local form, by reason; see {@link
 * GuardedCompressor} and {@link GuardedConsolidator}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param error the provider threw
 * @param timeout the provider took longer than the timeout
 * @param invalid the provider's answer failed the checks
 * @param budget the call budget of the minute was spent
 * @param busy every pool thread was still in an earlier call
 */
public record Fallbacks(long error, long timeout, long invalid, long budget, long busy) {

  /** All fallbacks. */
  public long total() {
    return error + timeout + invalid + budget + busy;
  }
}
