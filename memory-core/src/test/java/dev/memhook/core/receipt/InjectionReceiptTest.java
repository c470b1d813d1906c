package dev.memhook.core.receipt;

import static dev.memhook.core.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.TextHits;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.api.trace.PhaseStatus.Status;
import dev.memhook.api.trace.ReceiptCandidate;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Every injection attempt leaves a receipt whose phases say what happened, each on its own: what
 * recall found and the gate dropped, whether the pair was queued, whether delivery can be known;
 * and what a listener does with a receipt changes nothing.
 */
class InjectionReceiptTest {

  private static final Duration GENEROUS = Duration.ofSeconds(30);

  private static MemoryService service(Memhook.Builder b) {
    return b.embedder(HashingEmbedder.create()).noCapture().build();
  }

  @Test
  void anInjection_leavesAReceiptNamingItsTrigger_itsCandidates_andEveryPhase() throws Exception {
    try (MemoryService memory = service(Memhook.builder().inMemory())) {
      Memory m = memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is pg-7."));
      FakeChatService fake = FakeChatService.create();
      NonReportingChat chat = new NonReportingChat(fake);
      MemoryHook hook =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());
      ChatMessage question = fake.queueUser("which staging database do we use?");

      fake.send().toCompletableFuture().get(30, TimeUnit.SECONDS);

      InjectionReceipt r = hook.receipts().get(0);
      assertEquals(hook.id(), r.hookId());
      assertEquals(HookPhase.BEFORE_SEND_LOOP, r.phase());
      assertEquals(List.of(question.id()), r.triggerMessageIds());
      assertEquals(List.of(m.id()), r.injectedIds());
      assertEquals(Status.OK, r.recall().status());
      assertEquals(Status.OK, r.gate().status());
      assertEquals(Status.OK, r.injection().status());
      assertEquals(Status.UNKNOWN, r.delivery().status(), "this chat service does not report");
      assertEquals(InjectionReceipt.Representation.SUMMARY, r.representation());
      ReceiptCandidate c = r.about(m.id()).get(0);
      assertEquals(ReceiptCandidate.Decision.SELECTED, c.decision());
      assertEquals(question.id(), c.triggerMessageId());
      assertTrue(!c.signals().isEmpty(), "its per-signal ranks and scores");
      // the afterSend of the same loop saw the pair in the conversation: its call id is known
      String callId = fake.toolCalls("get_memory").get(0).id();
      assertEquals(callId, hook.receipts().get(0).toolCallId());
      assertEquals(hook.receipts(), memory.trace().recentReceipts(), "the service keeps them too");
    }
  }

  @Test
  void aMemoryTheGateDropped_isOnTheReceipt_namingTheGateAndTheFloorItMissed() throws Exception {
    RecallOptions strict =
        RecallOptions.builder().minTextScore(0.9).minCosine(0.99).evidenceFloors(0.99, 0.9).build();
    try (MemoryService memory = service(Memhook.builder().inMemory().recallOptions(strict))) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is reset at 2am."));
      Memory weak =
          memory.remember(
              MemoryDraft.of(
                  Scope.DEFAULT,
                  "Lunch menu for the offsite: soup, bread, and a staging of the school play."));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());

      chat.sendUser("when is the staging database reset?")
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);

      ReceiptCandidate dropped = hook.receipts().get(0).about(weak.id()).get(0);
      assertEquals(ReceiptCandidate.Decision.RELEVANCE_GATE, dropped.decision());
      assertTrue(dropped.detail().contains("< 0.90"), "the text floor: " + dropped.detail());
      assertTrue(dropped.detail().contains("< 0.99"), "the cosine floor: " + dropped.detail());
      assertTrue(!dropped.signals().isEmpty(), "with the ranks that found it");
    }
  }

  @Test
  void aRecallThatThrew_namesRecallAsTheFailedPhase_andTheTurnCompletes() throws Exception {
    MemoryStore failing =
        new ForwardingMemoryStore(LuceneMemoryStore.builder().inMemory().build()) {
          @Override
          public TextHits searchText(Scope scope, String query, int k) {
            throw new MemoryStoreException("disk on fire");
          }
        };
    try (MemoryService memory = service(Memhook.builder().store(failing))) {
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());

      chat.sendUser("anything?").toCompletableFuture().get(30, TimeUnit.SECONDS);

      InjectionReceipt r = hook.receipts().get(0);
      assertEquals(Status.FAILED, r.recall().status());
      assertTrue(r.recall().detail().contains("disk on fire"), r.recall().detail());
      assertEquals(Status.SKIPPED, r.gate().status());
      assertEquals(Status.SKIPPED, r.injection().status());
      assertEquals(Status.SKIPPED, r.delivery().status());
      assertEquals("ok", chat.messages().get(chat.messages().size() - 1).text(), "turn went on");
    }
  }

  @Test
  void aRecallThatTimedOut_saysHowLongTheHookWaited() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    MemoryStore slow =
        new ForwardingMemoryStore(LuceneMemoryStore.builder().inMemory().build()) {
          @Override
          public TextHits searchText(Scope scope, String query, int k) {
            try {
              release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return super.searchText(scope, query, k);
          }
        };
    try (MemoryService memory = service(Memhook.builder().store(slow))) {
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(
              chat, HookOptions.builder().recallTimeout(Duration.ofMillis(100)).build());
      try {
        chat.sendUser("anything?").toCompletableFuture().get(30, TimeUnit.SECONDS);
      } finally {
        release.countDown();
      }

      InjectionReceipt r = hook.receipts().get(0);
      assertEquals(Status.TIMED_OUT, r.recall().status());
      assertTrue(r.recall().took().compareTo(Duration.ofMillis(100)) >= 0, r.recall().toString());
      assertEquals(Status.SKIPPED, r.injection().status());
    }
  }

  @Test
  void recallSucceededButInjectionFailed_isNeverReportedAsARecallOutage() throws Exception {
    try (MemoryService memory = service(Memhook.builder().inMemory())) {
      Memory m = memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is pg-7."));
      FakeChatService fake = FakeChatService.create();
      NonReportingChat chat =
          new NonReportingChat(
              fake,
              (tool, args) -> CompletableFuture.failedFuture(new IllegalStateException("no slot")));
      MemoryHook hook =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());

      fake.sendUser("which staging database?").toCompletableFuture().get(30, TimeUnit.SECONDS);

      InjectionReceipt r = hook.receipts().get(0);
      assertEquals(Status.OK, r.recall().status());
      assertEquals(Status.OK, r.gate().status());
      assertEquals(Status.FAILED, r.injection().status());
      assertTrue(r.injection().detail().contains("no slot"), r.injection().detail());
      assertEquals(List.of(), r.injectedIds());
      assertEquals(ReceiptCandidate.Decision.SELECTED, r.about(m.id()).get(0).decision());
      assertEquals(Status.SKIPPED, r.delivery().status());
      assertNull(r.toolCallId());
    }
  }

  @Test
  void aListenerThatMutatesWhatItGot_andThrows_changesNothing() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    MemoryListener hostile =
        new MemoryListener() {
          @Override
          public void receipt(InjectionReceipt receipt) {
            calls.incrementAndGet();
            assertThrows(UnsupportedOperationException.class, () -> receipt.candidates().clear());
            assertThrows(UnsupportedOperationException.class, () -> receipt.injectedIds().clear());
            throw new IllegalStateException("listener bug");
          }
        };
    try (MemoryService memory = service(Memhook.builder().inMemory().listener(hostile));
        MemoryService twin = service(Memhook.builder().inMemory())) {
      Memory m = memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is pg-7."));
      twin.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is pg-7."));
      FakeChatService chat = FakeChatService.create();
      FakeChatService calm = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(
              chat, HookOptions.builder().recallTimeout(GENEROUS).listener(hostile).build());
      MemoryHook calmHook =
          twin.hookInto(calm, HookOptions.builder().recallTimeout(GENEROUS).build());

      chat.sendUser("which staging database?").toCompletableFuture().get(30, TimeUnit.SECONDS);
      calm.sendUser("which staging database?").toCompletableFuture().get(30, TimeUnit.SECONDS);
      chat.sendUser("and the staging database host?")
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      calm.sendUser("and the staging database host?")
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);

      eventually(() -> assertTrue(memory.trace().listenerStats().failed() >= 2, "counted"));
      assertTrue(calls.get() >= 2);
      InjectionReceipt r = hook.receipts().get(0);
      assertEquals(List.of(m.id()), r.injectedIds(), "the receipt is unchanged");
      assertTrue(!r.candidates().isEmpty());
      assertEquals(
          roles(calm.messages()), roles(chat.messages()), "the turns went as without the listener");
      assertEquals(calmHook.injectedIds().size(), hook.injectedIds().size());
    }
  }

  @Test
  void recentReceipts_andAHooksReceipts_areBounded() throws Exception {
    try (MemoryService memory = service(Memhook.builder().inMemory())) {
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());
      for (int i = 0; i < MemoryHook.MAX_RECEIPTS + 10; i++) {
        chat.append(ChatMessage.user("question " + i));
        chat.fireBeforeSendLoop().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }

      List<InjectionReceipt> kept = hook.receipts();
      assertEquals(MemoryHook.MAX_RECEIPTS, kept.size());
      assertEquals(
          "question " + 10,
          chat.messages().stream()
              .filter(x -> x.id().equals(kept.get(0).triggerMessageIds().get(0)))
              .findFirst()
              .orElseThrow()
              .text(),
          "the oldest were pushed out");
      assertEquals(Status.EMPTY, kept.get(0).gate().status(), "an empty store recalls nothing");
    }
  }

  private static List<String> roles(List<ChatMessage> messages) {
    return messages.stream().map(m -> m.role() + ":" + m.origin()).toList();
  }

  @Test
  void receiptsReachTheServiceListener_offTheHooksPath() throws Exception {
    List<InjectionReceipt> heard = new CopyOnWriteArrayList<>();
    CountDownLatch slow = new CountDownLatch(1);
    MemoryListener sleepy =
        new MemoryListener() {
          @Override
          public void receipt(InjectionReceipt receipt) {
            try {
              slow.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            heard.add(receipt);
          }
        };
    try (MemoryService memory = service(Memhook.builder().inMemory().listener(sleepy))) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is pg-7."));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());

      chat.sendUser("which staging database?").toCompletableFuture().get(30, TimeUnit.SECONDS);

      assertEquals(1, chat.toolCalls("get_memory").size(), "the turn did not wait for it");
      assertTrue(heard.isEmpty());
      slow.countDown();
      eventually(() -> assertTrue(!heard.isEmpty()));
      assertNotNull(heard.get(0).id());
      assertEquals(hook.receipts().get(0).id(), heard.get(0).id());
    }
  }
}
