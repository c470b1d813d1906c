package dev.memhook.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.testkit.ModelReply;
import dev.memhook.testkit.ModelRequest;
import dev.memhook.testkit.ModelScript;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The send loop of {@link LangChain4jChatService}, without a memory service. */
class LangChain4jChatServiceTest {

  private static final ToolDefinition ECHO =
      new ToolDefinition(
          "echo",
          "echoes its text",
          "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}");

  private final ModelScript script = ModelScript.create();
  private final ScriptedChatModel model = new ScriptedChatModel(script);
  private final LangChain4jChatService chat = LangChain4jChatService.create(model);

  private static ToolResult echo(Map<String, Object> args) {
    return ToolResult.success("echo:" + args.get("text"));
  }

  private static <T> T await(java.util.concurrent.CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Test
  void beforeSendLoopInjection_reachesTheModelAsCallResultThenUserTurn() throws Exception {
    chat.registerTool(ECHO, call -> CompletableFuture.completedFuture(echo(call.arguments())));
    List<ChatMessage> seen = new CopyOnWriteArrayList<>();
    chat.onBeforeSendLoop(
        () -> {
          seen.addAll(chat.messages());
          return chat.injectToolCall("echo", Map.of("text", "hi")).thenApply(r -> null);
        });
    script.then(ModelReply.text("hello"));

    AiMessage reply = await(chat.sendUser("what did I say?"));

    assertEquals("hello", reply.text());
    assertEquals(ChatRole.USER, seen.get(seen.size() - 1).role(), "user message visible first");
    List<dev.langchain4j.data.message.ChatMessage> sent = model.rawRequests().get(0).messages();
    assertEquals(3, sent.size(), sent.toString());
    AiMessage call = assertInstanceOf(AiMessage.class, sent.get(0));
    ToolExecutionResultMessage result =
        assertInstanceOf(ToolExecutionResultMessage.class, sent.get(1));
    assertInstanceOf(UserMessage.class, sent.get(2));
    assertEquals(1, call.toolExecutionRequests().size());
    assertEquals(call.toolExecutionRequests().get(0).id(), result.id());
    assertEquals("echo", result.toolName());
    assertEquals("echo:hi", result.text());
    assertEquals("{\"text\":\"hi\"}", call.toolExecutionRequests().get(0).arguments());

    List<ChatMessage> messages = chat.messages();
    assertEquals(
        List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER, ChatRole.ASSISTANT),
        messages.stream().map(ChatMessage::role).toList());
    assertEquals(MessageOrigin.SYNTHETIC, messages.get(0).origin());
    assertEquals(MessageOrigin.SYNTHETIC, messages.get(1).origin());
    assertEquals(messages.get(0).toolCall().id(), call.toolExecutionRequests().get(0).id());
    assertEquals(MessageOrigin.MODEL, messages.get(3).origin());
  }

