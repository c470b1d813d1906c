package dev.memhook.testkit;

import static dev.memhook.testkit.ChatContractSupport.await;
import static dev.memhook.testkit.ChatContractSupport.generous;
import static dev.memhook.testkit.ChatContractSupport.indexOfCall;
import static dev.memhook.testkit.ChatContractSupport.roles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a user of {@code hookInto} sees on a chat service: a remembered memory injected as one pair,
 * the model's {@code get_memory} call answered in full, at-most-once over several turns, and a
 * closed memory service that never fails the turn. {@link ChatServiceContract} runs these when its
 * {@code newMemoryService()} returns a service.
 */
public interface HookedChatServiceContract {

  /** A fresh conversation on the chat service under test, closed after the test. */
  ChatHarness harness(ModelScript model);

  /** A fresh memory service, closed after the test; the test is skipped when there is none. */
  MemoryService memoryServiceOrSkip();

  /**
   * Whether the host places a pair injected before a loop just before that loop's user turn, so
   * that the model reads (tool call, tool result, user message), and keeps it there in every later
   * request; false (the default) when it appends pairs after the user's message. A host whose
   * request is rebuilt on each call from a history without the pairs (Spring AI's chat memory)
   * declares true and must put every pair back at its turn (the host kit's {@code
   * HostedChat.Placement.AT_ITS_TURN}); its harness sends that history. The contract checks the
   * placement the host declares.
   */
  default boolean pairsGoBeforeTheUserTurn() {
    return false;
  }

  // ---- a real memory service hooked in -----------------------------------------------------

  @Test
  default void hookInto_injectsARememberedMemory_asOnePairInTheFirstRequest() {
    MemoryService memory = memoryServiceOrSkip();
    Memory m = memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is pg-stage-7"));
    ModelScript model = ModelScript.create();
    ChatHarness h = harness(model);
    memory.hookInto(h.chat(), generous());

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
    if (pairsGoBeforeTheUserTurn()) {
      assertEquals(call + 3, request.size(), "the user's turn comes last: " + roles(request));
      assertEquals(ChatRole.USER, request.get(call + 2).role());
    }
  }

  @Test
  default void capture_recordsTheModelsAnswerOnce_andNeverTheInjectedPair() {
    MemoryService memory = memoryServiceOrSkip();
    memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database resets nightly at 2am"));
    String answer = "It resets nightly at 2am, so run migrations before midnight.";
    ModelScript model = ModelScript.create().then(ModelReply.text(answer));
    ChatHarness h = harness(model);
    String session = "contract-capture-" + System.identityHashCode(h);
    try (MemoryHook hook =
        memory.hookInto(
            h.chat(),
            HookOptions.builder()
                .recallTimeout(Duration.ofSeconds(30))
                .sessionId(session)
                .build())) {
      await(h.sendUser("when is the staging database reset?"));
      assertEquals(1, hook.injectedIds().size(), "the memory was injected");
    }
    assertTrue(memory.capture().flush(Duration.ofMinutes(1)), "capture drained");
    List<String> captured = new ArrayList<>();
    memory
        .maintenance()
        .export(
            m -> {
              if (session.equals(m.sourceSession())) {
                captured.add(m.content());
              }
            });
    assertEquals(1, captured.stream().filter(answer::equals).count(), captured.toString());
    assertFalse(
        captured.stream().anyMatch(c -> c.contains("get_memory")),
        "the injected pair is never captured: " + captured);
  }

  @Test
  default void theModelsGetMemoryCall_isAnsweredWithTheFullMemory() {
    MemoryService memory = memoryServiceOrSkip();
    Memory m =
        memory.remember(
            MemoryDraft.of(Scope.DEFAULT, "Deploys run from the release branch, never from main"));
    ModelScript model =
        ModelScript.create()
            .then(ModelReply.builder().toolCall("get_memory", Map.of("id", m.id().value())).build())
            .then(ModelReply.text("done"));
    ChatHarness h = harness(model);
    memory.hookInto(h.chat(), generous());

    await(h.sendUser("tell me something"));

    List<ChatMessage> second = model.requests().get(1).messages();
    ChatMessage result = second.get(second.size() - 1);
    assertEquals(ChatRole.TOOL_RESULT, result.role(), roles(second));
    assertTrue(result.text().contains("never from main"), result.text());
  }

  @Test
  default void aMemory_isInjectedAtMostOnce_overSeveralTurns() {
    MemoryService memory = memoryServiceOrSkip();
    memory.remember(MemoryDraft.of(Scope.DEFAULT, "The build uses Maven 3.8 and Java 17"));
    ModelScript model = ModelScript.create();
    ChatHarness h = harness(model);
    MemoryHook hook = memory.hookInto(h.chat(), generous());

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
  default void aClosedMemoryService_neverFailsTheUsersTurn() throws Exception {
    MemoryService memory = memoryServiceOrSkip();
    memory.remember(MemoryDraft.of(Scope.DEFAULT, "The cache is Caffeine"));
    ModelScript model = ModelScript.create().then(ModelReply.text("answered anyway"));
    ChatHarness h = harness(model);
    MemoryHook hook =
        memory.hookInto(
            h.chat(), HookOptions.builder().recallTimeout(Duration.ofSeconds(2)).build());
    memory.close();

    await(h.sendUser("which cache do we use?"));

    assertTrue(hook.isDisposed(), "closing the service disposed its hook");
    assertEquals(1, model.requests().size());
    assertFalse(
        model.requests().get(0).toolNames().contains("get_memory"),
        "a disposed hook's tool is no longer offered");
    List<ChatMessage> messages = h.chat().messages();
    assertEquals("answered anyway", messages.get(messages.size() - 1).text());
  }
}
