package dev.memhook.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.ModelScript;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bound on the conversations {@link MemhookLangChain4j} holds: least recently used first, never
 * one in an AiServices call, over the bound while every other one is in a call, a failed call
 * leaving its conversation evictable, an evicted conversation starting afresh on the application's
 * window, and the builder's validation.
 */
class MemhookLangChain4jBoundTest {

  interface UserAssistant {
    String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
  }

  /** A user message containing this makes the model wait for {@link #release}. */
  private static final String HOLD = "hold this call";

  /** A user message containing this makes the model fail. */
  private static final String FAIL = "fail this call";

  private final ScriptedChatModel scripted = new ScriptedChatModel(ModelScript.create());
  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final ExecutorService caller = Executors.newSingleThreadExecutor();
  private final MemoryService memory =
      Memhook.builder().inMemory().embedder(HashingEmbedder.create()).noCapture().build();
  private MemhookLangChain4j memhook;
  private UserAssistant assistant;

  @AfterEach
  void tearDown() throws InterruptedException {
    release.countDown();
    caller.shutdown();
    assertTrue(caller.awaitTermination(30, TimeUnit.SECONDS));
    if (memhook != null) {
      memhook.close();
    }
    memory.close();
  }

  private void start(int maxConversations) {
    memhook =
        MemhookLangChain4j.builder(new HoldingChatModel(), memory)
            .hookOptions(
                HookOptions.builder().recallTimeout(Duration.ofSeconds(30)).noCapture().build())
            .maxConversations(maxConversations)
            .build();
    assistant =
        memhook
            .configure(
                AiServices.builder(UserAssistant.class),
                id -> MessageWindowChatMemory.withMaxMessages(50))
            .build();
  }

  /** Starts a call of {@code user} that stays in the model until {@link #release}. */
  private Future<String> holdACall(String user) throws InterruptedException {
    Future<String> call = caller.submit(() -> assistant.chat(user, HOLD));
    assertTrue(entered.await(30, TimeUnit.SECONDS), "the held call reached the model");
    return call;
  }

  @Test
  void aFourthConversation_evictsTheLeastRecentlyUsed_andClosesItsHook() {
    start(3);
    assistant.chat("u1", "hello");
    assistant.chat("u2", "hello");
    assistant.chat("u3", "hello");
    MemoryHook u1 = memhook.hook("u1").orElseThrow();
    MemoryHook u2 = memhook.hook("u2").orElseThrow();
    assistant.chat("u1", "again"); // u1 is now the most recently used; u2 the least

    assistant.chat("u4", "hello");

    assertEquals(Set.of("u1", "u3", "u4"), memhook.memoryIds());
    assertTrue(memhook.hook("u2").isEmpty());
    assertTrue(memhook.conversation("u2").isEmpty());
    assertTrue(u2.isDisposed(), "the evicted conversation's hook is closed");
    assertFalse(u1.isDisposed(), "the recently used conversation keeps its hook");
    assertSame(u1, memhook.hook("u1").orElseThrow());
  }

  @Test
  void anEvictedConversation_startsAfresh_onTheApplicationsWindow() {
    start(1);
    assistant.chat("u1", "my first question");
    MemoryHook first = memhook.hook("u1").orElseThrow();
    assistant.chat("u2", "hello");
    assertTrue(first.isDisposed());

    assistant.chat("u1", "my second question");

    MemoryHook second = memhook.hook("u1").orElseThrow();
    assertNotSame(first, second);
    assertFalse(second.isDisposed());
    // AiServices still holds u1's chat memory: the window it kept reaches the model, once
    ChatRequest last = scripted.rawRequests().get(scripted.rawRequests().size() - 1);
    List<String> users =
        last.messages().stream()
            .filter(UserMessage.class::isInstance)
            .map(m -> ((UserMessage) m).singleText())
            .toList();
    assertEquals(List.of("my first question", "my second question"), users);
  }

  @Test
  void aConversationInACall_isNotEvicted_theNextLeastRecentlyUsedIs() throws Exception {
    start(3);
    Future<String> held = holdACall("u1"); // u1 is the least recently used, but in a call
    MemoryHook u1 = memhook.hook("u1").orElseThrow();
    assistant.chat("u2", "hello");
    assistant.chat("u3", "hello");

    assistant.chat("u4", "hello");

    assertEquals(Set.of("u1", "u3", "u4"), memhook.memoryIds());
    assertFalse(u1.isDisposed());
    release.countDown();
    assertEquals("ok", held.get(30, TimeUnit.SECONDS));
    assertFalse(u1.isDisposed(), "the held call's conversation survived its call");

    // the call's answer made u1 the most recently used; once idle it goes in its turn
    assistant.chat("u5", "hello");
    assistant.chat("u6", "hello");
    assertEquals(Set.of("u1", "u5", "u6"), memhook.memoryIds());
    assistant.chat("u7", "hello");

    assertEquals(Set.of("u5", "u6", "u7"), memhook.memoryIds());
    assertTrue(u1.isDisposed());
  }

  @Test
  void whenEveryOtherConversationIsInACall_theBoundIsExceeded_untilTheyAreIdle() throws Exception {
    start(1);
    Future<String> held = holdACall("u1");

    assistant.chat("u2", "hello");

    assertEquals(Set.of("u1", "u2"), memhook.memoryIds());
    release.countDown();
    held.get(30, TimeUnit.SECONDS);

    assistant.chat("u3", "hello");

    assertEquals(Set.of("u3"), memhook.memoryIds());
  }

  @Test
  void aFailedCall_leavesItsConversationEvictable() {
    start(1);
    assertThrows(RuntimeException.class, () -> assistant.chat("u1", FAIL));
    MemoryHook u1 = memhook.hook("u1").orElseThrow();

    assistant.chat("u2", "hello");

    assertEquals(Set.of("u2"), memhook.memoryIds());
    assertTrue(u1.isDisposed());
  }

  @Test
  void theBuilder_validatesAtOnce() {
    IllegalArgumentException zero =
        assertThrows(
            IllegalArgumentException.class,
            () -> MemhookLangChain4j.builder(scripted, memory).maxConversations(0));
    assertTrue(zero.getMessage().contains("maxConversations"), zero.getMessage());
    assertTrue(zero.getMessage().contains("got 0"), zero.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> MemhookLangChain4j.builder(scripted, memory).maxConversations(1_000_001));
    assertThrows(
        IllegalStateException.class,
        () ->
            MemhookLangChain4j.builder(scripted, memory)
                .hookOptions(HookOptions.defaults())
                .hookOptionsByMemoryId(id -> HookOptions.defaults()));
    assertThrows(
        IllegalStateException.class,
        () -> MemhookLangChain4j.builder(scripted, memory).maxConversations(5).maxConversations(6));
    MemhookLangChain4j.builder(scripted, memory).maxConversations(1_000_000).build().close();
  }

  /**
   * The scripted model, except that a request whose last message holds {@link #HOLD} waits for
   * {@link #release} and one whose last message holds {@link #FAIL} fails.
   */
  private final class HoldingChatModel implements ChatModel {
    @Override
    public ChatResponse doChat(ChatRequest request) {
      String last = request.messages().get(request.messages().size() - 1).toString();
      if (last.contains(FAIL)) {
        throw new IllegalStateException("the model failed, as scripted");
      }
      if (last.contains(HOLD)) {
        entered.countDown();
        try {
          assertTrue(release.await(30, TimeUnit.SECONDS), "the held call was released");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while held", e);
        }
      }
      return scripted.doChat(request);
    }
  }
}
