package dev.memhook.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.api.trace.FetchRecord;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.api.trace.PhaseStatus.Status;
import dev.memhook.api.trace.ReceiptCandidate;
import dev.memhook.api.trace.RequestAppearance;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MemhookMetrics} fed synthetic receipts, fetches and capture events directly: which meter
 * each event moves, receipts counted once per attempt, and the fixed set of meters.
 */
class MemhookMetricsTest {

  private static final Instant AT = Instant.parse("2026-11-30T10:15:00Z");
  private static final Scope SCOPE = Scope.of("acme");

  private final MeterRegistry registry = new SimpleMeterRegistry();
  private MemoryService service;
  private MemhookMetrics metrics;

  private MeterBinder serviceMeters;

  @BeforeEach
  void bind() {
    metrics = MemhookMetrics.builder().scopes(List.of(SCOPE)).build();
    metrics.bindTo(registry);
    service =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .noCapture()
            .listener(metrics)
            .build();
    serviceMeters = metrics.serviceMeters(service);
    serviceMeters.bindTo(registry);
  }

  @AfterEach
  void close() {
    service.close();
  }

  @Test
  void everyMeterIsRegisteredAtBind_atZero() {
    // 4 recall timers, 2x5 injections, 2 injected.memories, 3 gate drops, 5 fetches,
    // 5 capture events, deliveries, 2 listener, 2 capture stats, 1 scope gauge
    assertEquals(36, registry.getMeters().size(), names());
    assertEquals(0.0, count("memhook.injections", "phase", "after_send", "outcome", "timed_out"));
    assertEquals(0.0, count("memhook.fetches", "outcome", "error"));
    assertEquals(0, registry.get("memhook.recall").tag("signal", "all").timer().count());
  }

  @Test
  void anInjectedReceipt_countsOnce_andEachAppearanceIsOneDelivery() {
    InjectionReceipt first =
        receipt(
            HookPhase.BEFORE_SEND_LOOP,
            ok(Duration.ofMillis(40)),
            ok(Duration.ZERO),
            ok(Duration.ZERO),
            List.of(id("m1"), id("m2")),
            List.of(
                candidate("m1", ReceiptCandidate.Decision.SELECTED),
                candidate("m2", ReceiptCandidate.Decision.SELECTED),
                candidate("m3", ReceiptCandidate.Decision.RELEVANCE_GATE),
                candidate("m4", ReceiptCandidate.Decision.RELEVANCE_GATE),
                candidate("m5", ReceiptCandidate.Decision.LIMIT),
                candidate("m6", ReceiptCandidate.Decision.ALREADY_INJECTED)));
    InjectionReceipt once = first.withAppearance(appearance("req_1"), "call_1");
    InjectionReceipt twice = once.withAppearance(appearance("req_2"), "call_1");

    metrics.receipt(first);
    metrics.delivered(once, once.appearances().get(0));
    metrics.delivered(twice, twice.appearances().get(1));

    assertEquals(
        1.0, count("memhook.injections", "phase", "before_send_loop", "outcome", "injected"));
    assertEquals(1.0, sum("memhook.injections"), "deliveries are not attempts");
    assertEquals(2.0, count("memhook.injected.memories", "phase", "before_send_loop"));
    assertEquals(2.0, count("memhook.gate.drops", "rule", "relevance_gate"));
    assertEquals(1.0, count("memhook.gate.drops", "rule", "limit"));
    assertEquals(0.0, count("memhook.gate.drops", "rule", "session_cap"));
    assertEquals(2.0, count("memhook.deliveries"));
    var recall = registry.get("memhook.recall").tag("signal", "all").timer();
    assertEquals(1, recall.count());
    assertEquals(40.0, recall.totalTime(TimeUnit.MILLISECONDS));
  }

