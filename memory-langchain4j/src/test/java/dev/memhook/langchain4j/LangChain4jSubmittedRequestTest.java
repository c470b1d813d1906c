package dev.memhook.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.service.AiServices;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.api.trace.RequestAppearance;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.ModelReply;
import dev.memhook.testkit.ModelScript;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * What {@link LangChain4jChatService} reports to {@code onRequestSubmitted}, on its own sends and
 * through AiServices, and the receipts a hook links to it.
 */
class LangChain4jSubmittedRequestTest {

  private static final ToolDefinition ECHO =
      new ToolDefinition("echo", "echoes", "{\"type\":\"object\"}");

  private final ModelScript script = ModelScript.create();
  private final ScriptedChatModel model = new ScriptedChatModel(script);
  private final LangChain4jChatService chat = LangChain4jChatService.create(model);
  private final List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();

  private static <T> T await(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static List<ChatRole> roles(List<ChatMessage> messages) {
    return messages.stream().map(ChatMessage::role).toList();
  }

  private static List<String> texts(List<ChatMessage> messages) {
    return messages.stream().map(ChatMessage::text).toList();
  }

  @Test
  void eachModelCall_isReportedOnce_inOrder_asTheLoggedMessagesInTheRequestsOrder()
      throws Exception {
    chat.registerTool(
        ECHO, call -> CompletableFuture.completedFuture(ToolResult.success("echoed")));
    AtomicBoolean injected = new AtomicBoolean();
    chat.onBeforeSendLoop(
        () ->
            injected.compareAndSet(false, true)
                ? chat.injectToolCall("echo", Map.of("text", "hi")).thenApply(r -> null)
                : CompletableFuture.completedFuture(null));
    List<Integer> modelCallsBefore = new CopyOnWriteArrayList<>();
    chat.onRequestSubmitted(
            r -> {
              modelCallsBefore.add(script.requests().size());
              reported.add(r);
            })
        .orElseThrow();
    script.then(ModelReply.builder().toolCall("echo", Map.of()).build(), ModelReply.text("done"));

    await(chat.sendUser("what did I say?"));

    assertEquals(
        List.of("attempt-1", "attempt-2"), reported.stream().map(r -> r.attemptId()).toList());
    assertEquals(List.of(0, 1), modelCallsBefore, "reported before the model was called");
    List<ChatMessage> log = chat.messages();
    // the injected pair is placed before the user's turn, and reported there, ids and all
    assertEquals(
        List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER),
        roles(reported.get(0).messages()));
    assertEquals(log.subList(0, 3), reported.get(0).messages());
    assertEquals(log.subList(0, 5), reported.get(1).messages(), "the model's call and result too");
    for (int i = 0; i < 2; i++) {
      assertEquals(
          roles(script.requests().get(i).messages()),
          roles(reported.get(i).messages()),
          "request " + i);
    }
  }

  @Test
  void aLoopInterruptedBeforeItsModelCall_reportsNothing() throws Exception {
    chat.onRequestSubmitted(reported::add).orElseThrow();
    AtomicBoolean once = new AtomicBoolean();
    chat.onBeforeSendLoop(
        () -> {
          if (once.compareAndSet(false, true)) {
            chat.interrupt(false);
          }
          return CompletableFuture.completedFuture(null);
        });

    ExecutionException e = assertThrows(ExecutionException.class, () -> await(chat.sendUser("hi")));

    assertInstanceOf(CancellationException.class, e.getCause());
    assertEquals(List.of(), script.requests());
    assertEquals(List.of(), reported, "nothing was submitted");
    await(chat.send());
    assertEquals(1, reported.size());
    assertEquals(List.of("hi"), texts(reported.get(0).messages()));
  }

  @Test
  void aBoundedOrResumedChatMemory_reportsWhatTheModelIsSent() throws Exception {
    var window = MessageWindowChatMemory.withMaxMessages(3);
    window.add(UserMessage.from("an old question"));
    window.add(AiMessage.from("an old answer"));
    LangChain4jChatService service =
        LangChain4jChatService.builder().chatModel(model).chatMemory(window).build();
    service.onRequestSubmitted(reported::add).orElseThrow();

    await(service.sendUser("first"));
    await(service.sendUser("second"));

    assertEquals(
        List.of("an old question", "an old answer", "first"), texts(reported.get(0).messages()));
    assertEquals(
        service.messages().get(0).id(),
        reported.get(0).messages().get(2).id(),
        "a logged message is reported as itself");
    assertEquals(List.of("first", "ok", "second"), texts(reported.get(1).messages()));
    assertEquals(service.messages().subList(0, 3), reported.get(1).messages());
  }

  // ---- with a memory service ---------------------------------------------------------------

  private static final String STAGING = "The staging database is reset every night at 2am.";

