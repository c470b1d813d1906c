package dev.memhook.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.testkit.ModelReply;
import dev.memhook.testkit.ModelRequest;
import dev.memhook.testkit.ModelScript;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The per-conversation view through a real ChatClient: the checks the chat-service contract makes,
 * run here until the testkit's contract carries them.
 */
class ConversationChatTest {

  private static final ToolDefinition ECHO =
      new ToolDefinition("echo", "echoes its text", "{\"type\":\"object\"}");

  private final ModelScript model = ModelScript.create();
  private final SpringAiHarness harness = new SpringAiHarness(model);
  private final ChatService chat = harness.chat();

  @AfterEach
  void tearDown() {
    harness.close();
  }

  private void send(String text) throws Exception {
    harness.sendUser(text).toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private Registration echo() {
    return chat.registerTool(
        ECHO,
        call -> CompletableFuture.completedFuture(ToolResult.success("echo:" + call.arguments())));
  }

  private static List<ChatRole> roles(ModelRequest r) {
    return r.messages().stream().map(ChatMessage::role).toList();
  }

  @Test
  void theUserMessage_isVisible_whenBeforeSendLoopFires() throws Exception {
    List<List<ChatMessage>> seen = new CopyOnWriteArrayList<>();
    chat.onBeforeSendLoop(
        () -> {
          seen.add(chat.messages());
          return CompletableFuture.completedFuture(null);
        });

    send("hello");

    ChatMessage last = seen.get(0).get(seen.get(0).size() - 1);
    assertEquals(ChatRole.USER, last.role());
    assertEquals("hello", last.text());
  }

  @Test
  void aPairInjectedBeforeTheLoop_reachesThatLoopsRequest_callThenResult() throws Exception {
    echo();
    chat.onBeforeSendLoop(
        () -> chat.injectToolCall("echo", Map.of("text", "x")).thenApply(r -> null));

    send("hello");

    assertEquals(1, model.requests().size());
    ModelRequest r = model.requests().get(0);
    assertEquals(List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER), roles(r));
    assertEquals(r.messages().get(0).toolCall().id(), r.messages().get(1).toolCall().id());
    assertEquals("echo:{text=x}", r.messages().get(1).text());
  }

  @Test
  void injectingOutsideASend_sendsNothing_andTheNextCallCarriesThePair() throws Exception {
    echo();
    chat.injectToolCall("echo", Map.of()).toCompletableFuture().get(30, TimeUnit.SECONDS);
    chat.send().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertTrue(model.requests().isEmpty());

    send("hello");

    assertEquals(
        List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER),
        roles(model.requests().get(0)));
  }

  @Test
  void anUnknownTool_failsTheStage_withIllegalArgumentException() {
    ExecutionException e =
        assertThrows(
            ExecutionException.class,
            () -> chat.injectToolCall("nope", Map.of()).toCompletableFuture().get());
    assertInstanceOf(IllegalArgumentException.class, e.getCause());
  }

  @Test
  void anAfterSendPair_withAResendRequest_makesExactlyOneMoreRequest() throws Exception {
    echo();
    chat.onAfterSend(
        () -> {
          if (model.requests().size() > 1) {
            return CompletableFuture.completedFuture(null);
          }
          return chat.injectToolCall("echo", Map.of()).thenAccept(r -> chat.setNeedsResend());
        });

    send("hello");

    assertEquals(2, model.requests().size());
    assertEquals(List.of(ChatRole.USER), roles(model.requests().get(0)));
    assertEquals(
        List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER),
        roles(model.requests().get(1)));
  }

  @Test
  void noResend_withoutARequest() throws Exception {
    send("hello");
    assertEquals(1, model.requests().size());
  }

  @Test
  void callbacks_areAwaited_inRegistrationOrder() throws Exception {
    List<String> order = new CopyOnWriteArrayList<>();
    chat.onBeforeSendLoop(
        () ->
            CompletableFuture.runAsync(
                () -> {
                  sleep(100);
                  order.add("first");
                }));
    chat.onBeforeSendLoop(
        () -> {
          order.add("second");
          return CompletableFuture.completedFuture(null);
        });
    chat.onAfterSend(
        () -> {
          order.add("after:" + model.requests().size());
          return CompletableFuture.completedFuture(null);
        });

    send("hello");

    assertEquals(List.of("first", "second", "after:1"), order);
  }

  @Test
  void removingARegistration_stopsItsCallbackOrTool_andIsIdempotent() throws Exception {
    List<String> calls = new CopyOnWriteArrayList<>();
    Registration callback =
        chat.onBeforeSendLoop(
            () -> {
              calls.add("x");
              return CompletableFuture.completedFuture(null);
            });
    Registration tool = echo();
    callback.remove();
    callback.remove();
    tool.remove();
    tool.close();

    send("hello");

    assertTrue(calls.isEmpty());
    assertFalse(model.requests().get(0).toolNames().contains("echo"));
    echo(); // the name is free again
  }

  @Test
  void aDuplicateToolName_isRejected() {
    echo();
    assertThrows(IllegalStateException.class, this::echo);
  }

  @Test
  void aModelToolCall_isExecuted_andItsResultReachesTheNextRequest() throws Exception {
    echo();
    model.then(
        ModelReply.builder().toolCall("echo", Map.of("text", "hi")).build(),
        ModelReply.text("done"));

    send("hello");

    assertTrue(model.requests().get(0).toolNames().contains("echo"), "offered");
    ModelRequest next = model.requests().get(1);
    assertEquals(List.of(ChatRole.USER, ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT), roles(next));
    assertEquals("echo:{text=hi}", next.messages().get(2).text());
  }

  @Test
  void theModelsReasoning_isVisibleToAfterSend() throws Exception {
    model.then(ModelReply.builder().reasoning("thinking hard").assistant("answer").build());
    List<List<ChatMessage>> seen = new CopyOnWriteArrayList<>();
    chat.onAfterSend(
        () -> {
          seen.add(chat.messages());
          return CompletableFuture.completedFuture(null);
        });

    send("hello");

    List<ChatRole> roles = seen.get(0).stream().map(ChatMessage::role).toList();
    assertEquals(List.of(ChatRole.USER, ChatRole.REASONING, ChatRole.ASSISTANT), roles);
    assertEquals("thinking hard", seen.get(0).get(1).text());
  }

  @Test
  void aCallbackThatNeverCompletes_doesNotFailTheCall() throws Exception {
    chat.onBeforeSendLoop(CompletableFuture::new);
    model.then(ModelReply.text("answered"));

    send("hello"); // waits the advisor's callback timeout, then goes on

    assertEquals(1, model.requests().size());
  }

  @Test
  void callsOfOneConversation_areSerialised() throws Exception {
    AtomicInteger inTurn = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    chat.onBeforeSendLoop(
        () ->
            CompletableFuture.runAsync(
                () -> {
                  most.accumulateAndGet(inTurn.incrementAndGet(), Math::max);
                  sleep(20);
                }));
    chat.onAfterSend(
        () -> {
          inTurn.decrementAndGet();
          return CompletableFuture.completedFuture(null);
        });

    List<CompletableFuture<Void>> sends = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      sends.add(harness.sendUser("message " + i).toCompletableFuture());
    }
    CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

    assertEquals(1, most.get(), "one turn at a time");
    assertEquals(4, model.requests().size());
    assertEquals(
        4, chat.messages().stream().filter(m -> m.role() == ChatRole.USER).count(), "4 turns");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