  @Test
  void eachPhaseOutcome_mapsToItsInjectionOutcome() {
    metrics.receipt(
        receipt(
            HookPhase.AFTER_SEND,
            new PhaseStatus(Status.TIMED_OUT, Duration.ofSeconds(2), "waited"),
            PhaseStatus.skipped("recall did not answer"),
            PhaseStatus.skipped("recall did not answer"),
            List.of(),
            List.of()));
    metrics.receipt(
        receipt(
            HookPhase.AFTER_SEND,
            new PhaseStatus(Status.FAILED, Duration.ofMillis(3), "disk on fire"),
            PhaseStatus.skipped("recall did not answer"),
            PhaseStatus.skipped("recall did not answer"),
            List.of(),
            List.of()));
    metrics.receipt(
        receipt(
            HookPhase.BEFORE_SEND_LOOP,
            ok(Duration.ofMillis(5)),
            new PhaseStatus(Status.EMPTY, Duration.ZERO, "no candidate passed the gate"),
            PhaseStatus.skipped("nothing new"),
            List.of(),
            List.of(candidate("m1", ReceiptCandidate.Decision.RELEVANCE_GATE))));
    metrics.receipt(
        receipt(
            HookPhase.BEFORE_SEND_LOOP,
            ok(Duration.ofMillis(5)),
            ok(Duration.ZERO),
            PhaseStatus.skipped("nothing new"),
            List.of(),
            List.of(candidate("m1", ReceiptCandidate.Decision.ALREADY_INJECTED))));
    metrics.receipt(
        receipt(
            HookPhase.BEFORE_SEND_LOOP,
            ok(Duration.ofMillis(5)),
            ok(Duration.ZERO),
            new PhaseStatus(Status.FAILED, Duration.ZERO, "queue refused"),
            List.of(),
            List.of(candidate("m1", ReceiptCandidate.Decision.SELECTED))));

    assertEquals(1.0, count("memhook.injections", "phase", "after_send", "outcome", "timed_out"));
    assertEquals(1.0, count("memhook.injections", "phase", "after_send", "outcome", "failed"));
    assertEquals(1.0, count("memhook.injections", "phase", "before_send_loop", "outcome", "empty"));
    assertEquals(
        1.0, count("memhook.injections", "phase", "before_send_loop", "outcome", "skipped"));
    assertEquals(
        1.0, count("memhook.injections", "phase", "before_send_loop", "outcome", "failed"));
    assertEquals(0.0, sum("memhook.injected.memories"), "a failed injection injected nothing");
    assertEquals(0.0, count("memhook.deliveries"));
    assertEquals(
        3,
        registry.get("memhook.recall").tag("signal", "all").timer().count(),
        "a recall that failed or timed out is not a recall time");
  }

  @Test
  void aFetch_countsEachIdByOutcome_andARefusedCallOnceAsError() {
    metrics.fetched(
        fetch(
            List.of(
                new FetchRecord.FetchedId("m1", FetchRecord.Outcome.FOUND),
                new FetchRecord.FetchedId("m2", FetchRecord.Outcome.FOUND),
                new FetchRecord.FetchedId("m3", FetchRecord.Outcome.FORGOTTEN),
                new FetchRecord.FetchedId("m4", FetchRecord.Outcome.OUT_OF_SCOPE)),
            null));
    metrics.fetched(
        fetch(List.of(new FetchRecord.FetchedId("m9", FetchRecord.Outcome.UNKNOWN)), "not_found"));
    metrics.fetched(fetch(List.of(), "invalid_arguments"));
    metrics.fetched(fetch(List.of(), "store_unavailable"));

    assertEquals(2.0, count("memhook.fetches", "outcome", "found"));
    assertEquals(1.0, count("memhook.fetches", "outcome", "forgotten"));
    assertEquals(1.0, count("memhook.fetches", "outcome", "out_of_scope"));
    assertEquals(1.0, count("memhook.fetches", "outcome", "unknown"));
    assertEquals(2.0, count("memhook.fetches", "outcome", "error"), "not_found is an id outcome");
  }

  @Test
  void captureEvents_areCountedByKind() {
    for (CaptureEvent.Kind k :
        List.of(
            CaptureEvent.Kind.OBSERVATION_STORED,
            CaptureEvent.Kind.OBSERVATION_STORED,
            CaptureEvent.Kind.EVENT_SHED,
            CaptureEvent.Kind.MEMORY_FORGOTTEN)) {
      metrics.captured(new CaptureEvent(k, AT, SCOPE, null, null, "test"));
    }
    assertEquals(2.0, count("memhook.capture.events", "kind", "observation_stored"));
    assertEquals(1.0, count("memhook.capture.events", "kind", "event_shed"));
    assertEquals(1.0, count("memhook.capture.events", "kind", "memory_forgotten"));
    assertEquals(0.0, count("memhook.capture.events", "kind", "compression_fell_back"));
    assertEquals(0.0, count("memhook.capture.events", "kind", "consolidation_fell_back"));
  }

  @Test
  void recordRecall_timesEachSignalTheResultTimed() {
    metrics.recordRecall(
        new RecallResult(
            List.of(),
            List.of(),
            Map.of(Signal.TEXT, Duration.ofMillis(2), Signal.VECTOR, Duration.ofMillis(7))));
    assertEquals(1, registry.get("memhook.recall").tag("signal", "text").timer().count());
    assertEquals(
        7.0,
        registry
            .get("memhook.recall")
            .tag("signal", "vector")
            .timer()
            .totalTime(TimeUnit.MILLISECONDS));
    assertEquals(0, registry.get("memhook.recall").tag("signal", "graph").timer().count());
    assertEquals(0, registry.get("memhook.recall").tag("signal", "all").timer().count());
  }

  @Test
  void storeGauge_readsTheServiceCount_andNaNOnceClosed() {
    assertEquals(0.0, registry.get("memhook.store.memories").tag("scope", "acme").gauge().value());
    service.remember(MemoryDraft.of(SCOPE, "The staging database is reset every night at 2am."));
    service.remember(MemoryDraft.of(Scope.DEFAULT, "Not in the watched scope."));
    assertEquals(1.0, registry.get("memhook.store.memories").tag("scope", "acme").gauge().value());
    service.close();
    assertTrue(
        Double.isNaN(registry.get("memhook.store.memories").tag("scope", "acme").gauge().value()));
    assertEquals(
        0.0,
        registry.get("memhook.capture.failures").functionCounter().count(),
        "a closed service's counter keeps its last value");
  }

