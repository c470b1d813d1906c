package dev.memhook.api.capture;

/**
 * Turns a raw observation into its compressed form, typically with a language model. Optional: the
 * service compresses with a local synthetic compressor unless one is configured.
 *
 * <p>The service calls it from its capture thread under a call budget and a timeout (see {@code
 * CaptureOptions}). Whatever it does wrong — throws, takes too long, returns null or an answer that
 * fails the checks on {@link CompressedObservation} — the observation is stored in its synthetic
 * form and the fallback is counted; the raw observation is never lost. Implementations must be
 * thread-safe.
 */
public interface Compressor {

  /** Compresses one observation. May throw; see above. */
  CompressedObservation compress(Observation observation) throws Exception;

  /** A short name for logs and counters. */
  default String name() {
    return getClass().getSimpleName();
  }
}
