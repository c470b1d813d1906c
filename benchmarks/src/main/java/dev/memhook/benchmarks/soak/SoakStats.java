package dev.memhook.benchmarks.soak;

import dev.memhook.api.MemoryException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** What the workers count and time during the mixed phase. Thread-safe. */
final class SoakStats {

  /** The operations timed, in report order. */
  enum Op {
    REMEMBER,
    RECALL,
    FORGET,
    TURN,
    OBSERVE
  }

  private final Map<Op, LatencyHistogram> latency = new LinkedHashMap<>();

  /** Operations by outcome, such as {@code forget/true} or {@code turn/ok}. */
  final Tally outcomes = new Tally();

  /**
   * Exceptions the direct methods threw that their contract documents ({@link MemoryException}
   * subtypes, {@link IllegalArgumentException}), by method and type.
   */
  final Tally documentedExceptions = new Tally();

  /** What hooks reported to their listener as failed, by cause type. */
  final Tally hookFailures = new Tally();

  /** What the fake model's own {@code get_memory} fetches got back, by kind. */
  final Tally modelFetches = new Tally();

  /** Ids injected by hooks, counted per injection event. */
  final LongAdder injectedIds = new LongAdder();

  /** Injection events (one batched {@code get_memory} call each). */
  final LongAdder injections = new LongAdder();

  /** Ids a hook injected a second time: must stay zero. */
  final LongAdder duplicateInjections = new LongAdder();

  /** Conversations (one hook each) completed and verified. */
  final LongAdder conversations = new LongAdder();

  SoakStats() {
    for (Op op : Op.values()) {
      latency.put(op, new LatencyHistogram());
    }
  }

  void time(Op op, long nanos) {
    latency.get(op).record(nanos);
  }

  /** Latency summaries in report order. */
  Map<Op, LatencyHistogram.Summary> latencies() {
    Map<Op, LatencyHistogram.Summary> out = new LinkedHashMap<>();
    latency.forEach((op, h) -> out.put(op, h.summary()));
    return out;
  }
}
