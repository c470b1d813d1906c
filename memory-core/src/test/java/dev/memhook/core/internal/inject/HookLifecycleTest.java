package dev.memhook.core.internal.inject;

import static dev.memhook.core.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
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
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.core.TestStores;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ForwardingMemoryStore;
import dev.memhook.testkit.ModelReply;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hook's lifecycle and its failure paths: independent hooks, dispose, one live hook per chat
 * service, which messages each callback scans, the caps, and a failing or stalled store that never
 * holds up the host's turn. Runs on every {@link TestStores} configuration.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.memhook.core.TestStores#all")
class HookLifecycleTest {

  /** The store configuration this class runs on. */
  @Parameter TestStores.Kind stores;

  @TempDir Path dir;

  private static final Duration GENEROUS = Duration.ofSeconds(30);

  private MemoryService service() {
    // these tests pin what the hook injects; what it captures is tested in core.capture
    return Memhook.builder()
        .store(stores.open(dir))
        .embedder(HashingEmbedder.create())
        .noCapture()
        .build();
  }

  @Test
  void twoHooksOnTwoChatServices_injectIndependently() throws Exception {
    try (MemoryService memory = service()) {
      Memory m =
          memory.remember(
              MemoryDraft.of(Scope.DEFAULT, "The staging database is reset every night at 2am."));
      FakeChatService first = FakeChatService.create();
      FakeChatService second = FakeChatService.create();
      HookOptions options = HookOptions.builder().recallTimeout(GENEROUS).build();
      MemoryHook hook1 = memory.hookInto(first, options);
      MemoryHook hook2 = memory.hookInto(second, options);

      first
          .sendUser("when is the staging database reset?")
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      assertEquals(Set.of(m.id()), hook1.injectedIds());
      assertEquals(Set.of(), hook2.injectedIds(), "the other hook saw nothing yet");

      second
          .sendUser("is the staging database reset at night?")
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
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
      memory.remember(
          MemoryDraft.of(Scope.DEFAULT, "The staging database is reset every night at 2am."));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());
      assertEquals(new FakeChatService.Registrations(1, 1, 1), chat.registrations());
      hook.dispose();
      hook.dispose();
      assertTrue(hook.isDisposed());
      assertEquals(new FakeChatService.Registrations(0, 0, 0), chat.registrations());
      chat.sendUser("when is the staging database reset?")
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      assertTrue(chat.toolCalls("get_memory").isEmpty());
      assertTrue(hook.injectedIds().isEmpty());
      // the service forgot the old hook, so the chat service can be hooked again
      try (MemoryHook again =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build())) {
        chat.sendUser("staging database reset time?")
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
        assertEquals(1, again.injectedIds().size());
      }
    }
  }

  @Test
  void hookingTheSameChatServiceTwice_failsFast() {
    try (MemoryService memory = service()) {
      FakeChatService chat = FakeChatService.create();
      try (MemoryHook hook = memory.hookInto(chat)) {
        IllegalStateException e =
            assertThrows(IllegalStateException.class, () -> memory.hookInto(chat));
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
    assertThrows(
        IllegalStateException.class,
        () -> memory.recall(dev.memhook.api.RecallQuery.of(Scope.DEFAULT, "x")));
  }

  @Test
  void beforeSendLoop_ignoresReasoningAndAssistantMessages() throws Exception {
    try (MemoryService memory = service()) {
      memory.remember(
          MemoryDraft.of(Scope.DEFAULT, "Kafka consumer lag alerts page the on-call engineer."));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());
      chat.append(
          dev.memhook.api.chat.ChatMessage.reasoning("kafka consumer lag alerts"),
          dev.memhook.api.chat.ChatMessage.assistant("kafka consumer lag alerts"));
      chat.fireBeforeSendLoop().toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertTrue(hook.injectedIds().isEmpty());
      chat.fireAfterSend().toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(1, hook.injectedIds().size(), "afterSend picks the reasoning up");
      assertEquals(1, chat.resendRequests());
    }
  }

  @Test
  void afterSend_ignoresUserMessages_andDoesNotAskForResendWhenNothingIsInjected()
      throws Exception {
    try (MemoryService memory = service()) {
      memory.remember(
          MemoryDraft.of(Scope.DEFAULT, "Kafka consumer lag alerts page the on-call engineer."));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());
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
      MemoryHook hook =
          memory.hookInto(
              chat,
              HookOptions.builder()
                  .maxPerMessage(3)
                  .maxPerCallback(4)
                  .recallTimeout(GENEROUS)
                  .build());
      chat.append(
          dev.memhook.api.chat.ChatMessage.user("kafka consumer lag alert rule"),
          dev.memhook.api.chat.ChatMessage.user("redis eviction policy note"));
      chat.fireBeforeSendLoop().toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(1, chat.toolCalls("get_memory").size(), "one batch for both messages");
      assertEquals(4, hook.injectedIds().size(), "3 from the first message, then capped at 4");
    }
  }

  @Test
  void aFailingStore_neverBreaksTheTurn_andTheFailureIsReported() throws Exception {
    MemoryStore failing =
        new ForwardingMemoryStore(stores.open(dir)) {
          @Override
          public TextHits searchText(Scope scope, String query, int k) {
            throw new MemoryStoreException("disk on fire");
          }
        };
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    try (MemoryService memory =
        Memhook.builder().store(failing).embedder(HashingEmbedder.create()).build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "anything at all"));
      FakeChatService chat = FakeChatService.create();
      memory.hookInto(
          chat,
          HookOptions.builder()
              .recallTimeout(GENEROUS)
              .listener(
                  new MemoryListener() {
                    @Override
                    public void failed(String hookId, HookPhase phase, Throwable cause) {
                      failures.add(cause);
                    }
                  })
              .build());
      chat.scriptReplies(ModelReply.builder().reasoning("anything").assistant("fine").build());
      chat.sendUser("anything at all?").toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertTrue(chat.toolCalls("get_memory").isEmpty());
      assertEquals(
          List.of(ChatRole.USER, ChatRole.REASONING, ChatRole.ASSISTANT),
          chat.messages().stream().map(m -> m.role()).toList(),
          "the turn went on");
      eventually(() -> assertEquals(2, failures.size(), "both phases reported: " + failures));
      assertInstanceOf(MemoryStoreException.class, failures.get(0));
    }
  }

  @Test
  void aStalledRecall_timesOut_andTheTurnGoesOnWithoutInjecting_whileTheStoreIsStillBlocked()
      throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch returned = new CountDownLatch(1);
    MemoryStore stalling =
        new ForwardingMemoryStore(stores.open(dir)) {
          @Override
          public TextHits searchText(Scope scope, String query, int k) {
            entered.countDown();
            try {
              release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            try {
              return super.searchText(scope, query, k);
            } finally {
              returned.countDown();
            }
          }
        };
    List<HookPhase> failedPhases = new CopyOnWriteArrayList<>();
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    ExecutorService recalls = Executors.newSingleThreadExecutor();
    try (MemoryService memory =
        Memhook.builder()
            .store(stalling)
            .embedder(HashingEmbedder.create())
            .executor(recalls)
            .build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "the slow memory"));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(chat, failuresRecorded(Duration.ofMillis(50), failedPhases, failures));
      try {
        chat.sendUser("the slow memory?").toCompletableFuture().get(30, TimeUnit.SECONDS);

        // the send is over; the recall reached the store and is still held there
        assertTrue(entered.await(30, TimeUnit.SECONDS), "the recall never reached the store");
        assertEquals(1, returned.getCount(), "the store returned before it was released");
        eventually(() -> assertEquals(List.of(HookPhase.BEFORE_SEND_LOOP), failedPhases));
        assertInstanceOf(RecallTimeoutException.class, failures.get(0));
        assertEquals(List.of(), chat.toolCalls("get_memory"));
        assertEquals(Set.of(), hook.injectedIds());
        assertEquals(
            List.of(ChatRole.USER, ChatRole.ASSISTANT),
            chat.messages().stream().map(m -> m.role()).toList(),
            "the turn went on: the model answered");
      } finally {
        release.countDown();
      }
      // once the late recall has run to its end, its result is still not injected
      recalls.shutdown();
      assertTrue(
          recalls.awaitTermination(30, TimeUnit.SECONDS), "the released recall did not finish");
      assertEquals(0, returned.getCount());
      assertEquals(List.of(), chat.toolCalls("get_memory"));
      assertEquals(Set.of(), hook.injectedIds());
      assertEquals(1, failures.size(), "the timeout is reported once: " + failures);
    } finally {
      recalls.shutdownNow();
    }
  }

  @Test
  void aMessageWhoseRecallTimedOut_isRecalledAgainByTheNextCallback_once() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    java.util.concurrent.atomic.AtomicInteger searches =
        new java.util.concurrent.atomic.AtomicInteger();
    MemoryStore slowOnce =
        new ForwardingMemoryStore(stores.open(dir)) {
          @Override
          public TextHits searchText(Scope scope, String query, int k) {
            if (searches.getAndIncrement() == 0) {
              try {
                release.await(30, TimeUnit.SECONDS); // the first search is slow
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return super.searchText(scope, query, k);
          }
        };
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    ExecutorService recalls = Executors.newSingleThreadExecutor();
    try (MemoryService memory =
        Memhook.builder()
            .store(slowOnce)
            .embedder(HashingEmbedder.create())
            .executor(recalls)
            .build()) {
      Memory slow = memory.remember(MemoryDraft.of(Scope.DEFAULT, "the deploy window is friday"));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(
              chat,
              failuresRecorded(Duration.ofMillis(500), new CopyOnWriteArrayList<>(), failures));
      chat.sendUser("when is the deploy window?").toCompletableFuture().get(30, TimeUnit.SECONDS);
      eventually(() -> assertEquals(1, failures.size()));
      assertTrue(
          failures
              .get(0)
              .getMessage()
              .contains("the next callback of this hook recalls for them again"),
          failures.get(0).getMessage());
      assertEquals(Set.of(), hook.injectedIds(), "nothing in the turn that timed out");
      release.countDown();
      recalls.submit(() -> {}).get(30, TimeUnit.SECONDS); // the late recall has finished

      chat.sendUser("thanks").toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(Set.of(slow.id()), hook.injectedIds(), "the next turn recalled it again");
      assertEquals(1, chat.toolCalls("get_memory").size());
      chat.sendUser("and tomorrow?").toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(1, failures.size(), "recalled again once, not again and again: " + failures);
    } finally {
      release.countDown();
      recalls.shutdownNow();
    }
  }

  /**
   * Hook options with {@code recallTimeout}, whose listener records each failure's phase and cause.
   */
  private static HookOptions failuresRecorded(
      Duration recallTimeout, List<HookPhase> phases, List<Throwable> causes) {
    return HookOptions.builder()
        .recallTimeout(recallTimeout)
        .listener(
            new MemoryListener() {
              @Override
              public void failed(String hookId, HookPhase phase, Throwable cause) {
                phases.add(phase);
                causes.add(cause);
              }
            })
        .build();
  }
}
