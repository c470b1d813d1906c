package dev.memhook.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.InjectionReceipt;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.PhaseStatus;
import dev.memhook.api.RequestAppearance;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link ChatService} implementation owes a memory hook. A host's test extends
 * it and supplies {@link #newHarness(ModelScript)}, a fresh conversation whose model answers from
 * the given script:
 *
 * <pre>{@code
 * class MyChatServiceContractTest extends ChatServiceContract {
 *   @Override protected ChatHarness newHarness(ModelScript model) {
 *     MyChat chat = new MyChat(new ScriptedModelAdapter(model)); // your model type over the script
 *     return ChatHarness.of(chat, chat::sendUser);
 *   }
 *   @Override protected MemoryService newMemoryService() {
 *     return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
 *   }
 * }
 * }</pre>
 *
 * The first group of tests checks the SPI itself with plain callbacks and a probe tool: what each
 * callback sees, where injected messages go, resends, ordering and registrations. The second group
 * hooks a real {@link MemoryService} into the chat and checks what a user of {@code hookInto} sees;
 * it runs when {@link #newMemoryService()} returns a service. The tests of {@link
 * ChatService#onRequestSubmitted} run when the chat service reports its submissions. The adapters
 * for LangChain4j and Spring AI and {@link FakeChatService} run this contract.
 */
public abstract class ChatServiceContract {

  /** The name of the probe tool the tests register. */
  protected static final String PROBE = "probe";

  private static final ToolDefinition PROBE_TOOL =
      new ToolDefinition(
          PROBE,
          "A test tool that echoes its argument.",
          "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}");

  private static final long WAIT_SECONDS = 30;

  private final List<AutoCloseable> opened = new ArrayList<>();

  /**
   * A fresh conversation on the chat service under test, its model answering from {@code model}.
   */
  protected abstract ChatHarness newHarness(ModelScript model);

  /**
   * A fresh, empty memory service for the tests that hook a real service into the chat; null (the
   * default) skips them. The service is closed after each test.
   */
  protected MemoryService newMemoryService() {
    return null;
  }

  @AfterEach
  void closeOpened() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
    opened.clear();
  }

  // ---- the SPI ---------------------------------------------------------------------------

  @Test
  void beforeSendLoop_seesTheUserMessageInMessages() {
    ModelScript model = ModelScript.create();
    ChatHarness h = open(model);
    List<List<ChatMessage>> seen = new CopyOnWriteArrayList<>();
    h.chat().onBeforeSendLoop(() -> done(() -> seen.add(h.chat().messages())));

    await(h.sendUser("where is the config?"));

    assertEquals(1, seen.size(), "one send loop, one beforeSendLoop");
    ChatMessage last = userMessages(seen.get(0)).get(0);
    assertEquals("where is the config?", last.text());
    assertEquals(MessageOrigin.USER, last.origin());
  }

  @Test
  void aPairInjectedBeforeTheLoop_reachesTheModelInThatLoop_callThenResult() {
    ModelScript model = ModelScript.create();
    ChatHarness h = open(model);
    registerProbe(h.chat(), new AtomicInteger());
    AtomicInteger fired = new AtomicInteger();
    h.chat()
        .onBeforeSendLoop(
            () ->
                fired.getAndIncrement() == 0
                    ? h.chat().injectToolCall(PROBE, Map.of("q", "hello")).thenApply(r -> null)
                    : done(() -> {}));

    await(h.sendUser("hi"));

    assertEquals(1, model.requests().size(), "beforeSendLoop never asks for a resend");
    List<ChatMessage> request = model.requests().get(0).messages();
    int call = indexOfCall(request, ChatRole.TOOL_CALL, PROBE);
    assertTrue(call >= 0, "the injected call is in the request: " + roles(request));
    ChatMessage result = request.get(call + 1);
    assertEquals(ChatRole.TOOL_RESULT, result.role(), "the result follows its call at once");
    assertEquals(request.get(call).toolCall().id(), result.toolCall().id());
    assertEquals("echo:hello", result.text());
    assertEquals(Map.of("q", "hello"), request.get(call).toolCall().arguments());
    assertEquals(1, userMessages(request).size(), "the user's message is in the same request");
    List<ChatMessage> after = h.chat().messages();
    ChatMessage keptCall = after.get(indexOfCall(after, ChatRole.TOOL_CALL, PROBE));
    assertEquals(MessageOrigin.SYNTHETIC, keptCall.origin(), "injected messages are synthetic");
  }

  @Test
  void injectToolCall_outsideASend_sendsNothingUntilTheNextSend() {
    ModelScript model = ModelScript.create();
    ChatHarness h = open(model);
    registerProbe(h.chat(), new AtomicInteger());

    ToolResult result = await(h.chat().injectToolCall(PROBE, Map.of("q", "x")));

    assertEquals("echo:x", result.content());
    assertEquals(0, model.requests().size(), "injecting neither sends nor interrupts");
    await(h.sendUser("next"));
    assertTrue(
        indexOfCall(model.requests().get(0).messages(), ChatRole.TOOL_CALL, PROBE) >= 0,
        "the queued pair goes out with the next send");
  }

  @Test
  void injectToolCall_ofAnUnknownTool_failsTheStageWithIllegalArgument() {
    ChatHarness h = open(ModelScript.create());

    CompletionStage<ToolResult> stage = h.chat().injectToolCall("no_such_tool", Map.of());

    ExecutionException e =
        assertThrows(
            ExecutionException.class,
            () -> stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS));
    assertInstanceOf(IllegalArgumentException.class, e.getCause());
  }

  @Test
  void afterSend_injectAndResend_runsExactlyOneMoreModelRequestCarryingThePair() {
    ModelScript model = ModelScript.create();
    ChatHarness h = open(model);
    registerProbe(h.chat(), new AtomicInteger());
    AtomicInteger afterSends = new AtomicInteger();
    AtomicInteger beforeLoops = new AtomicInteger();
    h.chat().onBeforeSendLoop(() -> done(beforeLoops::incrementAndGet));
    h.chat()
        .onAfterSend(
            () -> {
              if (afterSends.getAndIncrement() > 0) {
                return done(() -> {});
              }
              return h.chat()
                  .injectToolCall(PROBE, Map.of("q", "more"))
                  .thenRun(h.chat()::setNeedsResend);
            });

    await(h.sendUser("hi"));

    assertEquals(2, model.requests().size(), "one resend, then the loop ends");
    assertEquals(2, beforeLoops.get(), "the resend is a loop: beforeSendLoop fires again");
    List<ChatMessage> second = model.requests().get(1).messages();
    int call = indexOfCall(second, ChatRole.TOOL_CALL, PROBE);
    assertTrue(call >= 0, "the resend carries the pair: " + roles(second));
    assertEquals(ChatRole.TOOL_RESULT, second.get(call + 1).role());
    assertTrue(
        indexOfRole(second, ChatRole.ASSISTANT) < call, "the pair comes after the first answer");
  }

  @Test
  void aPlainTurn_isOneModelRequest_andItsAnswerIsInMessages() {
    ModelScript model = ModelScript.create().then(ModelReply.text("the answer"));
    ChatHarness h = open(model);

    await(h.sendUser("question"));

    assertEquals(1, model.requests().size());
    List<ChatMessage> messages = h.chat().messages();
    ChatMessage answer = messages.get(messages.size() - 1);
    assertEquals(ChatRole.ASSISTANT, answer.role());
    assertEquals(MessageOrigin.MODEL, answer.origin());
    assertEquals("the answer", answer.text());
  }

  @Test
  void callbacks_areAwaited_andRunInRegistrationOrder() {
    ModelScript model = ModelScript.create();
    ChatHarness h = open(model);
    List<String> order = new CopyOnWriteArrayList<>();
    h.chat()
        .onBeforeSendLoop(
            () ->
                CompletableFuture.runAsync(
                    () -> {
                      sleep(100);
                      order.add("first:requests=" + model.requests().size());
                    }));
    h.chat().onBeforeSendLoop(() -> done(() -> order.add("second")));
    h.chat().onAfterSend(() -> done(() -> order.add("after:requests=" + model.requests().size())));

    await(h.sendUser("hi"));

    assertEquals(List.of("first:requests=0", "second", "after:requests=1"), order);
  }

  @Test
  void removedRegistrations_stopCallbacksAndTools_andRemoveIsIdempotent() {
    ModelScript model = ModelScript.create();
    ChatHarness h = open(model);
    AtomicInteger fired = new AtomicInteger();
    Registration before = h.chat().onBeforeSendLoop(() -> done(fired::incrementAndGet));
    Registration after = h.chat().onAfterSend(() -> done(fired::incrementAndGet));
    Registration tool = registerProbe(h.chat(), new AtomicInteger());

    await(h.sendUser("one"));
    assertEquals(2, fired.get());
    assertTrue(model.requests().get(0).toolNames().contains(PROBE), "a registered tool is offered");
    before.remove();
    after.remove();
    tool.remove();
    before.remove();
    tool.remove();
    await(h.sendUser("two"));

    assertEquals(2, fired.get(), "removed callbacks do not fire");
    assertFalse(model.requests().get(1).toolNames().contains(PROBE), "a removed tool is not");
    registerProbe(h.chat(), new AtomicInteger()).remove(); // the name is free again
  }

  @Test
  void registeringATakenToolName_isRefused() {
    ChatHarness h = open(ModelScript.create());
    registerProbe(h.chat(), new AtomicInteger());

    assertThrows(IllegalStateException.class, () -> registerProbe(h.chat(), new AtomicInteger()));
  }

  @Test
  void aToolTheModelCalls_isExecuted_andItsResultReachesTheNextRequest() {
    ModelScript model =
        ModelScript.create()
            .then(ModelReply.builder().toolCall(PROBE, Map.of("q", "from-model")).build())
            .then(ModelReply.text("done"));
    ChatHarness h = open(model);
    AtomicInteger executed = new AtomicInteger();
    registerProbe(h.chat(), executed);

    await(h.sendUser("use the tool"));

    assertEquals(1, executed.get(), "the handler ran once");
    assertEquals(2, model.requests().size(), "the result goes back to the model");
    List<ChatMessage> second = model.requests().get(1).messages();
    int call = indexOfCall(second, ChatRole.TOOL_CALL, PROBE);
    assertTrue(call >= 0, "the model's call is in the next request");
    assertEquals(ChatRole.TOOL_RESULT, second.get(call + 1).role());
    assertEquals("echo:from-model", second.get(call + 1).text());
  }

  @Test
  void theModelsReasoning_isVisibleToAfterSendAsAModelReasoningMessage() {
    ModelScript model =
        ModelScript.create()
            .then(ModelReply.builder().reasoning("thinking about rust").assistant("ok").build());
    ChatHarness h = open(model);
    List<ChatMessage> seen = new CopyOnWriteArrayList<>();
    h.chat().onAfterSend(() -> done(() -> seen.addAll(h.chat().messages())));

    await(h.sendUser("hi"));

    ChatMessage reasoning =
        seen.stream().filter(m -> m.role() == ChatRole.REASONING).findFirst().orElse(null);
    assertNotNull(reasoning, "afterSend sees the reasoning: " + roles(seen));
    assertEquals(MessageOrigin.MODEL, reasoning.origin());
    assertEquals("thinking about rust", reasoning.text());
  }

  @Test
  void messages_isASnapshot() {
    ChatHarness h = open(ModelScript.create());
    await(h.sendUser("hi"));
    List<ChatMessage> snapshot = h.chat().messages();
    int size = snapshot.size();

    await(h.sendUser("again"));

    assertEquals(size, snapshot.size(), "a snapshot does not grow with the conversation");
    assertThrows(UnsupportedOperationException.class, () -> snapshot.add(ChatMessage.user("x")));
  }

  // ---- submitted requests ------------------------------------------------------------------

  @Test
  void onRequestSubmitted_reportsEachRequestOnce_inOrder_beforeTheModelReadsIt() {
    ModelScript model = ModelScript.create();
    ChatHarness h = open(model);
    List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();
    List<Integer> modelRequestsBefore = new CopyOnWriteArrayList<>();
    reportsOrSkip(
        h.chat(),
        r -> {
          modelRequestsBefore.add(model.requests().size());
          reported.add(r);
        });

    await(h.sendUser("first question"));
    await(h.sendUser("second question"));

    assertEquals(2, model.requests().size());
    assertEquals(2, reported.size(), "one report per request: " + reported);
    assertEquals(List.of(0, 1), modelRequestsBefore, "each reported before the model read it");
    assertFalse(
        reported.get(0).attemptId().equals(reported.get(1).attemptId()), "attempt ids differ");
    for (int i = 0; i < 2; i++) {
      assertEquals(
          texts(userMessages(model.requests().get(i).messages())),
          texts(userMessages(reported.get(i).messages())),
          "request " + i + " carried the user messages the model read");
    }
  }

  @Test
  void onRequestSubmitted_aListenerThatThrows_failsNeitherTheSendNorTheNextListener() {
    ModelScript model = ModelScript.create().then(ModelReply.text("still answered"));
    ChatHarness h = open(model);
    List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();
    reportsOrSkip(
        h.chat(),
        r -> {
          throw new IllegalStateException("a broken listener");
        });
    h.chat().onRequestSubmitted(reported::add);

    await(h.sendUser("hello"));

    assertEquals(1, model.requests().size());
    assertEquals(1, reported.size(), "the next listener heard of the request");
    List<ChatMessage> messages = h.chat().messages();
    assertEquals("still answered", messages.get(messages.size() - 1).text());
  }

  @Test
  void onRequestSubmitted_removed_reportsNoMore_andRemovingTwiceIsHarmless() {
    ModelScript model = ModelScript.create();
    ChatHarness h = open(model);
    List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();
    Registration registration = reportsOrSkip(h.chat(), reported::add);

    await(h.sendUser("one"));
    registration.remove();
    registration.remove();
    await(h.sendUser("two"));

    assertEquals(2, model.requests().size());
    assertEquals(1, reported.size(), "reported until removed: " + reported);
  }

  @Test
  void hookInto_aPairARequestCarried_isDelivered_andEachLaterRequestAddsAnAppearance() {
    MemoryService memory = memoryOrSkip();
    Memory m = memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is pg-stage-7"));
    ModelScript model = ModelScript.create();
    ChatHarness h = open(model);
    MemoryHook hook = memory.hookInto(h.chat(), HookOptions.builder().noCapture().build());
    List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();
    reportsOrSkip(h.chat(), reported::add);

    await(h.sendUser("which staging database do we use?"));

    InjectionReceipt receipt = injectedReceipt(hook);
    assertEquals(List.of(m.id()), receipt.injectedIds());
    assertEquals(PhaseStatus.Status.DELIVERED, receipt.delivery().status(), receipt.toString());
    assertEquals(1, receipt.appearances().size());
    assertAppearance(receipt, receipt.appearances().get(0), reported.get(0));

    await(h.sendUser("and which one is production?"));

    InjectionReceipt later = injectedReceipt(hook);
    assertEquals(receipt.id(), later.id(), "still one injection");
    assertEquals(1, hook.injectedIds().size());
    assertEquals(2, later.appearances().size(), "the second request carried the pair too");
    assertAppearance(later, later.appearances().get(1), reported.get(reported.size() - 1));
  }

  // ---- a real memory service hooked in -----------------------------------------------------

  @Test
  void hookInto_injectsARememberedMemory_asOnePairInTheFirstRequest() {
    MemoryService memory = memoryOrSkip();
    Memory m = memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is pg-stage-7"));
    ModelScript model = ModelScript.create();
    ChatHarness h = open(model);
    memory.hookInto(h.chat(), HookOptions.builder().noCapture().build());

    await(h.sendUser("which staging database do we use?"));

    List<ChatMessage> request = model.requests().get(0).messages();
    int call = indexOfCall(request, ChatRole.TOOL_CALL, "get_memory");
    assertTrue(call >= 0, "the memory is injected: " + roles(request));
    assertEquals(
        List.of(m.id().value()), request.get(call).toolCall().arguments().get("ids"), "its id");
    assertEquals(Boolean.TRUE, request.get(call).toolCall().arguments().get("summary"));
    assertEquals(ChatRole.TOOL_RESULT, request.get(call + 1).role());
    assertTrue(request.get(call + 1).text().contains(m.id().value()));
    assertEquals(
        1,
        request.stream().filter(x -> x.role() == ChatRole.TOOL_CALL).count(),
        "one batched call");
  }

  @Test
  void theModelsGetMemoryCall_isAnsweredWithTheFullMemory() {
    MemoryService memory = memoryOrSkip();
    Memory m =
        memory.remember(
            MemoryDraft.of(Scope.DEFAULT, "Deploys run from the release branch, never from main"));
    ModelScript model =
        ModelScript.create()
            .then(ModelReply.builder().toolCall("get_memory", Map.of("id", m.id().value())).build())
            .then(ModelReply.text("done"));
    ChatHarness h = open(model);
    memory.hookInto(h.chat(), HookOptions.builder().noCapture().build());

    await(h.sendUser("tell me something"));

    List<ChatMessage> second = model.requests().get(1).messages();
    ChatMessage result = second.get(second.size() - 1);
    assertEquals(ChatRole.TOOL_RESULT, result.role(), roles(second));
    assertTrue(result.text().contains("never from main"), result.text());
  }

  @Test
  void aMemory_isInjectedAtMostOnce_overSeveralTurns() {
    MemoryService memory = memoryOrSkip();
    memory.remember(MemoryDraft.of(Scope.DEFAULT, "The build uses Maven 3.8 and Java 17"));
    ModelScript model = ModelScript.create();
    ChatHarness h = open(model);
    MemoryHook hook = memory.hookInto(h.chat(), HookOptions.builder().noCapture().build());

    await(h.sendUser("which Maven does the build use?"));
    await(h.sendUser("and which Java does the build use?"));
    await(h.sendUser("remind me of the Maven version for the build"));

    long calls =
        h.chat().messages().stream()
            .filter(x -> x.role() == ChatRole.TOOL_CALL)
            .filter(x -> x.toolCall().toolName().equals("get_memory"))
            .count();
    assertEquals(1, hook.injectedIds().size());
    assertEquals(1, calls, "one injection over three turns");
    List<ChatMessage> last = model.requests().get(model.requests().size() - 1).messages();
    assertTrue(
        indexOfCall(last, ChatRole.TOOL_CALL, "get_memory") >= 0,
        "the injected pair stays in the conversation for later turns: " + roles(last));
  }

  @Test
  void aClosedMemoryService_neverFailsTheUsersTurn() throws Exception {
    MemoryService memory = memoryOrSkip();
    memory.remember(MemoryDraft.of(Scope.DEFAULT, "The cache is Caffeine"));
    ModelScript model = ModelScript.create().then(ModelReply.text("answered anyway"));
    ChatHarness h = open(model);
    memory.hookInto(h.chat(), HookOptions.builder().recallTimeout(Duration.ofSeconds(2)).build());
    memory.close();

    await(h.sendUser("which cache do we use?"));

    assertEquals(1, model.requests().size());
    List<ChatMessage> messages = h.chat().messages();
    assertEquals("answered anyway", messages.get(messages.size() - 1).text());
  }

  // ---- helpers ---------------------------------------------------------------------------

  /** Registers {@code listener}, or skips the test when the chat service does not report. */
  private static Registration reportsOrSkip(ChatService chat, Consumer<SubmittedRequest> listener) {
    Optional<Registration> registration = chat.onRequestSubmitted(listener);
    assumeTrue(
        registration.isPresent(), "onRequestSubmitted reports nothing: its tests are skipped");
    return registration.get();
  }

  /** The hook's one receipt that injected something. */
  private static InjectionReceipt injectedReceipt(MemoryHook hook) {
    List<InjectionReceipt> injected =
        hook.receipts().stream().filter(r -> !r.injectedIds().isEmpty()).toList();
    assertEquals(1, injected.size(), "one injecting receipt: " + hook.receipts());
    return injected.get(0);
  }

  /** {@code appearance} names {@code request} and the ids of the pair's messages in it. */
  private static void assertAppearance(
      InjectionReceipt receipt, RequestAppearance appearance, SubmittedRequest request) {
    List<ChatMessage> messages = request.messages();
    int call = indexOfCall(messages, ChatRole.TOOL_CALL, "get_memory");
    assertTrue(call >= 0, "the request carried the pair: " + roles(messages));
    ChatMessage result = messages.get(call + 1);
    assertEquals(ChatRole.TOOL_RESULT, result.role(), roles(messages));
    assertEquals(request.attemptId(), appearance.attemptId());
    assertEquals(messages.get(call).id(), appearance.callMessageId());
    assertEquals(result.id(), appearance.resultMessageId());
    assertEquals(messages.get(call).toolCall().id(), receipt.toolCallId());
  }

  private static List<String> texts(List<ChatMessage> messages) {
    return messages.stream().map(ChatMessage::text).toList();
  }

  private ChatHarness open(ModelScript model) {
    ChatHarness h = newHarness(model);
    opened.add(h);
    return h;
  }

  private MemoryService memoryOrSkip() {
    MemoryService memory = newMemoryService();
    assumeTrue(memory != null, "newMemoryService() returns null: hook tests skipped");
    opened.add(memory);
    return memory;
  }

  private static Registration registerProbe(ChatService chat, AtomicInteger executed) {
    return chat.registerTool(
        PROBE_TOOL,
        (ToolCall call) -> {
          executed.incrementAndGet();
          return CompletableFuture.completedFuture(
              ToolResult.success("echo:" + call.arguments().get("q")));
        });
  }

  private static CompletionStage<Void> done(Runnable action) {
    action.run();
    return CompletableFuture.completedFuture(null);
  }

  private static <T> T await(CompletionStage<T> stage) {
    try {
      return stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    } catch (ExecutionException e) {
      throw new AssertionError("the stage failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("the stage did not complete in " + WAIT_SECONDS + " s", e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static List<ChatMessage> userMessages(List<ChatMessage> messages) {
    return messages.stream().filter(m -> m.role() == ChatRole.USER).toList();
  }

  private static int indexOfCall(List<ChatMessage> messages, ChatRole role, String toolName) {
    for (int i = 0; i < messages.size(); i++) {
      ChatMessage m = messages.get(i);
      if (m.role() == role && m.toolCall().toolName().equals(toolName)) {
        return i;
      }
    }
    return -1;
  }

  private static int indexOfRole(List<ChatMessage> messages, ChatRole role) {
    for (int i = 0; i < messages.size(); i++) {
      if (messages.get(i).role() == role) {
        return i;
      }
    }
    return -1;
  }

  private static String roles(List<ChatMessage> messages) {
    return messages.stream().map(m -> m.role().toString()).toList().toString();
  }
}
