package dev.memhook.micrometer;

import dev.memhook.api.Signal;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.api.trace.FetchRecord;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.api.trace.ReceiptCandidate;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The meters {@link MemhookMetrics} feeds from listener events, on one registry: every tag
 * combination registered up front, so recording is a lookup by enum and the meter count is fixed.
 *
 * <p>Thread-safe: the maps are filled in the constructor and only read after; Micrometer's meters
 * are thread-safe.
 */
final class EventMeters {

  static final String SIGNAL = "signal";
  static final String PHASE = "phase";
  static final String OUTCOME = "outcome";
  static final String RULE = "rule";
  static final String KIND = "kind";

  /** The {@code signal} value of a whole recall, as a receipt times it. */
  static final String ALL_SIGNALS = "all";

  /** The {@code outcome} of a fetch call the tool refused or could not answer as a whole. */
  static final String FETCH_ERROR = "error";

  /** The error code that is an id's outcome rather than a failed call. */
  private static final String NOT_FOUND = "not_found";

  private final Timer recallAll;
  private final Map<Signal, Timer> recallBySignal = new EnumMap<>(Signal.class);
  private final Map<HookPhase, Map<MemhookMetrics.InjectionOutcome, Counter>> injections =
      new EnumMap<>(HookPhase.class);
  private final Map<HookPhase, Counter> injectedMemories = new EnumMap<>(HookPhase.class);
  private final Map<ReceiptCandidate.Decision, Counter> gateDrops =
      new EnumMap<>(ReceiptCandidate.Decision.class);
  private final Map<FetchRecord.Outcome, Counter> fetches =
      new EnumMap<>(FetchRecord.Outcome.class);
  private final Counter fetchErrors;
  private final Map<CaptureEvent.Kind, Counter> captureEvents =
      new EnumMap<>(CaptureEvent.Kind.class);
  private final Counter deliveries;

  private EventMeters(MeterRegistry registry, Tags common) {
    recallAll = recallTimer(registry, common, ALL_SIGNALS);
    for (Signal s : Signal.values()) {
      recallBySignal.put(s, recallTimer(registry, common, tag(s)));
    }
    for (HookPhase phase : HookPhase.values()) {
      Map<MemhookMetrics.InjectionOutcome, Counter> byOutcome =
          new EnumMap<>(MemhookMetrics.InjectionOutcome.class);
      for (MemhookMetrics.InjectionOutcome o : MemhookMetrics.InjectionOutcome.values()) {
        byOutcome.put(
            o,
            Counter.builder("memhook.injections")
                .description("Injection attempts of Memhook's hooks, by how each ended")
                .tags(common)
                .tag(PHASE, tag(phase))
                .tag(OUTCOME, o.tag)
                .register(registry));
      }
      injections.put(phase, byOutcome);
      injectedMemories.put(
          phase,
          Counter.builder("memhook.injected.memories")
              .description("Memories Memhook's hooks injected into conversations")
              .baseUnit("memories")
              .tags(common)
              .tag(PHASE, tag(phase))
              .register(registry));
    }
    for (ReceiptCandidate.Decision d :
        new ReceiptCandidate.Decision[] {
          ReceiptCandidate.Decision.RELEVANCE_GATE,
          ReceiptCandidate.Decision.SESSION_CAP,
          ReceiptCandidate.Decision.LIMIT
        }) {
      gateDrops.put(
          d,
          Counter.builder("memhook.gate.drops")
              .description("Recall candidates the gate dropped in injection attempts, by rule")
              .baseUnit("memories")
              .tags(common)
              .tag(RULE, tag(d))
              .register(registry));
    }
    for (FetchRecord.Outcome o : FetchRecord.Outcome.values()) {
      fetches.put(o, fetchCounter(registry, common, tag(o)));
    }
    fetchErrors = fetchCounter(registry, common, FETCH_ERROR);
    for (CaptureEvent.Kind k : CaptureEvent.Kind.values()) {
      captureEvents.put(
          k,
          Counter.builder("memhook.capture.events")
              .description("Capture pipeline and forget events, by kind")
              .tags(common)
              .tag(KIND, tag(k))
              .register(registry));
    }
    deliveries =
        Counter.builder("memhook.deliveries")
            .description("Submitted model requests that carried an injected memory pair")
            .baseUnit("requests")
            .tags(common)
            .register(registry);
  }

  /** Registers (or finds) every event meter on {@code registry}. */
  static EventMeters register(MeterRegistry registry, Tags common) {
    return new EventMeters(registry, common);
  }

  /** An attempt's first receipt: its outcome, recall time, gate drops and injected memories. */
  void attempt(InjectionReceipt r, MemhookMetrics.InjectionOutcome outcome) {
    injections.get(r.phase()).get(outcome).increment();
    if (r.recall().status() == PhaseStatus.Status.OK) {
      recallAll.record(r.recall().took());
      r.recallTimes().forEach((signal, d) -> recallBySignal.get(signal).record(d));
    }
    for (ReceiptCandidate c : r.candidates()) {
      Counter drop = gateDrops.get(c.decision());
      if (drop != null) {
        drop.increment();
      }
    }
    if (outcome == MemhookMetrics.InjectionOutcome.INJECTED) {
      injectedMemories.get(r.phase()).increment(r.injectedIds().size());
    }
  }

  /** One more submitted request carried an injected pair. */
  void delivered() {
    deliveries.increment();
  }

  /**
   * One {@code get_memory} call: each requested id by what it came to, and the call once as {@code
   * error} when the tool answered it with an error other than {@code not_found} (which is an id's
   * outcome, already counted by id).
   */
  void fetched(FetchRecord f) {
    for (FetchRecord.FetchedId id : f.ids()) {
      fetches.get(id.outcome()).increment();
    }
    if (f.errorCode() != null && !NOT_FOUND.equals(f.errorCode())) {
      fetchErrors.increment();
    }
  }

  void captured(CaptureEvent.Kind kind) {
    captureEvents.get(kind).increment();
  }

  void recall(Map<Signal, Duration> took) {
    took.forEach((signal, d) -> recallBySignal.get(signal).record(d));
  }

  private static Timer recallTimer(MeterRegistry registry, Tags common, String signal) {
    return Timer.builder("memhook.recall")
        .description(
            "Recall time: a hook's whole recall (signal=all), or one signal's search in a recall"
                + " the host made")
        .tags(common)
        .tag(SIGNAL, signal)
        .register(registry);
  }

  private static Counter fetchCounter(MeterRegistry registry, Tags common, String outcome) {
    return Counter.builder("memhook.fetches")
        .description(
            "Ids the model asked get_memory for, by what each came to; error counts a call the"
                + " tool refused or could not answer")
        .tags(common)
        .tag(OUTCOME, outcome)
        .register(registry);
  }

  static String tag(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }
}
