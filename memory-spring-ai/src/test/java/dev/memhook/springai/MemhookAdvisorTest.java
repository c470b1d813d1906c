package dev.memhook.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.ModelReply;
import dev.memhook.testkit.ModelRequest;
import dev.memhook.testkit.ModelScript;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.model.ChatModel;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The advisor on a real {@link ChatClient} over a scripted model: where the injected pair lands,
 * the model's own get_memory calls, at-most-once per conversation, capture, failures, resends,
 * streams, and Spring AI's chat-memory advisor beside it.
 */
class MemhookAdvisorTest {

  private static final Duration GENEROUS = Duration.ofSeconds(30);
  private static final String FACT =
      "The heron-db staging database resets every Sunday at 02:00 UTC; never run migrations then.";
  private static final String QUESTION =
      "When does the heron-db staging database reset? I want to run migrations.";

  private MemoryService memory;
  private MemhookAdvisor advisor;
  private ModelScript model;
  private MemoryId fact;

  @BeforeEach
  void setUp() {
    memory = Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
    fact = memory.remember(MemoryDraft.of(Scope.DEFAULT, FACT)).id();
    advisor = advisor(memory);
    model = ModelScript.create();
  }

  @AfterEach
  void tearDown() {
    advisor.close();
    memory.close();
  }

  private static MemhookAdvisor advisor(MemoryService memory) {
    return MemhookAdvisor.builder(memory)
        .hookOptions(HookOptions.builder().recallTimeout(GENEROUS).build())
        .callbackTimeout(GENEROUS)
        .build();
  }

  private ChatClient client() {
    return ChatClient.builder(new ScriptedChatModel(model)).defaultAdvisors(advisor).build();
  }

