package dev.memhook.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.api.trace.FetchRecord;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.MemoryTrace;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.api.trace.ReceiptCandidate;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ModelReply;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link MemhookMetrics} on a real service: a hooked, scripted conversation with a model {@code
 * get_memory} call moves the meters the receipts, fetches and capture events say it should, and ten
 * times more memories and messages add no meter.
 */
class MemhookMetricsServiceTest {

  private static final Duration GENEROUS = Duration.ofSeconds(30);

  /** What the meters should read, derived from what the service itself reports. */
  private record Counts(
      double attempts,
      double injectedAttempts,
      double injectedMemories,
      double gateDrops,
      double deliveries,
      long recalls,
      double found,
      double forgotten,
      double observationsStored,
      double memoriesForgotten,
      double storedInDefault) {}

  @Test
  void aHookedConversation_movesTheMeters_andTheMeterCountStaysFixedAsItGrows() throws Exception {
    MeterRegistry registry = new SimpleMeterRegistry();
    MemhookMetrics metrics = MemhookMetrics.builder().scopes(List.of(Scope.DEFAULT)).build();
    metrics.bindTo(registry);
    try (MemoryService memory =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).listener(metrics).build()) {
      metrics.serviceMeters(memory).bindTo(registry);
      Memory staging =
          memory.remember(
              MemoryDraft.of(Scope.DEFAULT, "The staging database is reset every night at 2am."));
      memory.remember(
          MemoryDraft.of(Scope.DEFAULT, "Kafka consumer lag alerts page the on-call engineer."));
      Memory old =
          memory.remember(
              MemoryDraft.of(Scope.DEFAULT, "Redis eviction policy is allkeys-lru on the cache."));
      assertTrue(memory.forget(old.id()));

      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());
      chat.scriptReplies(
          ModelReply.builder()
              .toolCall(
                  "get_memory", Map.of("ids", List.of(staging.id().value(), old.id().value())))
              .build(),
          ModelReply.text("It is reset every night at 2am."),
          ModelReply.text("The on-call engineer is paged for consumer lag."));
      // statements with their questions: capture stores a bare question or a bare "ok" only in
      // its session, never as an observation
      chat.sendUser("I need fresh staging data. When is the staging database reset?")
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      chat.sendUser("Lag alerts fired twice tonight. Who is paged for kafka consumer lag alerts?")
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      assertTrue(memory.capture().flush(GENEROUS));
      assertTrue(hook.injectedIds().contains(staging.id()), "the hook injected the staging memory");

      Counts expected = expected(memory);
      awaitCounts(registry, memory, expected);
      assertTrue(expected.injectedAttempts() >= 1, "" + expected);
      assertTrue(expected.deliveries() >= 2, "each request after the injection carried it");
      assertEquals(1.0, expected.found(), "the model's fetch only, not the hook's injection");
      assertEquals(1.0, expected.forgotten());
      assertEquals(1.0, expected.memoriesForgotten());
      assertTrue(expected.observationsStored() >= 4, "user turns and answers were captured");
      assertTrue(
          registry
                  .get("memhook.injections")
                  .tags("phase", "before_send_loop", "outcome", "injected")
                  .counter()
                  .count()
              >= 1);
      assertEquals(0.0, registry.get("memhook.listener.failures").functionCounter().count());
      assertEquals(0.0, registry.get("memhook.listener.dropped").functionCounter().count());
      assertEquals(0.0, registry.get("memhook.capture.failures").functionCounter().count());
      assertEquals(0.0, registry.get("memhook.capture.pending").gauge().value());

      Set<String> meters = meterIds(registry);
      int meterCount = registry.getMeters().size();
      assertEquals(36, meterCount, meters.toString());

