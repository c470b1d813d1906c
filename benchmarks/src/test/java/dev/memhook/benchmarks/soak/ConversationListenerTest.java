package dev.memhook.benchmarks.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.RecallTimeoutException;
import dev.memhook.api.Scope;
import dev.memhook.api.trace.HookPhase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-hook checks, fed injections a broken hook would report. */
class ConversationListenerTest {

  private final MemoryLedger ledger = new MemoryLedger(MemoryLedger.scopes(3), 100);
  private final Findings findings = new Findings();
  private final SoakStats stats = new SoakStats();
  private final Scope acme = ledger.scopeOfItem(0);
  private final ConversationListener listener =
      new ConversationListener(acme, ledger, findings, stats);

  @Test
  void anIdInjectedTwiceByOneHook_isAnAtMostOnceViolation() {
    listener.injected("h", HookPhase.BEFORE_SEND_LOOP, List.of(id(0), id(1)));
    listener.injected("h", HookPhase.AFTER_SEND, List.of(id(1)));
    assertEquals(Map.of("at-most-once", 1L), findings.counts());
    assertEquals(3, stats.injectedIds.sum());
  }

  @Test
  void anIdOfAnotherScope_isAScopeViolation_andOneNotKnownYetIsSettledLater() {
    listener.injected("h", HookPhase.BEFORE_SEND_LOOP, List.of(id(MemoryLedger.SESSION)));
    assertEquals(Map.of("scope isolation", 1L), findings.counts());
    assertTrue(findings.details("scope isolation").get(0).contains("of scope acme/alice"));

    MemoryId late = MemoryId.of("late-one");
    listener.injected("h", HookPhase.AFTER_SEND, List.of(late));
    ledger.remembered(late, ledger.scopes().get(2));
    ledger.settle(findings);
    assertEquals(Map.of("scope isolation", 2L), findings.counts());
  }

  @Test
  void anIdForgottenBeforeTheTurnStarted_mustNotBeInjected() throws Exception {
    assertTrue(ledger.forgotten(id(3)));
    Thread.sleep(1);
    listener.turnStarts();
    listener.injected("h", HookPhase.BEFORE_SEND_LOOP, List.of(id(3)));
    assertEquals(Map.of("forgotten injected", 1L), findings.counts());
    assertTrue(!ledger.forgotten(id(3)), "a second successful forget is reported by the ledger");
  }

  @Test
  void aRecallTimeoutOrRefusalIsCounted_butAnyOtherHookFailureIsAViolation() {
    listener.failed("h", HookPhase.AFTER_SEND, new RecallTimeoutException("slow"));
    listener.failed(
        "h",
        HookPhase.BEFORE_SEND_LOOP,
        new java.util.concurrent.RejectedExecutionException("full"));
    assertTrue(findings.isEmpty());
    listener.failed("h", HookPhase.AFTER_SEND, new MemoryStoreException("disk"));
    assertEquals(Map.of("hook failure", 1L), findings.counts());
    assertEquals(
        Map.of(
            "RecallTimeoutException", 1L,
            "RejectedExecutionException", 1L,
            "MemoryStoreException", 1L),
        stats.hookFailures.snapshot());
  }

  private static MemoryId id(int index) {
    return MemoryId.of(String.format(java.util.Locale.ROOT, "bench-%08d", index));
  }
}
