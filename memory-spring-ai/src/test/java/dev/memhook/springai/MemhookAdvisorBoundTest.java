package dev.memhook.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.ModelScript;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import reactor.core.publisher.Flux;

/**
 * The advisor's bound on the conversations it holds: least recently used first, never one in a
 * call, over the bound while every other one is in a call, and the builder's validation.
 */
class MemhookAdvisorBoundTest {

  private static final Duration GENEROUS = Duration.ofSeconds(30);

  /** A user message containing this makes the model wait for {@link #release}. */
  private static final String HOLD = "hold this call";

  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final ExecutorService caller = Executors.newSingleThreadExecutor();
  private MemoryService memory;
  private MemhookAdvisor advisor;
  private ChatClient client;

  @BeforeEach
  void setUp() {
    memory = Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    release.countDown();
    caller.shutdown();
    assertTrue(caller.awaitTermination(30, TimeUnit.SECONDS));
    if (advisor != null) {
      advisor.close();
    }
    memory.close();
  }

  private void start(int maxConversations) {
    advisor =
        MemhookAdvisor.builder(memory)
            .hookOptions(HookOptions.builder().recallTimeout(GENEROUS).build())
            .callbackTimeout(GENEROUS)
            .maxConversations(maxConversations)
            .build();
    ChatModel model = new HoldingChatModel(new ScriptedChatModel(ModelScript.create()));
    client = ChatClient.builder(model).defaultAdvisors(advisor).build();
  }

  private String ask(String conversation, String text) {
    return client
        .prompt()
        .user(text)
        .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation))
        .call()
        .content();
  }

  /** Starts a call in {@code conversation} that stays in the model until {@link #release}. */
  private Future<String> holdACall(String conversation) throws InterruptedException {
    Future<String> call = caller.submit(() -> ask(conversation, HOLD));
    assertTrue(entered.await(30, TimeUnit.SECONDS), "the held call reached the model");
    return call;
  }

  @Test
  void aFourthConversation_evictsTheLeastRecentlyUsed_andDisposesItsHook() {
    start(3);
    ask("c1", "hello");
    ask("c2", "hello");
    ask("c3", "hello");
    MemoryHook c1 = advisor.hook("c1").orElseThrow();
    MemoryHook c2 = advisor.hook("c2").orElseThrow();
    ask("c1", "again"); // c1 is now the most recently used; c2 the least

    ask("c4", "hello");

    assertEquals(Set.of("c1", "c3", "c4"), advisor.conversationIds());
    assertTrue(advisor.hook("c2").isEmpty());
    assertTrue(c2.isDisposed(), "the evicted conversation's hook is disposed");
    assertFalse(c1.isDisposed(), "the recently used conversation keeps its hook");
    assertEquals(c1, advisor.hook("c1").orElseThrow());
  }

  @Test
  void anEvictedConversation_startsAfresh_withANewHook() {
    start(1);
    ask("c1", "hello");
    MemoryHook first = advisor.hook("c1").orElseThrow();
    ask("c2", "hello");

    ask("c1", "back again");

    assertTrue(first.isDisposed());
    MemoryHook second = advisor.hook("c1").orElseThrow();
    assertFalse(second.isDisposed());
    assertEquals(Set.of("c1"), advisor.conversationIds());
  }

  @Test
  void chatService_countsAsAUse() {
    start(2);
    ask("c1", "hello");
    ask("c2", "hello");
    advisor.chatService("c1"); // c2 is now the least recently used

    ask("c3", "hello");

    assertEquals(Set.of("c1", "c3"), advisor.conversationIds());
  }

  @Test
  void aConversationInACall_isNotEvicted_theNextLeastRecentlyUsedIs() throws Exception {
    start(3);
    Future<String> held = holdACall("c1"); // c1 is the least recently used, but in a call
    MemoryHook c1 = advisor.hook("c1").orElseThrow();
    ask("c2", "hello");
    ask("c3", "hello");

    ask("c4", "hello");

    assertEquals(Set.of("c1", "c3", "c4"), advisor.conversationIds());
    assertFalse(c1.isDisposed());
    release.countDown();
    assertEquals("ok", held.get(30, TimeUnit.SECONDS));
    assertFalse(c1.isDisposed(), "the held call's conversation survived its call");
    assertEquals(c1, advisor.hook("c1").orElseThrow());

    ask("c5", "hello"); // c1 is idle now, and the least recently used

    assertEquals(Set.of("c3", "c4", "c5"), advisor.conversationIds());
    assertTrue(c1.isDisposed());
  }

  @Test
  void whenEveryOtherConversationIsInACall_theBoundIsExceeded_untilTheyAreIdle() throws Exception {
    start(1);
    Future<String> held = holdACall("c1");

    ask("c2", "hello");

    assertEquals(Set.of("c1", "c2"), advisor.conversationIds());
    release.countDown();
    held.get(30, TimeUnit.SECONDS);

    ask("c3", "hello");

    assertEquals(Set.of("c3"), advisor.conversationIds());
  }

  @Test
  void aStreamedCall_givesItsConversationBack_whenItCompletes() {
    start(1);
    String streamed =
        String.join(
            "",
            client
                .prompt()
                .user("hello")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "s1"))
                .stream()
                .content()
                .collectList()
                .block(GENEROUS));
    assertEquals("ok", streamed);
    MemoryHook s1 = advisor.hook("s1").orElseThrow();

    ask("c2", "hello");

    assertEquals(Set.of("c2"), advisor.conversationIds());
    assertTrue(s1.isDisposed());
  }

  @Test
  void maxConversations_isValidatedAtOnce() {
    IllegalArgumentException zero =
        assertThrows(
            IllegalArgumentException.class,
            () -> MemhookAdvisor.builder(memory).maxConversations(0));
    assertTrue(zero.getMessage().contains("maxConversations"), zero.getMessage());
    assertTrue(zero.getMessage().contains("got 0"), zero.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> MemhookAdvisor.builder(memory).maxConversations(1_000_001));
    MemhookAdvisor.builder(memory).maxConversations(1_000_000).build().close();
  }

  /** A model that holds a call whose prompt contains {@link #HOLD} until {@link #release}. */
  private final class HoldingChatModel implements ChatModel {
    private final ChatModel delegate;

    HoldingChatModel(ChatModel delegate) {
      this.delegate = delegate;
    }

    @Override
    public ChatOptions getOptions() {
      return delegate.getOptions();
    }

    @Override
    public ChatResponse call(Prompt prompt) {
      if (prompt.getContents().contains(HOLD)) {
        entered.countDown();
        try {
          assertTrue(release.await(30, TimeUnit.SECONDS), "the held call was released");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while held", e);
        }
      }
      return delegate.call(prompt);
    }

    @Override
    public Flux<ChatResponse> stream(Prompt prompt) {
      return delegate.stream(prompt);
    }
  }
}