  @Test
  void bindingTheSameRegistryTwice_countsOnce() {
    metrics.bindTo(registry);
    serviceMeters.bindTo(registry); // as Spring Boot binds a MeterBinder bean again
    metrics.captured(new CaptureEvent(CaptureEvent.Kind.EVENT_SHED, AT, null, null, null, "full"));
    assertEquals(1.0, count("memhook.capture.events", "kind", "event_shed"));
    assertEquals(36, registry.getMeters().size());
  }

  @Test
  void eventsAreRecordedInEveryBoundRegistry_andCommonTagsApply() {
    MemhookMetrics tagged =
        MemhookMetrics.builder().tags(Tags.of("application", "checkout")).build();
    MeterRegistry one = new SimpleMeterRegistry();
    MeterRegistry two = new SimpleMeterRegistry();
    for (MeterRegistry r : List.of(one, two)) {
      tagged.bindTo(r);
      tagged.serviceMeters(service).bindTo(r);
    }
    tagged.captured(new CaptureEvent(CaptureEvent.Kind.EVENT_SHED, AT, null, null, null, "full"));
    for (MeterRegistry r : List.of(one, two)) {
      assertEquals(
          1.0,
          r.get("memhook.capture.events")
              .tags("kind", "event_shed", "application", "checkout")
              .counter()
              .count());
      assertEquals(35, r.getMeters().size(), "no scope gauge");
    }
  }

  @Test
  void builder_rejectsReservedTagKeys_tooManyScopes_andSecondCalls() {
    IllegalArgumentException reserved =
        assertThrows(
            IllegalArgumentException.class,
            () -> MemhookMetrics.builder().tags(Tags.of("outcome", "x")));
    assertTrue(reserved.getMessage().contains("'outcome'"), reserved.getMessage());
    List<Scope> many = new ArrayList<>();
    for (int i = 0; i <= MemhookMetrics.MAX_SCOPES; i++) {
      many.add(Scope.of("tenant" + i));
    }
    IllegalArgumentException tooMany =
        assertThrows(IllegalArgumentException.class, () -> MemhookMetrics.builder().scopes(many));
    assertTrue(tooMany.getMessage().contains("65"), tooMany.getMessage());
    MemhookMetrics.Builder b = MemhookMetrics.builder().scopes(List.of(SCOPE, SCOPE));
    assertThrows(IllegalStateException.class, () -> b.scopes(List.of()));
    assertEquals(List.of(SCOPE), b.build().scopes(), "a repeated scope counts once");
  }

  // ---- helpers ---------------------------------------------------------------------------

  private double count(String name, String... tags) {
    return registry.get(name).tags(tags).counter().count();
  }

  private double sum(String name) {
    return registry.get(name).counters().stream().mapToDouble(c -> c.count()).sum();
  }

  private String names() {
    return registry.getMeters().stream()
        .map(Meter::getId)
        .map(Object::toString)
        .toList()
        .toString();
  }

  private static MemoryId id(String value) {
    return MemoryId.of(value);
  }

  private static PhaseStatus ok(Duration took) {
    return new PhaseStatus(Status.OK, took, "");
  }

  private static ReceiptCandidate candidate(String id, ReceiptCandidate.Decision decision) {
    return new ReceiptCandidate(id(id), SCOPE, "msg_1", 0.5, List.of(), decision, "test");
  }

  private static RequestAppearance appearance(String attempt) {
    return new RequestAppearance(attempt, "call_msg", "result_msg", AT);
  }

  private static InjectionReceipt receipt(
      HookPhase phase,
      PhaseStatus recall,
      PhaseStatus gate,
      PhaseStatus injection,
      List<MemoryId> injected,
      List<ReceiptCandidate> candidates) {
    PhaseStatus delivery =
        injection.status() == Status.OK
            ? new PhaseStatus(Status.PENDING, Duration.ZERO, "no submitted request yet")
            : PhaseStatus.skipped("nothing was injected");
    return new InjectionReceipt(
        "rcpt_" + Long.toHexString(System.nanoTime()),
        "hook_1",
        List.of(SCOPE),
        phase,
        AT,
        List.of("msg_1"),
        candidates,
        injected,
        null,
        InjectionReceipt.Representation.SUMMARY,
        recall,
        gate,
        injection,
        delivery,
        List.of(),
        Map.of());
  }

  private static FetchRecord fetch(List<FetchRecord.FetchedId> ids, String errorCode) {
    return new FetchRecord(
        "hook_1",
        "call_9",
        AT,
        Map.of(),
        Map.of(),
        ids,
        InjectionReceipt.Representation.FULL,
        errorCode);
  }
}
