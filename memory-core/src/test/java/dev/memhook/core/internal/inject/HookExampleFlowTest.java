package dev.memhook.core.internal.inject;

import static dev.memhook.core.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.core.TestStores;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ModelReply;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The four-step example flow of the hook contract in docs/ARCHITECTURE.md, driven through
 * FakeChatService, on every {@link TestStores} configuration.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.memhook.core.TestStores#all")
class HookExampleFlowTest {

  /** The store configuration this class runs on. */
  @Parameter TestStores.Kind stores;

  @TempDir Path dir;

  record Event(HookPhase phase, List<MemoryId> ids) {}

  record ModelCall(int conversationSize, Set<MemoryId> hookSet, List<ChatRole> roles) {}

  private MemoryService memory;
  private Memory a;
  private Memory b;
  private Memory c;
  private Memory d;

  @BeforeEach
  void setUp() {
    memory = Memhook.builder().store(stores.open(dir)).embedder(HashingEmbedder.create()).build();
    Scope scope = Scope.DEFAULT;
    a =
        memory.remember(
            MemoryDraft.of(scope, "The checkout service takes card payments through Stripe."));
    b =
        memory.remember(
            MemoryDraft.of(scope, "Stripe webhooks are verified with the Stripe signing secret."));
    c =
        memory.remember(
            MemoryDraft.of(scope, "Webhook retries back off exponentially for up to one hour."));
    d =
        memory.remember(
            MemoryDraft.of(scope, "The mobile app is written in Flutter and shipped weekly."));
    memory.remember(
        MemoryDraft.of(scope, "Office plants are watered on Fridays by the facilities team."));
    memory.remember(MemoryDraft.of(scope, "Grafana dashboards live in the observability folder."));
  }

  @AfterEach
  void tearDown() {
    memory.close();
  }

  @Test
  void exampleFlow_stepByStep() throws Exception {
    List<ModelCall> modelCalls = new CopyOnWriteArrayList<>();
    // Step 1 and 2: the user's message recalls A and B before the loop; the model's reasoning
    // recalls B and C after its reply; only C is new. Step 3: the resend loop recalls nothing new.
    List<ModelReply> replies =
        List.of(
            ModelReply.builder()
                .reasoning("Webhook retries back off; the Stripe signing secret verifies webhooks.")
                .assistant("Payments go through Stripe.")
                .build(),
            ModelReply.builder()
                .reasoning("Stripe webhooks and their signing secret, as noted.")
                .assistant("Webhooks are signed and retried.")
                .build());
    List<Event> events = new CopyOnWriteArrayList<>();
    MemoryHook[] hookRef = new MemoryHook[1];
    FakeChatService chat =
        FakeChatService.builder()
            .fallbackModel(
                conversation -> {
                  modelCalls.add(
                      new ModelCall(
                          conversation.size(),
                          hookRef[0].injectedIds(),
                          conversation.stream().map(ChatMessage::role).toList()));
                  return replies.size() >= modelCalls.size()
                      ? replies.get(modelCalls.size() - 1)
                      : ModelReply.text("noted");
                })
            .build();
    HookOptions options =
        HookOptions.builder()
            .recallTimeout(Duration.ofSeconds(30))
            .listener(
                new MemoryListener() {
                  @Override
                  public void injected(String hookId, HookPhase phase, List<MemoryId> ids) {
                    events.add(new Event(phase, ids));
                  }
                })
            .build();
    MemoryHook hook = memory.hookInto(chat, options);
    hookRef[0] = hook;

    chat.sendUser("Checkout card payments through Stripe: where is the Stripe signing secret?")
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);

    eventually(
        () ->
            assertEquals(
                List.of(
                    new Event(HookPhase.BEFORE_SEND_LOOP, List.of(a.id(), b.id())),
                    new Event(HookPhase.AFTER_SEND, List.of(c.id()))),
                events,
                "one batch per callback, B not repeated"));
    assertTrue(
        memory
            .recall(
                RecallQuery.of(Scope.DEFAULT, replies.get(0).messages().get(0).text())
                    .withLimit(options.maxPerMessage()))
            .ids()
            .containsAll(List.of(b.id(), c.id())),
        "afterSend recalled B and C, and dropped B because it was already injected");
    assertEquals(2, modelCalls.size(), "the resend ran exactly one more loop");
    // when the model was first called: user message + the 2 scaffolding messages, set {A, B}
    assertEquals(
        new ModelCall(
            3,
            Set.of(a.id(), b.id()),
            List.of(ChatRole.USER, ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT)),
        modelCalls.get(0));
    // the resend loop: C's 2 scaffolding messages were flushed before the model was called again
    assertEquals(Set.of(a.id(), b.id(), c.id()), modelCalls.get(1).hookSet());
    assertEquals(
        List.of(
            ChatRole.USER,
            ChatRole.TOOL_CALL,
            ChatRole.TOOL_RESULT,
            ChatRole.REASONING,
            ChatRole.ASSISTANT,
            ChatRole.TOOL_CALL,
            ChatRole.TOOL_RESULT),
        modelCalls.get(1).roles());
    assertEquals(1, chat.resendRequests(), "only the afterSend that injected asked for a resend");
    assertEquals(2, chat.loopsRun());
    assertEquals(
        List.of(List.of(a.id().value(), b.id().value()), List.of(c.id().value())),
        injectedBatches(chat));
    for (ToolCall call : chat.toolCalls("get_memory")) {
      assertEquals(Boolean.TRUE, call.arguments().get("summary"));
      assertEquals(MessageOrigin.SYNTHETIC, originOf(chat, call));
    }
    String firstResult = resultOf(chat, chat.toolCalls("get_memory").get(0));
    assertTrue(
        firstResult.contains(a.id().value()) && firstResult.contains(b.id().value()), firstResult);
    assertTrue(firstResult.contains("\"summary\""), firstResult);

    // Step 4: a new message starts a new loop; A, B, C are never injected again; D is.
    // (every word of it is in some memory: a word no memory holds counts against the gate's share)
    chat.sendUser("Is the mobile app written in Flutter and shipped weekly? And Stripe webhooks?")
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
    eventually(() -> assertEquals(3, events.size()));
    assertEquals(new Event(HookPhase.BEFORE_SEND_LOOP, List.of(d.id())), events.get(2));
    assertEquals(List.of(a.id(), b.id(), c.id(), d.id()), new ArrayList<>(hook.injectedIds()));
    assertEquals(1, chat.resendRequests(), "beforeSendLoop never asks for a resend");
    assertEquals(3, chat.toolCalls("get_memory").size(), "no tool calls pile up");
    hook.close();
  }

  static List<List<Object>> injectedBatches(FakeChatService chat) {
    List<List<Object>> out = new ArrayList<>();
    for (ToolCall call : chat.toolCalls("get_memory")) {
      out.add(new ArrayList<>((List<?>) call.arguments().get("ids")));
    }
    return out;
  }

  private static MessageOrigin originOf(FakeChatService chat, ToolCall call) {
    return chat.messages().stream()
        .filter(m -> m.toolCall() == call && m.role() == ChatRole.TOOL_CALL)
        .findFirst()
        .orElseThrow()
        .origin();
  }

  private static String resultOf(FakeChatService chat, ToolCall call) {
    return chat.messages().stream()
        .filter(m -> m.toolCall() == call && m.role() == ChatRole.TOOL_RESULT)
        .findFirst()
        .orElseThrow()
        .text();
  }
}
