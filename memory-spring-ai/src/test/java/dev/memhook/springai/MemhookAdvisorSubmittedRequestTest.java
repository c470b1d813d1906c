package dev.memhook.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;

/**
 * What the advisor's views report to {@code onRequestSubmitted}: each request it hands down the
 * chain, with the pairs where it placed them; and the receipts a real hook links to them.
 */
class MemhookAdvisorSubmittedRequestTest {

  private static final Duration GENEROUS = Duration.ofSeconds(30);
  private static final ToolDefinition ECHO =
      new ToolDefinition("echo", "echoes", "{\"type\":\"object\"}");
  private static final String CONVERSATION = "c1";

  private final ModelScript model = ModelScript.create();
  private final List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();
  private MemhookAdvisor advisor = MemhookAdvisor.withoutHooks().callbackTimeout(GENEROUS).build();
  private MemoryService memory;

  @AfterEach
  void tearDown() {
    advisor.close();
    if (memory != null) {
      memory.close();
    }
  }

  private ChatClient client() {
    return ChatClient.builder(new ScriptedChatModel(model)).defaultAdvisors(advisor).build();
  }

  private String ask(String text) {
    return client()
        .prompt()
        .user(text)
        .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, CONVERSATION))
        .call()
        .content();
  }

  private String askStreaming(String text) {
    return String.join(
        "",
        client()
            .prompt()
            .user(text)
            .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, CONVERSATION))
            .stream()
            .content()
            .collectList()
            .block(GENEROUS));
  }

  private static List<ChatRole> roles(List<ChatMessage> messages) {
    return messages.stream().map(ChatMessage::role).toList();
  }

  private static List<String> attemptIds(List<SubmittedRequest> requests) {
    return requests.stream().map(SubmittedRequest::attemptId).toList();
  }

  private static CompletableFuture<Void> done() {
    return CompletableFuture.completedFuture(null);
  }

  /** The view with an echo tool whose pair is injected before the first loop. */
  private ChatService viewInjectingOnce() {
    ChatService view = advisor.chatService(CONVERSATION);
    view.registerTool(ECHO, call -> CompletableFuture.completedFuture(ToolResult.success("echo")));
    AtomicBoolean once = new AtomicBoolean();
    view.onBeforeSendLoop(
        () ->
            once.compareAndSet(false, true)
                ? view.injectToolCall("echo", Map.of("text", "hi")).thenApply(r -> null)
                : done());
    return view;
  }

  @Test
  void theRequestHandedDownTheChain_isReportedOnce_withThePairBeforeTheUserTurn_asTheViewHoldsIt() {
    ChatService view = viewInjectingOnce();
    view.onRequestSubmitted(reported::add).orElseThrow();
    // the model calls echo: Spring's tool-calling advisor calls the model a second time
    model.then(ModelReply.builder().toolCall("echo", Map.of()).build(), ModelReply.text("done"));

    assertEquals("done", ask("what did I say?"));

    assertEquals(2, model.requests().size());
    assertEquals(List.of("attempt-1"), attemptIds(reported), "one request handed down the chain");
    List<ChatMessage> carried = reported.get(0).messages();
    assertEquals(List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER), roles(carried));
    assertEquals(roles(model.requests().get(0).messages()), roles(carried), "as the model read it");
    // the kit's placement puts the pair before its turn's user message in the view too, so the
    // request carried the view's messages in the view's order, same ids
    assertEquals(view.messages().subList(0, 3), carried);
  }

  @Test
  void aResend_isReportedAsASecondRequest_butOneNotMadeIsNot() {
    ChatService view = advisor.chatService(CONVERSATION);
    view.registerTool(ECHO, call -> CompletableFuture.completedFuture(ToolResult.success("echo")));
    AtomicBoolean resendOnce = new AtomicBoolean();
    view.onAfterSend(
        () -> {
          if (!resendOnce.compareAndSet(false, true)) {
            return done();
          }
          return view.injectToolCall("echo", Map.of())
              .thenApply(
                  r -> {
                    view.setNeedsResend();
                    return null;
                  });
        });
    view.onRequestSubmitted(reported::add).orElseThrow();

    ask("first");

    assertEquals(2, model.requests().size());
    assertEquals(List.of("attempt-1", "attempt-2"), attemptIds(reported));
    assertEquals(
        List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER),
        roles(reported.get(1).messages()));

    // a resend asked for and then interrupted is never made, so never reported
    view.onAfterSend(
        () -> {
          view.setNeedsResend();
          view.interrupt(false);
          return done();
        });
    ask("second");

    assertEquals(3, model.requests().size());
    assertEquals(List.of("attempt-1", "attempt-2", "attempt-3"), attemptIds(reported));
  }

  @Test
  void aStream_isReportedOnce_andTheResendItCannotMakeIsNot() {
    ChatService view = viewInjectingOnce();
    view.onAfterSend(
        () -> {
          view.setNeedsResend();
          return done();
        });
    view.onRequestSubmitted(reported::add).orElseThrow();
    model.then(ModelReply.text("streamed"));

    assertEquals("streamed", askStreaming("what did I say?"));

    assertEquals(1, model.requests().size());
    assertEquals(List.of("attempt-1"), attemptIds(reported));
    assertEquals(
        List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER),
        roles(reported.get(0).messages()));
  }

  // ---- with a memory service ---------------------------------------------------------------

  private static final String FACT =
      "The heron-db staging database resets every Sunday at 02:00 UTC; never run migrations then.";
  private static final String QUESTION =
      "When does the heron-db staging database reset? I want to run migrations.";

  private static InjectionReceipt injectedReceipt(MemoryHook hook) {
    List<InjectionReceipt> injected =
        hook.receipts().stream().filter(r -> !r.injectedIds().isEmpty()).toList();
    assertEquals(1, injected.size(), "one injecting receipt: " + hook.receipts());
    return injected.get(0);
  }

  private static void assertAppearance(
      InjectionReceipt receipt, RequestAppearance appearance, SubmittedRequest request) {
    List<ChatMessage> messages = request.messages();
    int call = -1;
    for (int i = 0; i < messages.size() && call < 0; i++) {
      if (messages.get(i).role() == ChatRole.TOOL_CALL
          && messages.get(i).toolCall().toolName().equals("get_memory")) {
        call = i;
      }
    }
    assertTrue(call >= 0, "the request carried the pair: " + roles(messages));
    assertEquals(request.attemptId(), appearance.attemptId());
    assertEquals(messages.get(call).id(), appearance.callMessageId());
    assertEquals(messages.get(call + 1).id(), appearance.resultMessageId());
    assertEquals(messages.get(call).toolCall().id(), receipt.toolCallId());
  }

  @Test
  void withAHook_aPairTheRequestsCarried_isDelivered_onceAppearancePerRequest() {
    memory = Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
    Memory fact = memory.remember(MemoryDraft.of(Scope.DEFAULT, FACT));
    advisor.close();
    advisor =
        MemhookAdvisor.builder(memory)
            .hookOptions(HookOptions.builder().recallTimeout(GENEROUS).noCapture().build())
            .callbackTimeout(GENEROUS)
            .build();
    ChatService view = advisor.chatService(CONVERSATION);
    view.onRequestSubmitted(reported::add).orElseThrow();
    MemoryHook hook = advisor.hook(CONVERSATION).orElseThrow();
    model.then(ModelReply.text("Sunday at 02:00 UTC."), ModelReply.text("You're welcome."));

    ask(QUESTION);

    InjectionReceipt receipt = injectedReceipt(hook);
    assertEquals(List.of(fact.id()), receipt.injectedIds());
    assertEquals(PhaseStatus.Status.DELIVERED, receipt.delivery().status());
    assertEquals(1, receipt.appearances().size());
    assertAppearance(receipt, receipt.appearances().get(0), reported.get(0));
    ChatMessage call =
        view.messages().stream()
            .filter(m -> m.role() == ChatRole.TOOL_CALL)
            .findFirst()
            .orElseThrow();
    assertEquals(call.id(), receipt.appearances().get(0).callMessageId(), "the view's own ids");

    ask("Thanks!");

    InjectionReceipt later = injectedReceipt(hook);
    assertEquals(receipt.id(), later.id(), "still one injection");
    assertEquals(2, later.appearances().size(), "the next call's request carried the pair too");
    assertAppearance(later, later.appearances().get(1), reported.get(1));
    assertEquals(1, hook.injectedIds().size());
  }
}
