package dev.memhook.core.internal.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookListener;
import dev.memhook.api.HookOptions;
import dev.memhook.api.HookPhase;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.RecallTimeoutException;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.TextHits;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ForwardingMemoryStore;
import dev.memhook.testkit.ModelReply;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

abstract class HookLifecycleContract {

  /** A new, empty, unattached store for one service. */
  abstract dev.memhook.api.spi.MemoryStore newStore();


  private static final Duration GENEROUS = Duration.ofSeconds(30);

  private MemoryService service() {
    return Memhook.builder().store(newStore()).embedder(HashingEmbedder.create()).build();
  }

  @Test
  void twoHooksOnTwoChatServices_injectIndependently() throws Exception {
    try (MemoryService memory = service()) {
      Memory m = memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is reset every night at 2am."));
      FakeChatService first = FakeChatService.create();
      FakeChatService second = FakeChatService.create();
      HookOptions options = HookOptions.builder().recallTimeout(GENEROUS).build();
      MemoryHook hook1 = memory.hookInto(first, options);
      MemoryHook hook2 = memory.hookInto(second, options);

      first.sendUser("when is the staging database reset?").toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(Set.of(m.id()), hook1.injectedIds());
      assertEquals(Set.of(), hook2.injectedIds(), "the other hook saw nothing yet");

      second.sendUser("is the staging database reset at night?").toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(Set.of(m.id()), hook2.injectedIds(), "each hook has its own set");
      assertEquals(1, first.toolCalls("get_memory").size());
      assertEquals(1, second.toolCalls("get_memory").size());
      hook1.close();
      hook2.close();
    }
  }