  private static MemoryService service() {
    return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).noCapture().build();
  }

  private static HookOptions options() {
    return HookOptions.builder().recallTimeout(Duration.ofSeconds(30)).noCapture().build();
  }

  private static InjectionReceipt injectedReceipt(MemoryHook hook) {
    List<InjectionReceipt> injected =
        hook.receipts().stream()
            .filter(r -> r.phase() == HookPhase.BEFORE_SEND_LOOP && !r.injectedIds().isEmpty())
            .toList();
    assertEquals(1, injected.size(), "one injecting receipt: " + hook.receipts());
    return injected.get(0);
  }

  /** The appearance names the pair's messages as the conversation logged them. */
  private static void assertNamesThePair(
      InjectionReceipt receipt, RequestAppearance appearance, List<ChatMessage> log) {
    ChatMessage call =
        log.stream()
            .filter(m -> m.role() == ChatRole.TOOL_CALL)
            .filter(m -> m.toolCall().toolName().equals("get_memory"))
            .filter(m -> m.toolCall().arguments().get("summary") != null)
            .findFirst()
            .orElseThrow();
    ChatMessage result = log.get(log.indexOf(call) + 1);
    assertEquals(ChatRole.TOOL_RESULT, result.role());
    assertEquals(call.id(), appearance.callMessageId());
    assertEquals(result.id(), appearance.resultMessageId());
    assertEquals(call.toolCall().id(), receipt.toolCallId());
  }

  @Test
  void hookedService_aDeliveredPair_hasOneAppearancePerRequestThatCarriedIt() throws Exception {
    try (MemoryService memory = service()) {
      Memory staging = memory.remember(MemoryDraft.of(Scope.DEFAULT, STAGING));
      MemoryHook hook = memory.hookInto(chat, options());
      chat.onRequestSubmitted(reported::add);
      chat.registerTool(
          ECHO, call -> CompletableFuture.completedFuture(ToolResult.success("echoed")));
      script.then(ModelReply.builder().toolCall("echo", Map.of()).build(), ModelReply.text("done"));

      await(chat.sendUser("when is the staging database reset?"));

      InjectionReceipt receipt = injectedReceipt(hook);
      assertEquals(List.of(staging.id()), receipt.injectedIds());
      assertEquals(PhaseStatus.Status.DELIVERED, receipt.delivery().status());
      assertEquals(
          List.of("attempt-1", "attempt-2"),
          receipt.appearances().stream().map(RequestAppearance::attemptId).toList(),
          "the echo call forced a second request carrying the pair");
      assertNamesThePair(receipt, receipt.appearances().get(0), chat.messages());
      assertNamesThePair(receipt, receipt.appearances().get(1), chat.messages());

      await(chat.sendUser("and is it reset on weekends?"));

      InjectionReceipt later = injectedReceipt(hook);
      assertEquals(receipt.id(), later.id());
      assertEquals(3, later.appearances().size());
      assertEquals(1, hook.injectedIds().size());
    }
  }

  interface Assistant {
    String chat(String message);
  }

  @Test
  void aiServices_eachModelCallTheDecoratorMakes_isASubmission() {
    try (MemoryService memory = service();
        MemhookLangChain4j memhook = MemhookLangChain4j.create(model, memory, options())) {
      Memory staging = memory.remember(MemoryDraft.of(Scope.DEFAULT, STAGING));
      Assistant assistant =
          memhook
              .configure(
                  AiServices.builder(Assistant.class),
                  id -> MessageWindowChatMemory.withMaxMessages(50))
              .build();
      script.then(
          // the model fetches the memory in full: AiServices executes it and calls again
          ModelReply.builder().toolCall("get_memory", Map.of("id", staging.id().value())).build(),
          ModelReply.text("At 2am."),
          ModelReply.text("Every night."));

      assertEquals("At 2am.", assistant.chat("when is the staging database reset?"));

      MemoryHook hook = memhook.hook("default").orElseThrow();
      LangChain4jChatService conversation = memhook.conversation("default").orElseThrow();
      InjectionReceipt receipt = injectedReceipt(hook);
      assertEquals(PhaseStatus.Status.DELIVERED, receipt.delivery().status());
      assertEquals(2, model.rawRequests().size());
      assertEquals(2, receipt.appearances().size(), "both model calls of the turn carried it");
      assertNamesThePair(receipt, receipt.appearances().get(0), conversation.messages());
      assertNamesThePair(receipt, receipt.appearances().get(1), conversation.messages());

      assertEquals("Every night.", assistant.chat("is it reset on weekends too?"));

      InjectionReceipt later = injectedReceipt(hook);
      assertEquals(receipt.id(), later.id());
      assertEquals(3, later.appearances().size(), "the next turn's call carried it too");
      assertTrue(
          later.appearances().stream().map(RequestAppearance::attemptId).distinct().count() == 3);
    }
  }
}