  private static String ask(ChatClient client, String conversation, String text) {
    return client
        .prompt()
        .user(text)
        .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation))
        .call()
        .content();
  }

  private static List<ChatRole> roles(ModelRequest request) {
    return request.messages().stream().map(ChatMessage::role).toList();
  }

  private static List<ChatMessage> getMemoryCalls(ModelRequest request) {
    return request.messages().stream()
        .filter(m -> m.role() == ChatRole.TOOL_CALL && m.toolCall().toolName().equals("get_memory"))
        .toList();
  }

  @Test
  void injectedPair_reachesTheModel_asToolCallThenResultThenTheUserTurn() {
    model.then(ModelReply.text("Sunday at 02:00 UTC."));

    String answer = ask(client(), "c1", QUESTION);

    assertEquals("Sunday at 02:00 UTC.", answer);
    ModelRequest request = model.requests().get(0);
    assertEquals(List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER), roles(request));
    ChatMessage call = request.messages().get(0);
    ChatMessage result = request.messages().get(1);
    assertEquals("get_memory", call.toolCall().toolName());
    assertEquals(call.toolCall().id(), result.toolCall().id(), "the result answers its call");
    assertTrue(result.text().contains(fact.value()), result.text());
    assertEquals(QUESTION, request.messages().get(2).text());
    assertTrue(request.toolNames().contains("get_memory"), "get_memory is offered");
    assertEquals(List.of(fact), List.copyOf(advisor.hook("c1").orElseThrow().injectedIds()));
  }

  @Test
  void modelsGetMemoryCall_isAnsweredWithTheFullMemory() {
    model.then(
        ModelReply.builder().toolCall("get_memory", Map.of("id", fact.value())).build(),
        ModelReply.text("Not on Sunday at 02:00 UTC."));

    String answer = ask(client(), "c1", "Hello there, what is new today?");

    assertEquals("Not on Sunday at 02:00 UTC.", answer);
    assertEquals(2, model.requests().size());
    ModelRequest second = model.requests().get(1);
    ChatMessage last = second.messages().get(second.messages().size() - 1);
    assertEquals(ChatRole.TOOL_RESULT, last.role());
    assertTrue(last.text().contains(FACT), "the full memory: " + last.text());
    List<ChatMessage> seen = advisor.chatService("c1").messages();
    assertTrue(
        seen.stream().anyMatch(m -> m.role() == ChatRole.TOOL_CALL),
        "the model's tool call joins the view: " + seen);
  }

  @Test
  void aMemory_isInjectedOncePerConversation_andItsPairStaysInLaterPrompts() {
    ChatClient client = client();
    ask(client, "c1", QUESTION);
    ask(client, "c1", "And does the heron-db staging database reset on Sunday at 02:00 UTC?");
    ask(client, "c2", QUESTION);

    List<ModelRequest> requests = model.requests();
    assertEquals(3, requests.size());
    assertEquals(1, getMemoryCalls(requests.get(0)).size());
    // turn 2 of c1: the turn-1 pair again (its user message is not in this prompt, so the pair
    // leads), and no second injection
    List<ChatMessage> again = getMemoryCalls(requests.get(1));
    assertEquals(1, again.size());
    assertEquals(
        getMemoryCalls(requests.get(0)).get(0).toolCall().id(), again.get(0).toolCall().id());
    assertEquals(
        List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER), roles(requests.get(1)));
    assertEquals(List.of(fact), List.copyOf(advisor.hook("c1").orElseThrow().injectedIds()));
    // c2 is another conversation with its own hook: the memory is injected there too (with what
    // c1 captured meanwhile)
    assertEquals(1, getMemoryCalls(requests.get(2)).size());
    assertTrue(advisor.hook("c2").orElseThrow().injectedIds().contains(fact));
  }

  @Test
  void optionsPerConversationId_keepEachUsersMemoriesInTheirScope() {
    MemoryId alices = memory.remember(MemoryDraft.of(Scope.of("acme", "alice"), FACT)).id();
    try (MemhookAdvisor perUser =
        MemhookAdvisor.builder(memory)
            .hookOptionsByConversationId(
                id ->
                    id.equals("nobody")
                        ? null
                        : HookOptions.builder()
                            .scope(Scope.of("acme", id))
                            .recallTimeout(GENEROUS)
                            .noCapture()
                            .build())
            .callbackTimeout(GENEROUS)
            .build()) {
      ChatClient client =
          ChatClient.builder(new ScriptedChatModel(model)).defaultAdvisors(perUser).build();

      ask(client, "bob", QUESTION);
      ask(client, "alice", QUESTION);
      assertEquals("ok", ask(client, "nobody", QUESTION), "no options: the call goes on");

      assertEquals(Scope.of("acme", "bob"), perUser.hook("bob").orElseThrow().scope());
      assertEquals(List.of(ChatRole.USER), roles(model.requests().get(0)), "bob's turn alone");
      assertTrue(perUser.hook("bob").orElseThrow().injectedIds().isEmpty());
      assertEquals(
          List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER),
          roles(model.requests().get(1)));
      assertEquals(List.of(alices), List.copyOf(perUser.hook("alice").orElseThrow().injectedIds()));
      assertEquals(List.of(ChatRole.USER), roles(model.requests().get(2)));
      assertTrue(perUser.hook("nobody").isEmpty());
    }
    MemhookAdvisor.Builder both =
        MemhookAdvisor.builder(memory).hookOptions(HookOptions.defaults());
    assertThrows(
        IllegalStateException.class,
        () -> both.hookOptionsByConversationId(id -> HookOptions.defaults()));
  }

  @Test
  void aRequestWithoutConversationId_usesTheDefaultConversation() {
    client().prompt().user(QUESTION).call().content();

    assertEquals(
        java.util.Set.of(MemhookAdvisor.DEFAULT_CONVERSATION_ID), advisor.conversationIds());
  }

  @Test
  void capture_recordsTheExchangeOnce_withoutThePair() {
    model.then(ModelReply.text("Not on Sunday at 02:00 UTC, heron-db resets then."));
    ask(client(), "c1", QUESTION);
    advisor.endConversation("c1");

    assertTrue(memory.capture().flush(GENEROUS), "capture caught up");
    List<Memory> captured = new ArrayList<>();
    memory
        .maintenance()
        .export(
            m -> {
              if ("spring-ai-c1".equals(m.sourceSession())) {
                captured.add(m);
              }
            });
    List<String> contents = captured.stream().map(Memory::content).toList();
    assertEquals(1, contents.stream().filter(QUESTION::equals).count(), contents.toString());
    assertEquals(
        1,
        contents.stream()
            .filter("Not on Sunday at 02:00 UTC, heron-db resets then."::equals)
            .count(),
        contents.toString());
    assertFalse(
        contents.stream().anyMatch(c -> c.contains("get_memory") || c.contains(fact.value())),
        "the injected pair is never captured: " + contents);
  }

  @Test
  void aClosedMemoryService_neverFailsTheCall() {
    ChatClient client = client();
    ask(client, "c1", QUESTION);
    memory.close();
    model.then(ModelReply.text("still here"));

    assertEquals("still here", ask(client, "c1", "Another question about heron-db resets"));
    assertEquals("ok", ask(client, "c2", QUESTION), "a new conversation passes through");
    assertEquals(List.of(ChatRole.USER), roles(model.requests().get(2)));
  }

  @Test
  void reasoningThatRecallsAMemory_resendsOnce_withThePair() {
    model.then(
        ModelReply.builder()
            .reasoning("The heron-db staging database resets every Sunday at 02:00 UTC, I think.")
            .assistant("first answer")
            .build(),
        ModelReply.text("second answer"));

    String answer = ask(client(), "c1", "Can I schedule my maintenance job tonight?");

    assertEquals("second answer", answer, "the caller gets the resend's answer");
    List<ModelRequest> requests = model.requests();
    assertEquals(2, requests.size(), "exactly one resend");
    assertEquals(List.of(ChatRole.USER), roles(requests.get(0)));
    assertEquals(
        List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER), roles(requests.get(1)));
    List<ChatRole> seen =
        advisor.chatService("c1").messages().stream().map(ChatMessage::role).toList();
    assertTrue(seen.contains(ChatRole.REASONING), "reasoning reached the view: " + seen);
  }

  @Test
  void aStream_getsThePair_andItsTextJoinsTheConversation() {
    model.then(ModelReply.text("Sunday at 02:00 UTC."));

    String streamed =
        String.join(
            "",
            client()
                .prompt()
                .user(QUESTION)
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "s1"))
                .stream()
                .content()
                .collectList()
                .block(GENEROUS));

    assertEquals("Sunday at 02:00 UTC.", streamed);
    assertEquals(
        List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER),
        roles(model.requests().get(0)));
    List<ChatMessage> seen = advisor.chatService("s1").messages();
    assertEquals("Sunday at 02:00 UTC.", seen.get(seen.size() - 1).text());
  }

  @Test
  void aStreamCancelledAtOnce_givesTheConversationBack_soItsNextCallRuns() {
    for (int i = 0; i < 20; i++) {
      client()
          .prompt()
          .user(QUESTION)
          .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "s2"))
          .stream()
          .content()
          .subscribe()
          .dispose();
    }
    model.then(ModelReply.text("still answering"));

    String answer =
        Mono.fromCallable(
                () ->
                    client()
                        .prompt()
                        .user("and now?")
                        .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "s2"))
                        .call()
                        .content())
            .subscribeOn(Schedulers.boundedElastic())
            .block(GENEROUS);

    assertNotNull(answer, "the conversation's next call ran: no turn was left taken");
  }

  @Test
  void besideMessageChatMemoryAdvisor_pairsStayBeforeTheirTurn_andStayOutOfChatMemory() {
    ChatMemory window = MessageWindowChatMemory.builder().maxMessages(20).build();
    ChatClient client =
        ChatClient.builder(new ScriptedChatModel(model))
            .defaultAdvisors(MessageChatMemoryAdvisor.builder(window).build(), advisor)
            .build();
    model.then(ModelReply.text("Sunday at 02:00 UTC."), ModelReply.text("You're welcome."));

    ask(client, "c1", QUESTION);
    ask(client, "c1", "Thanks!");

    ModelRequest second = model.requests().get(1);
    assertEquals(
        List.of(
            ChatRole.TOOL_CALL,
            ChatRole.TOOL_RESULT,
            ChatRole.USER,
            ChatRole.ASSISTANT,
            ChatRole.USER),
        roles(second));
    assertEquals(QUESTION, second.messages().get(2).text());
    List<MessageType> stored = window.get("c1").stream().map(Message::getMessageType).toList();
    assertEquals(
        List.of(MessageType.USER, MessageType.ASSISTANT, MessageType.USER, MessageType.ASSISTANT),
        stored,
        "Spring's chat memory keeps the short-term window; the pairs are Memhook's");
  }

  @Test
  void theDefaultOrder_isInsideChatMemoryAndOutsideToolCalling() {
    assertInstanceOf(Integer.class, advisor.getOrder());
    assertTrue(
        advisor.getOrder()
            > MessageChatMemoryAdvisor.builder(MessageWindowChatMemory.builder().build())
                .build()
                .getOrder());
    assertTrue(
        advisor.getOrder()
            < org.springframework.ai.chat.client.advisor.ToolCallingAdvisor.DEFAULT_ORDER);
  }

  @Test
  void aModelWhoseOptionsTakeNoTools_isWarnedOnce_andStillGetsThePair() {
    ScriptedChatModel scripted = new ScriptedChatModel(model);
    ChatModel keepsDefaultOptions = scripted::call; // ChatModel's default options take no tools
    ChatClient client = ChatClient.builder(keepsDefaultOptions).defaultAdvisors(advisor).build();
    model.then(
        ModelReply.text("Sunday at 02:00 UTC."), ModelReply.text("ok"), ModelReply.text("ok"));

    String log =
        stderrOf(
            () -> {
              ask(client, "c1", QUESTION);
              ask(client, "c1", "And what about heron-db backups?");
              ask(client, "c2", "Anything else about the heron-db staging database?");
            });

    List<String> warnings =
        log.lines().filter(l -> l.contains("are not ToolCallingChatOptions")).toList();
    assertEquals(1, warnings.size(), log);
    assertTrue(warnings.get(0).contains("WARN dev.memhook.springai.LoopPhases"), log);
    assertTrue(warnings.get(0).contains("([get_memory])"), warnings.get(0));
    assertTrue(warnings.get(0).contains("cannot fetch one in full"), warnings.get(0));
    ModelRequest first = model.requests().get(0);
    assertEquals(List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER), roles(first));
    assertEquals(List.of(), first.toolNames(), "no tool reaches the model");
  }

  @Test
  void aModelWhoseOptionsTakeTools_isNotWarned() {
    model.then(ModelReply.text("Sunday at 02:00 UTC."));

    String log = stderrOf(() -> ask(client(), "c1", QUESTION));

    assertFalse(log.contains("ToolCallingChatOptions"), log);
    assertTrue(model.requests().get(0).toolNames().contains("get_memory"));
  }

  /** What slf4j-simple (the tests' binding, writing to standard error) logged while {@code run}. */
  private static String stderrOf(Runnable run) {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      run.run();
    } finally {
      System.setErr(err);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}