  @Test
  void disposedHook_injectsNothing_andUnregistersEverything() throws Exception {
    try (MemoryService memory = service()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is reset every night at 2am."));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook = memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());
      assertEquals(new FakeChatService.Registrations(1, 1, 1), chat.registrations());
      hook.dispose();
      hook.dispose();
      assertTrue(hook.isDisposed());
      assertEquals(new FakeChatService.Registrations(0, 0, 0), chat.registrations());
      chat.sendUser("when is the staging database reset?").toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertTrue(chat.toolCalls("get_memory").isEmpty());
      assertTrue(hook.injectedIds().isEmpty());
      // the service forgot the old hook, so the chat service can be hooked again
      try (MemoryHook again = memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build())) {
        chat.sendUser("staging database reset time?").toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertEquals(1, again.injectedIds().size());
      }
    }
  }

  @Test
  void hookingTheSameChatServiceTwice_failsFast() {
    try (MemoryService memory = service()) {
      FakeChatService chat = FakeChatService.create();
      try (MemoryHook hook = memory.hookInto(chat)) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> memory.hookInto(chat));
        assertTrue(e.getMessage().contains("already has a live hook"), e.getMessage());
        assertFalse(hook.isDisposed());
      }
    }
  }

  @Test
  void closingTheService_disposesItsHooks() {
    MemoryService memory = service();
    FakeChatService chat = FakeChatService.create();
    MemoryHook hook = memory.hookInto(chat);
    memory.close();
    assertTrue(hook.isDisposed());
    assertEquals(new FakeChatService.Registrations(0, 0, 0), chat.registrations());
    assertThrows(IllegalStateException.class, () -> memory.recall(dev.memhook.api.RecallQuery.of(Scope.DEFAULT, "x")));
  }

  @Test
  void beforeSendLoop_ignoresReasoningAndAssistantMessages() throws Exception {
    try (MemoryService memory = service()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "Kafka consumer lag alerts page the on-call engineer."));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook = memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());
      chat.append(dev.memhook.api.chat.ChatMessage.reasoning("kafka consumer lag alerts"),
          dev.memhook.api.chat.ChatMessage.assistant("kafka consumer lag alerts"));
      chat.fireBeforeSendLoop().toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertTrue(hook.injectedIds().isEmpty());
      chat.fireAfterSend().toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(1, hook.injectedIds().size(), "afterSend picks the reasoning up");
      assertEquals(1, chat.resendRequests());
    }
  }

  @Test
  void afterSend_ignoresUserMessages_andDoesNotAskForResendWhenNothingIsInjected() throws Exception {
    try (MemoryService memory = service()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "Kafka consumer lag alerts page the on-call engineer."));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook = memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());
      chat.append(dev.memhook.api.chat.ChatMessage.user("kafka consumer lag alerts"));
      chat.fireAfterSend().toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertTrue(hook.injectedIds().isEmpty());
      assertEquals(0, chat.resendRequests());
    }
  }

  @Test
  void injection_isCappedPerMessageAndPerCallback() throws Exception {
    try (MemoryService memory = service()) {
      for (int i = 0; i < 5; i++) {
        memory.remember(MemoryDraft.of(Scope.DEFAULT, "Kafka consumer lag alert rule number " + i));
        memory.remember(MemoryDraft.of(Scope.DEFAULT, "Redis eviction policy note number " + i));
      }
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook = memory.hookInto(chat, HookOptions.builder()
          .maxPerMessage(3).maxPerCallback(4).recallTimeout(GENEROUS).build());
      chat.append(dev.memhook.api.chat.ChatMessage.user("kafka consumer lag alert rule"),
          dev.memhook.api.chat.ChatMessage.user("redis eviction policy note"));
      chat.fireBeforeSendLoop().toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(1, chat.toolCalls("get_memory").size(), "one batch for both messages");
      assertEquals(4, hook.injectedIds().size(), "3 from the first message, then capped at 4");
    }
  }

  @Test
  void aFailingStore_neverBreaksTheTurn_andTheFailureIsReported() throws Exception {
    MemoryStore failing = new ForwardingMemoryStore(newStore()) {
      @Override
      public TextHits searchText(Scope scope, String query, int k) {
        throw new MemoryStoreException("disk on fire");
      }
    };
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    try (MemoryService memory = Memhook.builder().store(failing).embedder(HashingEmbedder.create()).build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "anything at all"));
      FakeChatService chat = FakeChatService.create();
      memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).listener(new HookListener() {
        @Override
        public void failed(String hookId, HookPhase phase, Throwable cause) {
          failures.add(cause);
        }
      }).build());
      chat.scriptReplies(ModelReply.builder().reasoning("anything").assistant("fine").build());
      chat.sendUser("anything at all?").toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertTrue(chat.toolCalls("get_memory").isEmpty());
      assertEquals(List.of(ChatRole.USER, ChatRole.REASONING, ChatRole.ASSISTANT),
          chat.messages().stream().map(m -> m.role()).toList(), "the turn went on");
      assertEquals(2, failures.size(), "both phases reported: " + failures);
      assertInstanceOf(MemoryStoreException.class, failures.get(0));
    }
  }

  @Test
  void aSlowRecall_timesOut_andTheCallbackCompletesWithoutInjecting() throws Exception {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    MemoryStore slow = new ForwardingMemoryStore(newStore()) {
      @Override
      public TextHits searchText(Scope scope, String query, int k) {
        try {
          Thread.sleep(2_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return super.searchText(scope, query, k);
      }
    };
    try (MemoryService memory = Memhook.builder().store(slow).embedder(HashingEmbedder.create()).build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "the slow memory"));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook = memory.hookInto(chat, HookOptions.builder().recallTimeout(Duration.ofMillis(50))
          .listener(new HookListener() {
            @Override
            public void failed(String hookId, HookPhase phase, Throwable cause) {
              failure.set(cause);
            }
          }).build());
      long started = System.nanoTime();
      chat.sendUser("the slow memory?").toCompletableFuture().get(30, TimeUnit.SECONDS);
      long tookMillis = (System.nanoTime() - started) / 1_000_000;
      assertTrue(tookMillis < 1_900, "the turn did not wait for the stalled recall: " + tookMillis + " ms");
      assertInstanceOf(RecallTimeoutException.class, failure.get());
      assertTrue(hook.injectedIds().isEmpty());
    }
  }
}
