package dev.memhook.core.internal.compress;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.api.capture.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/**
 * A provider's {@link Consolidator} under the same guard as a provider's compressor (see {@link
 * GuardedCompressor}): each call must fit a budget of calls per rolling minute, finish within a
 * timeout, and return consolidations that pass {@link AnswerCheck#problem(List, Set)} (content that
 * is not blank, every text within the {@link dev.memhook.api.MemoryDraft} limits, an importance in
 * 0..1, sources among the session's observations, at most {@value AnswerCheck#MAX_CONSOLIDATIONS}
 * of them). In every other case (the call throws, times out, answers wrongly, is over budget, or
 * every pool thread is still stuck in an earlier call) the session is consolidated by the {@link
 * HeuristicConsolidator} and the fallback is counted by reason. A provider's answer is used whole
 * or not at all. Without a provider, every session is consolidated heuristically and nothing is
 * counted.
 *
 * <p>Capture waits for the call (it runs under the capture worker's lock), so the timeout bounds
 * how long a slow or hung provider holds up later capture: at most one timeout per call, and, once
 * every pool thread is stuck in a provider that ignores interrupts, none. The provider gets an
 * unmodifiable copy of the observations, so what it does to them cannot reach the fallback. Calls
 * run on threads named {@code memhook-consolidator-N}; see {@link ProviderGuard}.
 *
 * <p>Thread-safe. {@link #consolidate} throws only for a null argument or what the heuristic
 * consolidator throws. {@link #close()} is idempotent and stops the pool, cancelling a call in
 * flight; after it every session is consolidated heuristically, the one whose call it cancelled
 * included.
 */
public final class GuardedConsolidator implements Consolidator, AutoCloseable {

  private final HeuristicConsolidator heuristic = new HeuristicConsolidator();
  private final Consolidator provider;
  private final String providerName;
  private final ProviderGuard guard;
  private final BiConsumer<Session, String> onFallback;

  /**
   * A guard for the options' consolidator, timeout and budget, on the system's clock, telling
   * {@code onFallback} of each fallback: the session and the reason ({@code error}, {@code
   * timeout}, {@code invalid}, {@code budget}, {@code busy}). What {@code onFallback} throws is
   * ignored.
   */
  public static GuardedConsolidator of(
      CaptureOptions options, BiConsumer<Session, String> onFallback) {
    return new GuardedConsolidator(
        options.consolidator(),
        options.consolidatorTimeout(),
        options.consolidatorCallsPerMinute(),
        System::nanoTime,
        onFallback);
  }

  /**
   * @param provider the consolidator to guard, or null to consolidate heuristically only
   * @param timeout how long one call may take; positive
   * @param callsPerMinute how many calls a rolling minute may take; 0 or more
   * @param nanoTime a monotonic clock in nanoseconds for the budget and the log limit
   * @param onFallback told of each fallback; what it throws is ignored
   */
  public GuardedConsolidator(
      Consolidator provider,
      Duration timeout,
      int callsPerMinute,
      LongSupplier nanoTime,
      BiConsumer<Session, String> onFallback) {
    ProviderGuard.checkSettings(timeout, callsPerMinute, nanoTime);
    this.onFallback = Objects.requireNonNull(onFallback, "onFallback");
    this.provider = provider;
    this.providerName = provider == null ? "none" : ProviderGuard.nameOf(provider, provider::name);
    this.guard =
        provider == null
            ? null
            : new ProviderGuard("consolidator", providerName, timeout, callsPerMinute, nanoTime);
  }

  @Override
  public List<Consolidation> consolidate(Session session, List<Memory> observations) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(observations, "observations");
    if (guard == null) {
      return heuristic.consolidate(session, observations);
    }
    List<Memory> given = List.copyOf(observations);
    Set<MemoryId> ids = new HashSet<>();
    given.forEach(m -> ids.add(m.id()));
    List<Consolidation> answer =
        guard.call(
            () -> copy(provider.consolidate(session, given)),
            found -> AnswerCheck.problem(found, ids),
            "session " + session.id(),
            reason -> onFallback.accept(session, reason));
    return answer != null ? List.copyOf(answer) : heuristic.consolidate(session, given);
  }

  /** A copy the provider cannot change once it is checked; null elements kept for the check. */
  private static List<Consolidation> copy(List<Consolidation> answer) {
    return answer == null ? null : new ArrayList<>(answer);
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
    return provider == null ? heuristic.name() : providerName;
  }

  /** Stops the pool, cancelling calls in flight; idempotent. */
  @Override
  public void close() {
    if (guard != null) {
      guard.close();
    }
  }
}
