package dev.memhook.testkit;

import static dev.memhook.testkit.ChatContractSupport.PROBE;
import static dev.memhook.testkit.ChatContractSupport.WAIT_SECONDS;
import static dev.memhook.testkit.ChatContractSupport.await;
import static dev.memhook.testkit.ChatContractSupport.done;
import static dev.memhook.testkit.ChatContractSupport.indexOfCall;
import static dev.memhook.testkit.ChatContractSupport.indexOfRole;
import static dev.memhook.testkit.ChatContractSupport.registerProbe;
import static dev.memhook.testkit.ChatContractSupport.roles;
import static dev.memhook.testkit.ChatContractSupport.sleep;
import static dev.memhook.testkit.ChatContractSupport.texts;
import static dev.memhook.testkit.ChatContractSupport.userMessages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.memhook.api.MemoryService;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * This class's own tests check the SPI itself with plain callbacks and a probe tool: what each
 * callback sees, where injected messages go, resends, ordering and registrations. {@link
 * HookedChatServiceContract} hooks a real {@link MemoryService} into the chat and checks what a
 * user of {@code hookInto} sees; it runs when {@link #newMemoryService()} returns a service. {@link
 * SubmissionReportingContract} checks {@link ChatService#onRequestSubmitted}; it runs when the chat
 * service reports its submissions. The adapters for LangChain4j and Spring AI and {@link
 * FakeChatService} run this contract.
 */
public abstract class ChatServiceContract
    implements HookedChatServiceContract, SubmissionReportingContract {

  private final List<AutoCloseable> opened = new ArrayList<>();

  /** For a subclass: one contract test class per chat service. */
  protected ChatServiceContract() {}

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

  /**
   * The most loops one send of a fresh harness runs (the first and its resends), as the host bounds
   * them by default; 0 (the default) skips the test of the bound.
   */
  protected int maxLoopsPerSend() {
    return 0;
  }

  @Override
  public final ChatHarness harness(ModelScript model) {
    ChatHarness h = newHarness(model);
    opened.add(h);
    return h;
  }

  @Override
  public final MemoryService memoryServiceOrSkip() {
    MemoryService memory = newMemoryService();
    assumeTrue(memory != null, "newMemoryService() returns null: hook tests skipped");
    opened.add(memory);
    return memory;
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
    ChatHarness h = harness(model);
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
    ChatHarness h = harness(model);
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
    ChatHarness h = harness(model);
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
    ChatHarness h = harness(ModelScript.create());

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
    ChatHarness h = harness(model);
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
    int answer = indexOfRole(second, ChatRole.ASSISTANT);
    if (answer >= 0) {
      assertTrue(answer < call, "the pair comes after the first answer: " + roles(second));
    } else {
      // a host that rebuilds the request asks the turn again, its first answer replaced
      assertTrue(
          pairsGoBeforeTheUserTurn(),
          "a host that appends pairs resends the first answer, the pair after it: "
              + roles(second));
      assertEquals(
          List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER),
          second.subList(call, second.size()).stream().map(ChatMessage::role).toList(),
          "a resend without the first answer has the pair right before the user's message: "
              + roles(second));
    }
  }

  @Test
  void aPlainTurn_isOneModelRequest_andItsAnswerIsInMessages() {
    ModelScript model = ModelScript.create().then(ModelReply.text("the answer"));
    ChatHarness h = harness(model);

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
    ChatHarness h = harness(model);
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
    ChatHarness h = harness(model);
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
    ChatHarness h = harness(ModelScript.create());
    registerProbe(h.chat(), new AtomicInteger());

    assertThrows(IllegalStateException.class, () -> registerProbe(h.chat(), new AtomicInteger()));
  }

  @Test
  void aToolTheModelCalls_isExecuted_andItsResultReachesTheNextRequest() {
    ModelScript model =
        ModelScript.create()
            .then(ModelReply.builder().toolCall(PROBE, Map.of("q", "from-model")).build())
            .then(ModelReply.text("done"));
    ChatHarness h = harness(model);
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
    ChatHarness h = harness(model);
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
    ChatHarness h = harness(ModelScript.create());
    await(h.sendUser("hi"));
    List<ChatMessage> snapshot = h.chat().messages();
    int size = snapshot.size();

    await(h.sendUser("again"));

    assertEquals(size, snapshot.size(), "a snapshot does not grow with the conversation");
    assertThrows(UnsupportedOperationException.class, () -> snapshot.add(ChatMessage.user("x")));
  }

  @Test
  void aPairInjectedBeforeTheLoop_goesWhereTheHostPlacesPairs() {
    ModelScript model = ModelScript.create();
    ChatHarness h = harness(model);
    registerProbe(h.chat(), new AtomicInteger());
    h.chat()
        .onBeforeSendLoop(
            () ->
                userMessages(h.chat().messages()).size() == 1
                    ? h.chat().injectToolCall(PROBE, Map.of("q", "x")).thenApply(r -> null)
                    : done(() -> {}));

    await(h.sendUser("hi"));

    List<ChatMessage> request = model.requests().get(0).messages();
    int call = indexOfCall(request, ChatRole.TOOL_CALL, PROBE);
    int user = indexOfRole(request, ChatRole.USER);
    if (pairsGoBeforeTheUserTurn()) {
      assertEquals(
          List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER),
          request.subList(call, request.size()).stream().map(ChatMessage::role).toList(),
          "call, result, then the user's turn, last: " + roles(request));
    } else {
      assertTrue(
          user >= 0 && user < call, "the pair follows the user's message: " + roles(request));
    }
  }

  @Test
  void aPairStaysRightBeforeItsTurnsUserMessage_inEveryLaterRequest() {
    assumeTrue(pairsGoBeforeTheUserTurn(), "the host appends pairs: their turns are not kept");
    ModelScript model = ModelScript.create();
    ChatHarness h = harness(model);
    registerProbe(h.chat(), new AtomicInteger());
    Set<String> injectedFor = ConcurrentHashMap.newKeySet();
    h.chat()
        .onBeforeSendLoop(
            () -> {
              List<ChatMessage> users = userMessages(h.chat().messages());
              String turn = users.get(users.size() - 1).text();
              // not in the first turn: a pair that lost its turn and went first would pass there
              return !turn.equals("turn one") && injectedFor.add(turn)
                  ? h.chat().injectToolCall(PROBE, Map.of("q", turn)).thenApply(r -> null)
                  : done(() -> {});
            });

    await(h.sendUser("turn one"));
    await(h.sendUser("turn two"));
    await(h.sendUser("turn three"));

    assertEquals(3, model.requests().size(), "one request per turn");
    // a host that rebuilds each request from a history without the pairs (Spring AI's chat
    // memory) must put every pair back at its turn; one that keeps them in its history has them
    List<ChatMessage> last = model.requests().get(2).messages();
    assertEquals(
        List.of("turn one", "turn two", "turn three"),
        texts(userMessages(last)),
        "the host sends its history: " + roles(last));
    assertEquals(
        2,
        last.stream().filter(m -> m.role() == ChatRole.TOOL_CALL).count(),
        "each pair once: " + roles(last));
    for (String turn : List.of("turn two", "turn three")) {
      int call = -1;
      for (int i = 0; i < last.size() && call < 0; i++) {
        if (last.get(i).role() == ChatRole.TOOL_CALL
            && turn.equals(last.get(i).toolCall().arguments().get("q"))) {
          call = i;
        }
      }
      assertTrue(call >= 0 && call + 2 < last.size(), turn + "'s pair is carried: " + roles(last));
      assertEquals(ChatRole.TOOL_RESULT, last.get(call + 1).role(), roles(last));
      assertEquals(last.get(call).toolCall().id(), last.get(call + 1).toolCall().id());
      assertEquals(ChatRole.USER, last.get(call + 2).role(), turn + ": " + roles(last));
      assertEquals(turn, last.get(call + 2).text(), "right before its turn's user message");
    }
  }

  @Test
  void aFailingCallback_neitherFailsTheTurn_norKeepsTheNextCallbackFromRunning() {
    ModelScript model = ModelScript.create().then(ModelReply.text("answered"));
    ChatHarness h = harness(model);
    AtomicInteger ranAfterTheFailures = new AtomicInteger();
    h.chat().onBeforeSendLoop(() -> CompletableFuture.failedFuture(new IllegalStateException("x")));
    h.chat()
        .onBeforeSendLoop(
            () -> {
              throw new IllegalStateException("a callback that throws");
            });
    h.chat().onBeforeSendLoop(() -> done(ranAfterTheFailures::incrementAndGet));
    h.chat()
        .onAfterSend(
            () -> {
              throw new IllegalStateException("a callback that throws");
            });
    h.chat().onAfterSend(() -> done(ranAfterTheFailures::incrementAndGet));

    await(h.sendUser("hi"));

    assertEquals(1, model.requests().size());
    assertEquals(2, ranAfterTheFailures.get(), "the callbacks after the failing ones ran");
    List<ChatMessage> messages = h.chat().messages();
    assertEquals("answered", messages.get(messages.size() - 1).text());
  }

  @Test
  void resends_areBoundedByTheHostsLoopBound() {
    int bound = maxLoopsPerSend();
    assumeTrue(bound > 0, "maxLoopsPerSend() is 0: the bound's test is skipped");
    ModelScript model = ModelScript.create();
    ChatHarness h = harness(model);
    AtomicInteger afterSends = new AtomicInteger();
    h.chat()
        .onAfterSend(
            () ->
                done(
                    () -> {
                      afterSends.incrementAndGet();
                      h.chat().setNeedsResend();
                    }));

    await(h.sendUser("hi"));

    assertEquals(bound, model.requests().size(), "a resend past the bound is ignored");
    assertEquals(bound, afterSends.get());
  }

  @Test
  void concurrentTurns_areSerialised_theirLoopsNeverOverlap() {
    ModelScript model = ModelScript.create();
    ChatHarness h = harness(model);
    AtomicInteger inLoop = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    h.chat()
        .onBeforeSendLoop(
            () ->
                done(
                    () -> {
                      if (inLoop.incrementAndGet() > 1) {
                        overlaps.incrementAndGet();
                      }
                      sleep(20); // widens the window an overlap would show in
                    }));
    h.chat().onAfterSend(() -> done(inLoop::decrementAndGet));

    CompletableFuture<Void> first =
        CompletableFuture.supplyAsync(() -> h.sendUser("one"))
            .thenCompose(stage -> stage.toCompletableFuture());
    CompletableFuture<Void> second =
        CompletableFuture.supplyAsync(() -> h.sendUser("two"))
            .thenCompose(stage -> stage.toCompletableFuture());
    await(first);
    await(second);

    assertEquals(0, overlaps.get(), "one turn's loop ran inside another's");
    assertTrue(model.requests().size() >= 1, "the model answered");
    assertEquals(2, userMessages(h.chat().messages()).size(), "both turns are in the conversation");
  }

  @Test
  void aToolHandlerThatFails_isAnErrorResultTheModelReads_andTheTurnCompletes() {
    ModelScript model =
        ModelScript.create()
            .then(ModelReply.builder().toolCall(PROBE, Map.of("q", "x")).build())
            .then(ModelReply.text("sorry"));
    ChatHarness h = harness(model);
    h.chat()
        .registerTool(
            ChatContractSupport.PROBE_TOOL,
            call -> {
              throw new IllegalStateException("the handler broke");
            });

    await(h.sendUser("use the tool"));

    assertEquals(2, model.requests().size(), "the error goes back to the model");
    List<ChatMessage> second = model.requests().get(1).messages();
    int call = indexOfCall(second, ChatRole.TOOL_CALL, PROBE);
    assertTrue(call >= 0, "the model's call is in the next request: " + roles(second));
    ChatMessage result = second.get(call + 1);
    assertEquals(ChatRole.TOOL_RESULT, result.role());
    assertTrue(result.text().contains("the handler broke"), result.text());
    List<ChatMessage> messages = h.chat().messages();
    assertEquals("sorry", messages.get(messages.size() - 1).text());
  }
}
