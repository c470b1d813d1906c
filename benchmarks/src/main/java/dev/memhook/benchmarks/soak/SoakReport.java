package dev.memhook.benchmarks.soak;

import dev.memhook.benchmarks.soak.SoakStats.Op;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What one soak run did and found; {@link #format()} is the readable report.
 *
 * @param config the run's configuration
 * @param preload what the preload did
 * @param mixed how long the mixed phase ran
 * @param latencies latency of each operation (count = operations done)
 * @param outcomes operations by outcome
 * @param documentedExceptions documented exceptions of the direct methods, by method and type
 * @param hookFailures failures hooks reported to their listener, by type
 * @param modelFetches the fake model's own get_memory fetches, by answer
 * @param injections injection events
 * @param injectedIds ids injected
 * @param duplicateInjections ids a hook injected twice (conversation check)
 * @param conversations conversations completed and verified
 * @param heapPeakAfterGcBytes the largest live heap sampled after a full collection
 * @param heapPoolPeaksBytes the sum of the heap pools' peaks (garbage included)
 * @param heapMaxBytes {@code -Xmx}
 * @param heapSamples samples taken
 * @param heapTrend second- and last-quarter medians, if both quarters have samples
 * @param violations violations by kind
 * @param details kept details per kind
 */
record SoakReport(
    SoakConfig config,
    Preload.Result preload,
    Duration mixed,
    Map<Op, LatencyHistogram.Summary> latencies,
    Map<String, Long> outcomes,
    Map<String, Long> documentedExceptions,
    Map<String, Long> hookFailures,
    Map<String, Long> modelFetches,
    long injections,
    long injectedIds,
    long duplicateInjections,
    long conversations,
    long heapPeakAfterGcBytes,
    long heapPoolPeaksBytes,
    long heapMaxBytes,
    int heapSamples,
    Optional<HeapTrend.Trend> heapTrend,
    Map<String, Long> violations,
    Map<String, List<String>> details) {

  /** Whether the run broke no rule. */
  boolean ok() {
    return violations.isEmpty();
  }

  /** Operations of {@code op} done. */
  long count(Op op) {
    return latencies.get(op).count();
  }

  String format() {
    StringBuilder sb = new StringBuilder();
    line(sb, "==== Memhook soak: %s", ok() ? "PASSED" : "FAILED");
    line(
        sb,
        "config: memories=%d hooks=%d workers=%d observers=%d scopes=%d duration=%s seed=%d"
            + " embedder=%s turns/conversation=%d recallTimeout=%dms stallWindow=%ds",
        config.memories(),
        config.hooks(),
        config.workers(),
        config.observers(),
        config.scopes(),
        config.duration(),
        config.seed(),
        config.embedder(),
        config.turnsPerConversation(),
        config.recallTimeout().toMillis(),
        config.stallWindow().toSeconds());
    line(
        sb,
        "preload: %d memories in %.1f s (%.0f/s, store putAll, batches of %d)",
        preload.memories(),
        preload.elapsed().toMillis() / 1000.0,
        preload.perSecond(),
        Preload.BATCH);
    line(sb, "mixed phase: %.1f s", mixed.toMillis() / 1000.0);
    line(sb, "latency (ms)      count      p50      p90      p99      max   per s");
    for (Map.Entry<Op, LatencyHistogram.Summary> e : latencies.entrySet()) {
      LatencyHistogram.Summary s = e.getValue();
      line(
          sb,
          "  %-10s %10d %8.2f %8.2f %8.2f %8.1f %7.1f",
          e.getKey().name().toLowerCase(Locale.ROOT),
          s.count(),
          ms(s.p50()),
          ms(s.p90()),
          ms(s.p99()),
          ms(s.max()),
          s.count() / Math.max(1e-9, mixed.toNanos() / 1e9));
    }
    line(sb, "outcomes: %s", outcomes);
    line(sb, "documented exceptions (direct calls): %s", documentedExceptions);
    line(sb, "hook failures reported to listeners: %s", hookFailures);
    line(sb, "model get_memory fetches: %s", modelFetches);
    line(
        sb,
        "injections: %d events, %d ids, %d conversations verified, duplicates=%d",
        injections,
        injectedIds,
        conversations,
        duplicateInjections);
    line(
        sb,
        "heap: peak after full GC %.1f MiB, pool peaks (garbage included) %.1f MiB, max %.0f MiB,"
            + " %d samples",
        HeapTrend.mib(heapPeakAfterGcBytes),
        HeapTrend.mib(heapPoolPeaksBytes),
        HeapTrend.mib(heapMaxBytes),
        heapSamples);
    heapTrend.ifPresentOrElse(
        t ->
            line(
                sb,
                "heap trend: second-quarter median %.1f MiB, last-quarter median %.1f MiB",
                HeapTrend.mib(t.secondQuarterMedian()),
                HeapTrend.mib(t.lastQuarterMedian())),
        () -> line(sb, "heap trend: too few samples to compare quarters"));
    if (ok()) {
      line(sb, "violations: none");
    } else {
      line(sb, "violations: %s", violations);
      details.forEach((kind, list) -> list.forEach(d -> line(sb, "  [%s] %s", kind, d)));
    }
    return sb.toString();
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }

  private static void line(StringBuilder sb, String format, Object... args) {
    sb.append(String.format(Locale.ROOT, format, args)).append('\n');
  }
}
