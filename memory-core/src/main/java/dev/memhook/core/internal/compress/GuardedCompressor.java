package dev.memhook.core.internal.compress;

import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.Compressor;
import dev.memhook.api.capture.Observation;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/**
 * A provider's {@link Compressor} under guard: each call must fit a budget of calls per rolling
 * minute, finish within a timeout, and return an answer that passes the checks on {@link
 * CompressedObservation} (a non-blank title, every text within the {@link
 * dev.memhook.api.MemoryDraft} limits, at most {@code MAX_CONCEPTS} concepts and {@code MAX_FILES}
 * files, an importance in 0..1, a kind). In every other case (the call throws, times out, answers
 * wrongly, is over budget, or every pool thread is still stuck in an earlier call) the observation
 * gets its {@link SyntheticCompressor} form and the fallback is counted by reason. Without a
 * provider, every observation is compressed synthetically and nothing is counted.
 *
 * <p>Calls run on threads named {@code memhook-compressor-N}, at most {@value
 * ProviderGuard#MAX_THREADS}; how a call that hangs is cut short and how fallbacks are logged is
 * {@link ProviderGuard}'s, which {@link GuardedConsolidator} shares.
 *
 * <p>Thread-safe. {@link #compress} never throws but for a null observation. {@link #close()} is
 * idempotent and stops the pool, cancelling a call in flight; after it every observation is
 * compressed synthetically, the one whose call it cancelled included.
 */
public final class GuardedCompressor implements Compressor, AutoCloseable {

  private final SyntheticCompressor synthetic = new SyntheticCompressor();
  private final Compressor provider;
  private final String providerName;
  private final ProviderGuard guard;
  private final BiConsumer<Observation, String> onFallback;

  /** A guard for the options' compressor, timeout and budget, on the system's clock. */
  public static GuardedCompressor of(CaptureOptions options) {
    return of(options, (observation, reason) -> {});
  }

  /**
   * As {@link #of(CaptureOptions)}, telling {@code onFallback} of each fallback: the observation
   * and the reason ({@code error}, {@code timeout}, {@code invalid}, {@code budget}, {@code busy}).
   * What {@code onFallback} throws is ignored.
   */
  public static GuardedCompressor of(
      CaptureOptions options, BiConsumer<Observation, String> onFallback) {
    return new GuardedCompressor(
        options.compressor(),
        options.compressorTimeout(),
        options.compressorCallsPerMinute(),
        System::nanoTime,
        onFallback);
  }

  /**
   * @param provider the compressor to guard, or null to compress synthetically only
   * @param timeout how long one call may take; positive
   * @param callsPerMinute how many calls a rolling minute may take; 0 or more
   * @param nanoTime a monotonic clock in nanoseconds for the budget and the log limit
   */
  public GuardedCompressor(
      Compressor provider, Duration timeout, int callsPerMinute, LongSupplier nanoTime) {
    this(provider, timeout, callsPerMinute, nanoTime, (observation, reason) -> {});
  }

  private GuardedCompressor(
      Compressor provider,
      Duration timeout,
      int callsPerMinute,
      LongSupplier nanoTime,
      BiConsumer<Observation, String> onFallback) {
    ProviderGuard.checkSettings(timeout, callsPerMinute, nanoTime);
    this.onFallback = Objects.requireNonNull(onFallback, "onFallback");
    this.provider = provider;
    this.providerName = provider == null ? "none" : ProviderGuard.nameOf(provider, provider::name);
    this.guard =
        provider == null
            ? null
            : new ProviderGuard("compressor", providerName, timeout, callsPerMinute, nanoTime);
  }

  @Override
  public CompressedObservation compress(Observation observation) {
    Objects.requireNonNull(observation, "observation");
    if (guard == null) {
      return synthetic.compress(observation);
    }
    CompressedObservation answer =
        guard.call(
            () -> provider.compress(observation),
            AnswerCheck::problem,
            observation.id().value(),
            reason -> onFallback.accept(observation, reason));
    return answer != null ? answer : synthetic.compress(observation);
  }

  /** The fallbacks so far. */
  public Fallbacks fallbacks() {
    return guard == null ? new Fallbacks(0, 0, 0, 0, 0) : guard.fallbacks();
  }

  /** How many provider answers were used. */
  public long providerAnswers() {
    return guard == null ? 0 : guard.answered();
  }

  @Override
  public String name() {
    return provider == null ? synthetic.name() : providerName;
  }

  /** Stops the pool, cancelling calls in flight; idempotent. */
  @Override
  public void close() {
    if (guard != null) {
      guard.close();
    }
  }
}