      // ten times the memories and the messages
      for (int i = 0; i < 30; i++) {
        memory.remember(
            MemoryDraft.of(
                Scope.DEFAULT, "Service number " + i + " deploys from branch release-" + i));
      }
      for (int i = 0; i < 20; i++) {
        chat.sendUser("which branch does service number " + i + " deploy from?")
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
      }
      assertTrue(memory.capture().flush(GENEROUS));
      Counts grown = expected(memory);
      awaitCounts(registry, memory, grown);
      assertTrue(grown.attempts() > expected.attempts(), "the growth ran more attempts");
      assertTrue(grown.storedInDefault() >= expected.storedInDefault() + 30);
      assertEquals(meterCount, registry.getMeters().size(), "no meter per memory or message");
      assertEquals(meters, meterIds(registry));
    }
  }

  /** The counts the service's own records imply; every receipt is still in recentReceipts. */
  private static Counts expected(MemoryService memory) {
    List<InjectionReceipt> receipts = memory.trace().recentReceipts();
    assertTrue(receipts.size() < MemoryTrace.MAX_RECENT_RECEIPTS, "none evicted yet");
    List<InjectionReceipt> injected =
        receipts.stream().filter(r -> r.injection().status() == PhaseStatus.Status.OK).toList();
    Set<ReceiptCandidate.Decision> gate =
        Set.of(
            ReceiptCandidate.Decision.RELEVANCE_GATE,
            ReceiptCandidate.Decision.SESSION_CAP,
            ReceiptCandidate.Decision.LIMIT);
    return new Counts(
        receipts.size(),
        injected.stream().filter(r -> r.phase() == HookPhase.BEFORE_SEND_LOOP).count(),
        injected.stream().mapToInt(r -> r.injectedIds().size()).sum(),
        receipts.stream()
            .flatMap(r -> r.candidates().stream())
            .filter(c -> gate.contains(c.decision()))
            .count(),
        receipts.stream().mapToInt(r -> r.appearances().size()).sum(),
        receipts.stream().filter(r -> r.recall().status() == PhaseStatus.Status.OK).count(),
        // only the model's own call is a fetch; the hook's injected summary calls are not
        1.0,
        1.0,
        memory.capture().stats().processed(),
        1.0,
        memory.maintenance().count(Scope.DEFAULT));
  }

  /** What the meters read; found, forgotten and forgotten events are read, not derived. */
  private static Counts observed(MeterRegistry registry) {
    return new Counts(
        sum(registry, "memhook.injections"),
        registry
            .get("memhook.injections")
            .tags("phase", "before_send_loop", "outcome", "injected")
            .counter()
            .count(),
        sum(registry, "memhook.injected.memories"),
        sum(registry, "memhook.gate.drops"),
        registry.get("memhook.deliveries").counter().count(),
        registry.get("memhook.recall").tag("signal", "all").timer().count(),
        registry
            .get("memhook.fetches")
            .tag("outcome", tag(FetchRecord.Outcome.FOUND))
            .counter()
            .count(),
        registry
            .get("memhook.fetches")
            .tag("outcome", tag(FetchRecord.Outcome.FORGOTTEN))
            .counter()
            .count(),
        registry
            .get("memhook.capture.events")
            .tag("kind", tag(CaptureEvent.Kind.OBSERVATION_STORED))
            .counter()
            .count(),
        registry
            .get("memhook.capture.events")
            .tag("kind", tag(CaptureEvent.Kind.MEMORY_FORGOTTEN))
            .counter()
            .count(),
        registry.get("memhook.store.memories").tag("scope", "default").gauge().value());
  }

  /** Waits, at most ten seconds, for the listener thread to catch up with {@code expected}. */
  private static void awaitCounts(MeterRegistry registry, MemoryService memory, Counts expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    Counts seen = observed(registry);
    while (!seen.equals(expected) && System.nanoTime() < deadline) {
      Thread.sleep(10);
      seen = observed(registry);
    }
    assertEquals(expected, seen, "listener stats: " + memory.trace().listenerStats());
  }

  private static double sum(MeterRegistry registry, String name) {
    return registry.get(name).counters().stream().mapToDouble(c -> c.count()).sum();
  }

  private static String tag(Enum<?> value) {
    return EventMeters.tag(value);
  }

  private static Set<String> meterIds(MeterRegistry registry) {
    Set<String> ids = new TreeSet<>();
    for (Meter m : registry.getMeters()) {
      ids.add(m.getId().toString());
    }
    return ids;
  }
}
