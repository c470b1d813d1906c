package dev.memhook.core.internal.compress;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.memhook.core.internal.logging.WarnLimiter;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls into a provider (a language model behind a capture SPI) under guard: each call must fit a
 * budget of calls per rolling minute, finish within a timeout and return an answer that passes the
 * caller's check. Otherwise the call falls back: the caller uses its local form, and the fallback
 * is counted by reason, logged and told to the caller's listener. {@link GuardedCompressor} and
 * {@link GuardedConsolidator} each hold one, so both SPIs are guarded by the same rules.
 *
 * <p>Calls run on a pool of its own of at most {@value #MAX_THREADS} daemon threads named {@code
 * memhook-<what>-N}, without a queue: the caller waits at most the timeout, and a call still
 * running then is cancelled (interrupted). A provider that ignores interrupts keeps its thread;
 * once every thread is stuck so, further calls fall back at once ({@code busy}) instead of waiting
 * a timeout each, so a provider that hangs forever never stalls its caller by more than one timeout
 * per stuck thread.
 *
 * <p>Fallbacks are logged at WARN at most once per {@value #WARN_INTERVAL_SECONDS} seconds, each
 * line saying how many were held back; the rest at DEBUG.
 *
 * <p>Thread-safe. {@link #close()} is idempotent, stops the pool and cancels the calls in flight,
 * so their callers stop waiting at once; after it every call is refused without counting, and a
 * call it cancelled is refused so too.
 */
final class ProviderGuard implements AutoCloseable {

  /** The most calls in flight at once; more than the capture pipeline's one thread ever needs. */
  static final int MAX_THREADS = 4;

  static final long WARN_INTERVAL_SECONDS = 30;

  private static final Logger LOG = LoggerFactory.getLogger(ProviderGuard.class);

  private final String what;
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

  /** The calls whose callers wait: cancelled by {@link #close()}. */
  private final Set<Future<?>> inFlight = ConcurrentHashMap.newKeySet();

  /**
   * @param what what the provider is, for thread names and logs: {@code compressor}, {@code
   *     consolidator}
   * @param providerName the provider's name for logs
   * @param timeout how long one call may take; positive
   * @param callsPerMinute how many calls a rolling minute may take; 0 or more
   * @param nanoTime a monotonic clock in nanoseconds for the budget and the log limit
   */
  ProviderGuard(
      String what,
      String providerName,
      Duration timeout,
      int callsPerMinute,
      LongSupplier nanoTime) {
    this.what = Objects.requireNonNull(what, "what");
    this.providerName = Objects.requireNonNull(providerName, "providerName");
    checkSettings(timeout, callsPerMinute, nanoTime);
    this.timeoutNanos = timeout.toNanos();
    this.budget = new CallBudget(callsPerMinute, nanoTime);
    this.warnings = new WarnLimiter(Duration.ofSeconds(WARN_INTERVAL_SECONDS), nanoTime);
    this.pool =
        new ThreadPoolExecutor(
            0,
            MAX_THREADS,
            60,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            new ThreadFactoryBuilder()
                .setNameFormat("memhook-" + what + "-%d")
                .setDaemon(true)
                .build());
  }

  /** Checks a guard's settings, so a guard without a provider rejects what one with would. */
  static void checkSettings(Duration timeout, int callsPerMinute, LongSupplier nanoTime) {
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(nanoTime, "nanoTime");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    if (callsPerMinute < 0) {
      throw new IllegalArgumentException("callsPerMinute must be 0 or more, got " + callsPerMinute);
    }
  }

  /**
   * Calls {@code call} under the budget and the timeout and checks its answer.
   *
   * @param check why an answer is unusable, in words for the log, or null if it is usable; given
   *     null when the provider answered null
   * @param subject what the call was about, for the log (an id; never memory text)
   * @param onFallback told the reason of a fallback ({@code error}, {@code timeout}, {@code
   *     invalid}, {@code budget}, {@code busy}); what it throws is ignored
   * @return the provider's answer, or null when the caller must use its local form: the guard is
   *     closed, before or during the call (nothing counted), or the call fell back (counted,
   *     logged, told)
   */
  <T> T call(
      Callable<T> call, Function<T, String> check, String subject, Consumer<String> onFallback) {
    if (pool.isShutdown()) {
      return null;
    }
    if (!budget.tryAcquire()) {
      return fallBack(
          overBudget, "budget", "the budget of calls per minute is spent", subject, onFallback);
    }
    Future<T> future;
    try {
      future = pool.submit(call);
    } catch (RejectedExecutionException e) {
      return pool.isShutdown()
          ? null
          : fallBack(
              busy, "busy", "every " + what + " thread is still in a call", subject, onFallback);
    }
    inFlight.add(future);
    if (pool.isShutdown()) {
      future.cancel(true); // closed since submit: close() may not have seen this call
    }
    T answer;
    try {
      answer = future.get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (CancellationException e) {
      return null; // close() cancelled it: the caller uses its local form, nothing counted
    } catch (TimeoutException e) {
      future.cancel(true);
      return fallBack(
          timeouts,
          "timeout",
          "no answer within " + Duration.ofNanos(timeoutNanos),
          subject,
          onFallback);
    } catch (ExecutionException e) {
      return fallBack(errors, "error", String.valueOf(e.getCause()), subject, onFallback);
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      return fallBack(
          errors, "error", "interrupted while waiting for the answer", subject, onFallback);
    } finally {
      inFlight.remove(future);
    }
    String problem;
    try {
      problem = check.apply(answer);
    } catch (RuntimeException e) { // a check tripped by a malformed answer: unusable all the same
      problem = String.valueOf(e);
    }
    if (problem != null) {
      return fallBack(invalid, "invalid", problem, subject, onFallback);
    }
    answered.incrementAndGet();
    return answer;
  }

  private <T> T fallBack(
      AtomicLong counter,
      String reason,
      String detail,
      String subject,
      Consumer<String> onFallback) {
    counter.incrementAndGet();
    try {
      onFallback.accept(reason);
    } catch (RuntimeException e) {
      LOG.debug("a fallback listener failed", e);
    }
    WarnLimiter.Decision decision = warnings.next();
    if (decision.warn()) {
      LOG.warn(
          "{} {} fell back to the local form for {} ({}: {}); {} similar fallbacks since the last"
              + " warning",
          what,
          providerName,
          subject,
          reason,
          detail,
          decision.heldBack());
    } else {
      LOG.debug("{} {} fell back for {} ({}: {})", what, providerName, subject, reason, detail);
    }
    return null;
  }

  /** The fallbacks so far. */
  Fallbacks fallbacks() {
    return new Fallbacks(errors.get(), timeouts.get(), invalid.get(), overBudget.get(), busy.get());
  }

  /** How many provider answers were used. */
  long answered() {
    return answered.get();
  }

  /** A provider's name for logs: its own, or its class's when that is blank or throws. */
  static String nameOf(Object provider, Callable<String> name) {
    try {
      String n = name.call();
      return n == null || n.isBlank() ? provider.getClass().getName() : n;
    } catch (Exception | LinkageError e) { // a name is for logs; a broken one must not stop capture
      return provider.getClass().getName();
    }
  }

  /**
   * Stops the pool, interrupting calls in flight and cancelling them, so that their callers stop
   * waiting at once and use their local form; idempotent.
   */
  @Override
  public void close() {
    pool.shutdownNow();
    inFlight.forEach(f -> f.cancel(true));
  }
}
