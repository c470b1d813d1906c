package dev.memhook.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ReturnBehavior;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.Result;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.ModelReply;
import dev.memhook.testkit.ModelScript;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Memhook in LangChain4j AiServices, end to end, through {@link MemhookLangChain4j}. */
class MemhookLangChain4jTest {

  interface Assistant {
    String chat(String message);
  }

  interface UserAssistant {
    String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
  }

  interface BookingAssistant {
    Result<String> chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
  }

  interface Summarizer {
    String summarize(String text);
  }

  public static final class BookingTools {
    @Tool(returnBehavior = ReturnBehavior.IMMEDIATE)
    public String bookRoom() {
      return "booked";
    }
  }

  private static final String STAGING = "The staging database is reset every night at 2am.";
  private static final String KAFKA = "Kafka consumer lag alerts page the on-call engineer.";

  private final ModelScript script = ModelScript.create();
  private final ScriptedChatModel model = new ScriptedChatModel(script);

  private static MemoryService service() {
    return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).noCapture().build();
  }

  private static HookOptions options() {
    return HookOptions.builder()
        .recallTimeout(Duration.ofSeconds(30))
        .maxPerMessage(1)
        .noCapture()
        .build();
  }

  private static Assistant assistant(MemhookLangChain4j memhook) {
    return memhook
        .configure(
            AiServices.builder(Assistant.class), id -> MessageWindowChatMemory.withMaxMessages(50))
        .build();
  }

  private static long count(List<ChatMessage> messages, Class<?> type) {
    return messages.stream().filter(type::isInstance).count();
  }

  @Test
  void inject_fetch_andResendAfterAfterSend_endToEnd() {
    try (MemoryService memory = service();
        MemhookLangChain4j memhook = MemhookLangChain4j.create(model, memory, options())) {
      Memory staging = memory.remember(MemoryDraft.of(Scope.DEFAULT, STAGING));
      Memory kafka = memory.remember(MemoryDraft.of(Scope.DEFAULT, KAFKA));
      Assistant assistant = assistant(memhook);
      script.then(
          // turn 1: the model fetches the injected memory in full; its reasoning recalls kafka
          ModelReply.builder()
              .reasoning("kafka consumer lag alerts may matter too")
              .toolCall("get_memory", Map.of("id", staging.id().value()))
              .build(),
          ModelReply.text("It resets at 2am."),
          // turn 2: nothing new is injected
          ModelReply.text("Still 2am."));

      assertEquals("It resets at 2am.", assistant.chat("when is the staging database reset?"));

      List<ChatRequest> requests = model.rawRequests();
      assertEquals(2, requests.size());
      List<ChatMessage> first = requests.get(0).messages();
      assertEquals(3, first.size(), first.toString());
      AiMessage injected = assertInstanceOf(AiMessage.class, first.get(0));
      assertEquals("get_memory", injected.toolExecutionRequests().get(0).name());
      assertEquals(
          injected.toolExecutionRequests().get(0).id(),
          assertInstanceOf(ToolExecutionResultMessage.class, first.get(1)).id());
      assertInstanceOf(UserMessage.class, first.get(2));
      assertTrue(
          requests.get(0).toolSpecifications().stream()
              .anyMatch(s -> s.name().equals("get_memory")),
          "AiServices offers get_memory through the tool provider");

      // AiServices executed the model's get_memory call; afterSend's kafka pair follows it
      List<ChatMessage> second = requests.get(1).messages();
      ToolExecutionResultMessage fetched =
          assertInstanceOf(ToolExecutionResultMessage.class, second.get(4));
      assertTrue(fetched.text().contains(STAGING), fetched.text());
      AiMessage late = assertInstanceOf(AiMessage.class, second.get(5));
      ToolExecutionResultMessage lateResult =
          assertInstanceOf(ToolExecutionResultMessage.class, second.get(6));
      assertEquals(late.toolExecutionRequests().get(0).id(), lateResult.id());
      assertTrue(lateResult.text().contains(kafka.id().value()), lateResult.text());
      assertEquals(7, second.size(), second.toString());

      MemoryHook hook = memhook.hook("default").orElseThrow();
      assertEquals(Set.of(staging.id(), kafka.id()), hook.injectedIds());

      // turn 2: the same question injects nothing again, and the pairs are still sent
      assertEquals("Still 2am.", assistant.chat("is the staging database reset at 2am?"));
      List<ChatMessage> third = model.rawRequests().get(2).messages();
      assertEquals(3, count(third, ToolExecutionResultMessage.class), third.toString());
      assertInstanceOf(UserMessage.class, third.get(third.size() - 1));
    }
  }

  @Test
  void afterSendInjection_withoutToolCalls_callsTheModelAgainBeforeAiServicesAnswers() {
    try (MemoryService memory = service();
        MemhookLangChain4j memhook = MemhookLangChain4j.create(model, memory, options())) {
      Memory kafka = memory.remember(MemoryDraft.of(Scope.DEFAULT, KAFKA));
      Assistant assistant = assistant(memhook);
      script.then(
          ModelReply.builder()
              .reasoning("kafka consumer lag alerts may matter")
              .assistant("draft")
              .build(),
          ModelReply.text("final"));

      assertEquals("final", assistant.chat("hello there, how are you?"));

      List<ChatRequest> requests = model.rawRequests();
      assertEquals(2, requests.size(), "exactly one resend");
      List<ChatMessage> resent = requests.get(1).messages();
      assertEquals(
          "draft", assertInstanceOf(AiMessage.class, resent.get(resent.size() - 3)).text());
      ToolExecutionResultMessage pair =
          assertInstanceOf(ToolExecutionResultMessage.class, resent.get(resent.size() - 1));
      assertTrue(pair.text().contains(kafka.id().value()), pair.text());

      // the chat memory holds the whole exchange once, the final answer last
      List<ChatMessage> kept = memhook.conversation("default").orElseThrow().langChain4jMessages();
      assertEquals(
          List.of(
              UserMessage.class,
              AiMessage.class,
              AiMessage.class,
              ToolExecutionResultMessage.class,
              AiMessage.class),
          kept.stream().map(Object::getClass).toList());
      assertEquals("final", ((AiMessage) kept.get(4)).text());
    }
  }

  @Test
  void memoryIds_areSeparateConversations_withTheirOwnHooks() {
    try (MemoryService memory = service();
        MemhookLangChain4j memhook = MemhookLangChain4j.create(model, memory, options())) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, STAGING));
      var provider = memhook.chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(50));
      assertTrue(provider.get("a") == provider.get("a"));
      provider.get("b");
      MemoryHook a = memhook.hook("a").orElseThrow();
      MemoryHook b = memhook.hook("b").orElseThrow();
      assertFalse(a == b);
      memhook.evict("a");
      assertTrue(a.isDisposed());
      assertFalse(b.isDisposed());
      assertTrue(memhook.conversation("a").isEmpty());
    }
  }

  @Test
  void aClosedMemoryService_neverFailsTheAssistant() {
    MemoryService memory = service();
    memory.remember(MemoryDraft.of(Scope.DEFAULT, STAGING));
    try (MemhookLangChain4j memhook = MemhookLangChain4j.create(model, memory, options())) {
      Assistant assistant = assistant(memhook);
      script.then(ModelReply.text("first"), ModelReply.text("second"));
      memory.close();
      assertEquals("first", assistant.chat("when is the staging database reset?"));
      assertEquals(1, model.rawRequests().get(0).messages().size());
      assertEquals("second", assistant.chat("and again?"));
    }
  }

  @Test
  void theDecoratedModel_withoutAConversation_passesStraightThrough() {
    try (MemoryService memory = service();
        MemhookLangChain4j memhook = MemhookLangChain4j.create(model, memory, options())) {
      script.then(ModelReply.text("plain"));
      assertEquals("plain", memhook.chatModel().chat("hi"));
      assertEquals(1, model.rawRequests().get(0).messages().size());
    }
  }

  @Test
  void aTurnEndedByAnImmediateTool_leavesNoConversationOnItsThread_forADirectModelCall() {
    try (MemoryService memory = service();
        MemhookLangChain4j memhook = MemhookLangChain4j.create(model, memory, options())) {
      BookingAssistant assistant =
          memhook
              .configure(
                  AiServices.builder(BookingAssistant.class),
                  id -> MessageWindowChatMemory.withMaxMessages(50))
              .tools(new BookingTools())
              .build();
      // a service without chat memory on the same model, as an application shares one model bean
      Summarizer summarizer =
          AiServices.builder(Summarizer.class).chatModel(memhook.chatModel()).build();
      script.then(
          ModelReply.builder().toolCall("bookRoom", Map.of()).build(),
          ModelReply.text("The weather is nice."));

      // the tool's result is the answer: AiServices adds it to the chat memory and calls no model
      assertEquals(1, assistant.chat("alice", "book me a room").toolExecutions().size());
      List<ChatMessage> alices = memhook.conversation("alice").orElseThrow().langChain4jMessages();

      assertEquals("The weather is nice.", summarizer.summarize("Summarize: it is sunny."));
      assertEquals(
          alices,
          memhook.conversation("alice").orElseThrow().langChain4jMessages(),
          "another call on the thread is not alice's");
      assertEquals(1, model.rawRequests().get(1).messages().size());
    }
  }

  @Test
  void clearAndReAdd_logsNothingTwice_andARealClearKeepsTheHook() {
    try (MemoryService memory = service();
        MemhookLangChain4j memhook = MemhookLangChain4j.create(model, memory, options())) {
      Memory staging = memory.remember(MemoryDraft.of(Scope.DEFAULT, STAGING));
      var provider = memhook.chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(50));
      Assistant assistant =
          AiServices.builder(Assistant.class)
              .chatModel(memhook.chatModel())
              .chatMemoryProvider(provider)
              .toolProvider(memhook.toolProvider())
              .build();
      assistant.chat("when is the staging database reset?");
      LangChain4jChatService conversation = memhook.conversation("default").orElseThrow();
      MemoryHook hook = memhook.hook("default").orElseThrow();
      List<dev.memhook.api.chat.ChatMessage> before = conversation.messages();
      var chatMemory = provider.get("default");
      List<ChatMessage> kept = chatMemory.messages();
      assertEquals(4, kept.size(), kept.toString());

      // how LangChain4j removes one message (an output guardrail's violating answer)
      chatMemory.clear();
      kept.subList(0, kept.size() - 1).forEach(chatMemory::add);
      assertEquals(before, conversation.messages(), "nothing logged twice");
      assertEquals(3, chatMemory.messages().size());

      // a real clear: the model is sent the new turn alone, and the hook keeps its set
      chatMemory.clear();
      assistant.chat("when is the staging database reset?");
      assertEquals(1, model.rawRequests().get(1).messages().size());
      assertFalse(hook.isDisposed());
      assertEquals(Set.of(staging.id()), hook.injectedIds());
    }
  }

  @Test
  void optionsPerMemoryId_keepEachUsersMemoriesInTheirScope() {
    try (MemoryService memory = service();
        MemhookLangChain4j memhook =
            MemhookLangChain4j.create(
                model,
                memory,
                id ->
                    HookOptions.builder()
                        .scope(Scope.of("acme", id.toString()))
                        .recallTimeout(Duration.ofSeconds(30))
                        .noCapture()
                        .build())) {
      Memory alices = memory.remember(MemoryDraft.of(Scope.of("acme", "alice"), STAGING));
      UserAssistant assistant =
          memhook
              .configure(
                  AiServices.builder(UserAssistant.class),
                  id -> MessageWindowChatMemory.withMaxMessages(50))
              .build();
      assistant.chat("bob", "when is the staging database reset?");
      assistant.chat("alice", "when is the staging database reset?");

      assertEquals(Scope.of("acme", "bob"), memhook.hook("bob").orElseThrow().scope());
      assertTrue(memhook.hook("bob").orElseThrow().injectedIds().isEmpty());
      assertEquals(1, model.rawRequests().get(0).messages().size(), "bob's turn alone");
      assertEquals(Set.of(alices.id()), memhook.hook("alice").orElseThrow().injectedIds());
      assertEquals(3, model.rawRequests().get(1).messages().size(), "alice's pair and turn");
    }
  }

  @Test
  void capture_recordsEachAiServicesExchangeOnce() {
    try (MemoryService memory =
            Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
        MemhookLangChain4j memhook =
            MemhookLangChain4j.create(
                model,
                memory,
                id ->
                    HookOptions.builder()
                        .recallTimeout(Duration.ofSeconds(30))
                        .sessionId("lc4j-" + id)
                        .build())) {
      Assistant assistant = assistant(memhook);
      script.then(ModelReply.text("Noted."), ModelReply.text("Heron-db it is."));
      assistant.chat("We never run migrations on Sunday mornings.");
      assistant.chat("The staging database is called heron-db.");
      memhook.close();
      assertTrue(memory.capture().flush(Duration.ofMinutes(1)), "capture drained");
      List<String> captured = new java.util.ArrayList<>();
      memory
          .maintenance()
          .export(
              m -> {
                if ("lc4j-default".equals(m.sourceSession())) {
                  captured.add(m.content());
                }
              });
      for (String text :
          List.of(
              "We never run migrations on Sunday mornings.",
              "The staging database is called heron-db.",
              "Heron-db it is.")) {
        assertEquals(1, captured.stream().filter(text::equals).count(), text + " in " + captured);
      }
      // an acknowledgement is kept in its session, never as a memory
      assertEquals(0, captured.stream().filter("Noted."::equals).count(), captured.toString());
    }
  }
}