  @Test
  void injectToolCallOutsideASend_sendsNothing_andJoinsTheNextSendBeforeTheUser() throws Exception {
    chat.registerTool(ECHO, call -> CompletableFuture.completedFuture(echo(call.arguments())));
    ToolResult result = await(chat.injectToolCall("echo", Map.of("text", "x")));
    assertEquals("echo:x", result.content());
    assertTrue(script.requests().isEmpty());
    assertTrue(chat.messages().isEmpty(), "queued, not yet in the conversation");

    await(chat.sendUser("hi"));
    ModelRequest request = script.requests().get(0);
    assertEquals(
        List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER),
        request.messages().stream().map(ChatMessage::role).toList());
    assertEquals(List.of("echo"), request.toolNames());
  }

  @Test
  void afterSendInjectionWithResend_callsTheModelExactlyOnceMore_withThePairAtTheEnd()
      throws Exception {
    chat.registerTool(ECHO, call -> CompletableFuture.completedFuture(echo(call.arguments())));
    AtomicInteger afterSends = new AtomicInteger();
    chat.onAfterSend(
        () -> {
          if (afterSends.incrementAndGet() > 1) {
            return CompletableFuture.completedFuture(null);
          }
          return chat.injectToolCall("echo", Map.of("text", "late"))
              .thenAccept(r -> chat.setNeedsResend());
        });
    script.then(
        ModelReply.builder().reasoning("thinking about it").assistant("first").build(),
        ModelReply.text("second"));

    AiMessage reply = await(chat.sendUser("go"));

    assertEquals("second", reply.text());
    assertEquals(2, script.requests().size());
    List<dev.langchain4j.data.message.ChatMessage> resent = model.rawRequests().get(1).messages();
    assertEquals(4, resent.size(), resent.toString());
    assertInstanceOf(UserMessage.class, resent.get(0));
    assertEquals("first", assertInstanceOf(AiMessage.class, resent.get(1)).text());
    AiMessage call = assertInstanceOf(AiMessage.class, resent.get(2));
    assertEquals(
        call.toolExecutionRequests().get(0).id(),
        assertInstanceOf(ToolExecutionResultMessage.class, resent.get(3)).id());
  }

  @Test
  void registerTool_withAnInexpressibleSchema_failsWithTheKeywordNamed() {
    ToolDefinition oneOf =
        new ToolDefinition(
            "pick",
            "picks",
            "{\"type\":\"object\",\"properties\":{\"x\":{\"oneOf\":[{\"type\":\"string\"}]}}}");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> chat.registerTool(oneOf, call -> CompletableFuture.completedFuture(null)));
    assertTrue(e.getMessage().contains("oneOf"), e.getMessage());
    assertTrue(e.getMessage().contains("$.properties.x"), e.getMessage());
  }

  @Test
  void anUnknownOrFailingToolCall_isAnErrorResultTheModelReads() throws Exception {
    chat.registerTool(
        ECHO,
        call -> {
          throw new IllegalStateException("handler broke");
        });
    script.then(
        ModelReply.builder()
            .toolCall("nope", Map.of())
            .toolCall("echo", Map.of("text", "x"))
            .build(),
        ModelReply.text("sorry"));
    assertEquals("sorry", await(chat.sendUser("go")).text());
    List<dev.langchain4j.data.message.ChatMessage> sent = model.rawRequests().get(1).messages();
    ToolExecutionResultMessage unknown =
        assertInstanceOf(ToolExecutionResultMessage.class, sent.get(sent.size() - 2));
    ToolExecutionResultMessage failed =
        assertInstanceOf(ToolExecutionResultMessage.class, sent.get(sent.size() - 1));
    assertTrue(unknown.isError());
    assertTrue(unknown.text().contains("no tool named nope"), unknown.text());
    assertTrue(failed.isError());
    assertTrue(failed.text().contains("handler broke"), failed.text());
  }

  @Test
  void aModelToolCallNamingNoTool_isAnErrorResultTheModelReads_andTheTurnCompletes()
      throws Exception {
    List<ToolExecutionRequest> nameless =
        List.of(
            ToolExecutionRequest.builder().id("c1").arguments("{}").build(),
            ToolExecutionRequest.builder().id("c2").name(" ").arguments("{}").build());
    AtomicInteger calls = new AtomicInteger();
    LangChain4jChatService service =
        LangChain4jChatService.create(
            new ChatModel() {
              @Override
              public ChatResponse doChat(ChatRequest request) {
                AiMessage reply =
                    calls.getAndIncrement() == 0
                        ? AiMessage.from(nameless)
                        : AiMessage.from("sorry");
                return ChatResponse.builder().aiMessage(reply).build();
              }
            });

    assertEquals("sorry", await(service.sendUser("go")).text());
    List<ToolExecutionResultMessage> results =
        service.langChain4jMessages().stream()
            .filter(ToolExecutionResultMessage.class::isInstance)
            .map(ToolExecutionResultMessage.class::cast)
            .toList();
    assertEquals(
        List.of("c1", "c2"), results.stream().map(ToolExecutionResultMessage::id).toList());
    for (ToolExecutionResultMessage r : results) {
      assertTrue(r.isError(), r.text());
      assertTrue(r.text().contains("names no tool"), r.text());
    }
  }

  @Test
  void resends_areBoundedByMaxLoopsPerSend() throws Exception {
    LangChain4jChatService bounded =
        LangChain4jChatService.builder().chatModel(model).maxLoopsPerSend(3).build();
    bounded.onAfterSend(
        () -> {
          bounded.setNeedsResend();
          return CompletableFuture.completedFuture(null);
        });
    await(bounded.sendUser("go"));
    assertEquals(3, script.requests().size());
  }

  @Test
  void systemMessage_startsTheConversation() throws Exception {
    LangChain4jChatService withSystem =
        LangChain4jChatService.builder().chatModel(model).systemMessage("be brief").build();
    await(withSystem.sendUser("go"));
    ChatRequest request = model.rawRequests().get(0);
    assertEquals(
        "be brief",
        assertInstanceOf(
                dev.langchain4j.data.message.SystemMessage.class, request.messages().get(0))
            .text());
    assertEquals(ChatRole.SYSTEM, withSystem.messages().get(0).role());
  }

  @Test
  void builder_rejectsBadValuesAtOnce() {
    assertThrows(IllegalStateException.class, () -> LangChain4jChatService.builder().build());
    assertThrows(
        IllegalArgumentException.class, () -> LangChain4jChatService.builder().maxLoopsPerSend(0));
    assertThrows(
        IllegalStateException.class,
        () -> LangChain4jChatService.builder().chatModel(model).chatModel(model));
    assertThrows(NullPointerException.class, () -> chat.sendUser(null));
  }

  @Test
  void interruptWithClearQueue_stopsTheSendAndCancelsWaitingOnes_butKeepsQueuedMessages()
      throws Exception {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    CountDownLatch fired = new CountDownLatch(1);
    AtomicInteger loops = new AtomicInteger();
    chat.onBeforeSendLoop(
        () -> {
          if (loops.incrementAndGet() > 1) {
            return CompletableFuture.completedFuture(null);
          }
          fired.countDown();
          return gate;
        });
    CompletableFuture<AiMessage> first = chat.sendUser("one").toCompletableFuture();
    assertTrue(fired.await(30, TimeUnit.SECONDS));
    CompletableFuture<AiMessage> second = chat.sendUser("two").toCompletableFuture();
    chat.interrupt(true);
    gate.complete(null);

    ExecutionException e1 =
        assertThrows(ExecutionException.class, () -> first.get(30, TimeUnit.SECONDS));
    assertInstanceOf(java.util.concurrent.CancellationException.class, e1.getCause());
    ExecutionException e2 =
        assertThrows(ExecutionException.class, () -> second.get(30, TimeUnit.SECONDS));
    assertInstanceOf(java.util.concurrent.CancellationException.class, e2.getCause());
    assertTrue(script.requests().isEmpty(), "the model was never called");

    await(chat.send());
    List<ChatMessage> sent = script.requests().get(0).messages();
    assertEquals(List.of("one", "two"), sent.stream().map(ChatMessage::text).toList());
  }

  @Test
  void aFailingModel_failsTheSendsStage_andTheNextSendStillRuns() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    dev.langchain4j.model.chat.ChatModel flaky =
        new dev.langchain4j.model.chat.ChatModel() {
          @Override
          public dev.langchain4j.model.chat.response.ChatResponse doChat(ChatRequest request) {
            if (calls.incrementAndGet() == 1) {
              throw new IllegalStateException("provider down");
            }
            return model.doChat(request);
          }
        };
    LangChain4jChatService service = LangChain4jChatService.create(flaky);
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> await(service.sendUser("one")));
    assertTrue(e.getCause().getMessage().contains("provider down"), e.getCause().toString());
    assertEquals("ok", await(service.sendUser("two")).text());
  }

  @Test
  void aResumedChatMemory_isSentToTheModel_butIsNotNewToAHook() throws Exception {
    var resumed = dev.langchain4j.memory.chat.MessageWindowChatMemory.withMaxMessages(10);
    resumed.add(UserMessage.from("an old question"));
    resumed.add(AiMessage.from("an old answer"));
    LangChain4jChatService service =
        LangChain4jChatService.builder().chatModel(model).chatMemory(resumed).build();
    assertTrue(service.messages().isEmpty());
    await(service.sendUser("a new question"));
    assertEquals(
        List.of("an old question", "an old answer", "a new question"),
        script.requests().get(0).messages().stream().map(ChatMessage::text).toList());
    assertEquals(
        List.of("a new question", "ok"),
        service.messages().stream().map(ChatMessage::text).toList());
  }
}
