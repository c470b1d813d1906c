package dev.memhook.core.internal.compress;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.Compressor;
import dev.memhook.api.capture.Observation;
import dev.memhook.core.internal.logging.WarnLimiter;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>Calls run on a pool of its own of at most {@value #MAX_THREADS} daemon threads named {@code
 * memhook-compressor-N}, without a queue: the caller waits at most the timeout, and a call still
 * running then is cancelled (interrupted). A provider that ignores interrupts keeps its thread;
 * once every thread is stuck so, further calls fall back at once ({@link Fallbacks#busy}) instead
 * of waiting a timeout each, so a provider that hangs forever never stalls capture by more than one
 * timeout per stuck thread.
 *
 * <p>Fallbacks are logged at WARN at most once per {@value #WARN_INTERVAL_SECONDS} seconds, each
 * line saying how many were held back; the rest at DEBUG.
 *
 * <p>Thread-safe. {@link #compress} never throws but for a null observation. {@link #close()} is
 * idempotent and stops the pool; after it every observation is compressed synthetically.
 */
public final class GuardedCompressor implements Compressor, AutoCloseable {

  /** The most calls in flight at once; more than the capture pipeline's one thread ever needs. */
  static final int MAX_THREADS = 4;

  static final long WARN_INTERVAL_SECONDS = 30;

  private static final Logger LOG = LoggerFactory.getLogger(GuardedCompressor.class);

  /**
   * How many observations fell back to the synthetic form, by reason.
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

  private final SyntheticCompressor synthetic = new SyntheticCompressor();
  private final Compressor provider;
  private final String providerName;
  private final long timeoutNanos;
  private final CallBudget budget;
  private final ThreadPoolExecutor pool;
  private final WarnLimiter warnings;
  private final AtomicLong errors = new AtomicLong();
  private final AtomicLong timeouts = new AtomicLong();
  private final AtomicLong invalid = new AtomicLong();
  private final AtomicLong overBudget = new AtomicLong();
  private final AtomicLong busy = new AtomicLong();
  private final AtomicLong answered = new AtomicLong();

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
    GuardedCompressor guard =
        new GuardedCompressor(
            options.compressor(),
            options.compressorTimeout(),
            options.compressorCallsPerMinute(),
            System::nanoTime);
    guard.onFallback = Objects.requireNonNull(onFallback, "onFallback");
    return guard;
  }

  /** Told of each fallback; set once, before the guard is shared. */
  private BiConsumer<Observation, String> onFallback = (observation, reason) -> {};

  /**
   * @param provider the compressor to guard, or null to compress synthetically only
   * @param timeout how long one call may take; positive
   * @param callsPerMinute how many calls a rolling minute may take; 0 or more
   * @param nanoTime a monotonic clock in nanoseconds for the budget and the log limit
   */
  public GuardedCompressor(
      Compressor provider, Duration timeout, int callsPerMinute, LongSupplier nanoTime) {
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(nanoTime, "nanoTime");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    this.provider = provider;
    this.providerName = provider == null ? "none" : nameOf(provider);
    this.timeoutNanos = timeout.toNanos();
    this.budget = new CallBudget(callsPerMinute, nanoTime);
    this.warnings = new WarnLimiter(Duration.ofSeconds(WARN_INTERVAL_SECONDS), nanoTime);
    this.pool =
        provider == null
            ? null
            : new ThreadPoolExecutor(
                0,
                MAX_THREADS,
                60,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                new ThreadFactoryBuilder()
                    .setNameFormat("memhook-compressor-%d")
                    .setDaemon(true)
                    .build());
  }

  @Override
  public CompressedObservation compress(Observation observation) {
    Objects.requireNonNull(observation, "observation");
    if (provider == null || pool.isShutdown()) {
      return synthetic.compress(observation);
    }
    if (!budget.tryAcquire()) {
      return fallBack(observation, overBudget, "budget", "the budget of calls per minute is spent");
    }
    Future<CompressedObservation> call;
    try {
      call = pool.submit(() -> provider.compress(observation));
    } catch (RejectedExecutionException e) {
      return pool.isShutdown()
          ? synthetic.compress(observation)
          : fallBack(observation, busy, "busy", "every compressor thread is still in a call");
    }
    CompressedObservation answer;
    try {
      answer = call.get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      call.cancel(true);
      return fallBack(
          observation, timeouts, "timeout", "no answer within " + Duration.ofNanos(timeoutNanos));
    } catch (ExecutionException e) {
      return fallBack(observation, errors, "error", String.valueOf(e.getCause()));
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      return fallBack(observation, errors, "error", "interrupted while waiting for the answer");
    }
    String problem = AnswerCheck.problem(answer);
    if (problem != null) {
      return fallBack(observation, invalid, "invalid", problem);
    }
    answered.incrementAndGet();
    return answer;
  }

  private CompressedObservation fallBack(
      Observation observation, AtomicLong counter, String reason, String detail) {
    counter.incrementAndGet();
    try {
      onFallback.accept(observation, reason);
    } catch (RuntimeException e) {
      LOG.debug("a fallback listener failed", e);
    }
    WarnLimiter.Decision decision = warnings.next();
    if (decision.warn()) {
      LOG.warn(
          "compressor {} fell back to the local form for {} ({}: {}); {} similar fallbacks since"
              + " the last warning",
          providerName,
          observation.id().value(),
          reason,
          detail,
          decision.heldBack());
    } else {
      LOG.debug(
          "compressor {} fell back for {} ({}: {})",
          providerName,
          observation.id().value(),
          reason,
          detail);
    }
    return synthetic.compress(observation);
  }

  /** The fallbacks so far. */
  public Fallbacks fallbacks() {
    return new Fallbacks(errors.get(), timeouts.get(), invalid.get(), overBudget.get(), busy.get());
  }

  /** How many provider answers were used. */
  public long providerAnswers() {
    return answered.get();
  }

  @Override
  public String name() {
    return provider == null ? synthetic.name() : providerName;
  }

  private static String nameOf(Compressor provider) {
    try {
      String name = provider.name();
      return name == null || name.isBlank() ? provider.getClass().getName() : name;
    } catch (RuntimeException e) { // a name is for logs; a broken one must not stop capture
      return provider.getClass().getName();
    }
  }

  /** Stops the pool, interrupting calls in flight; idempotent. */
  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
