package dev.memhook.core.chat;

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
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.api.trace.RequestAppearance;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ForwardingChatService;
import dev.memhook.testkit.ModelReply;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Receipts over {@link FakeChatService}, end to end: a real memory service hooked in, and the
 * requests the fake reports linked to the receipt of the injection they carried.
 */
class DeliveryReceiptTest {

  private static final String QUESTION = "which staging database do we use?";

  private final MemoryService memory =
      Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
  private final Memory staging =
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is pg-stage-7"));
  private final List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    memory.close();
  }

  private MemoryHook hook(ChatService chat) {
    MemoryHook hook = memory.hookInto(chat, HookOptions.builder().noCapture().build());
    chat.onRequestSubmitted(reported::add);
    return hook;
  }

  @Test
  void aPairTheModelRead_isDelivered_withOneAppearanceNamingItsMessagesInThatRequest() {
    FakeChatService chat = FakeChatService.create();
    MemoryHook hook = hook(chat);

    await(chat.sendUser(QUESTION));

    InjectionReceipt receipt = injectedReceipt(hook);
    assertEquals(List.of(staging.id()), receipt.injectedIds());
    assertEquals(PhaseStatus.Status.DELIVERED, receipt.delivery().status());
    assertEquals(1, receipt.appearances().size());
    assertAppearance(receipt, receipt.appearances().get(0), reported.get(0));
    ChatMessage call = chat.messages().get(indexOfPair(chat.messages()));
    assertEquals(call.id(), receipt.appearances().get(0).callMessageId(), "the fake's own ids");
    assertEquals(call.toolCall().id(), receipt.toolCallId());
  }

  @Test
  void aModelToolCall_forcingASecondRequestInTheSameSend_addsASecondAppearance_oneInjection() {
    FakeChatService chat = FakeChatService.create();
    chat.registerTool(
        new ToolDefinition("probe", "echoes", "{\"type\":\"object\"}"),
        call -> CompletableFuture.completedFuture(ToolResult.success("echo")));
    chat.scriptReplies(
        ModelReply.builder().toolCall("probe", Map.of()).build(), ModelReply.text("done"));
    MemoryHook hook = hook(chat);

    await(chat.sendUser(QUESTION));

    assertEquals(List.of("attempt-1", "attempt-2"), attemptIds(reported));
    InjectionReceipt receipt = injectedReceipt(hook);
    assertEquals(List.of("attempt-1", "attempt-2"), appearanceIds(receipt));
    assertAppearance(receipt, receipt.appearances().get(0), reported.get(0));
    assertAppearance(receipt, receipt.appearances().get(1), reported.get(1));
    assertEquals(1, hook.injectedIds().size());
  }

  @Test
  void aSecondUserTurn_carriesThePairAgain_asAnotherAppearanceOfTheSameReceipt() {
    FakeChatService chat = FakeChatService.create();
    MemoryHook hook = hook(chat);

    await(chat.sendUser(QUESTION));
    String receiptId = injectedReceipt(hook).id();
    await(chat.sendUser("thanks, and where are its backups?"));

    InjectionReceipt receipt = injectedReceipt(hook);
    assertEquals(receiptId, receipt.id());
    assertEquals(List.of("attempt-1", "attempt-2"), appearanceIds(receipt));
    assertAppearance(receipt, receipt.appearances().get(1), reported.get(1));
  }

  @Test
  void aPairQueuedButNotSent_isPending_untilARequestCarriesIt() {
    FakeChatService chat = FakeChatService.create();
    MemoryHook hook = hook(chat);
    AtomicBoolean once = new AtomicBoolean();
    // registered after the hook, so it runs once the hook's injection is queued
    chat.onBeforeSendLoop(
        () -> {
          if (once.compareAndSet(false, true)) {
            chat.interrupt(false);
          }
          return CompletableFuture.completedFuture(null);
        });

    await(chat.sendUser(QUESTION));

    assertEquals(List.of(), reported, "an interrupted loop submits nothing");
    InjectionReceipt pending = injectedReceipt(hook);
    assertEquals(PhaseStatus.Status.PENDING, pending.delivery().status());
    assertEquals(List.of(), pending.appearances());

    await(chat.send());

    InjectionReceipt delivered = injectedReceipt(hook);
    assertEquals(PhaseStatus.Status.DELIVERED, delivered.delivery().status());
    assertEquals(List.of("attempt-1"), appearanceIds(delivered));
    assertAppearance(delivered, delivered.appearances().get(0), reported.get(0));
  }

  @Test
  void aChatServiceThatDoesNotReport_leavesDeliveryUnknown() {
    FakeChatService fake = FakeChatService.create();
    MemoryHook hook = hook(new NotReporting(fake));

    await(fake.sendUser(QUESTION));

    InjectionReceipt receipt = injectedReceipt(hook);
    assertEquals(PhaseStatus.Status.UNKNOWN, receipt.delivery().status());
    assertEquals(List.of(), receipt.appearances());
  }

  // ---- helpers ---------------------------------------------------------------------------

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
    int call = indexOfPair(messages);
    assertTrue(call >= 0, "the request carried the pair: " + messages);
    assertEquals(request.attemptId(), appearance.attemptId());
    assertEquals(messages.get(call).id(), appearance.callMessageId());
    assertEquals(messages.get(call + 1).id(), appearance.resultMessageId());
    assertEquals(ChatRole.TOOL_RESULT, messages.get(call + 1).role());
    assertEquals(messages.get(call).toolCall().id(), receipt.toolCallId());
  }

  private static int indexOfPair(List<ChatMessage> messages) {
    for (int i = 0; i < messages.size(); i++) {
      ChatMessage m = messages.get(i);
      if (m.role() == ChatRole.TOOL_CALL && m.toolCall().toolName().equals("get_memory")) {
        return i;
      }
    }
    return -1;
  }

  private static List<String> attemptIds(List<SubmittedRequest> requests) {
    return requests.stream().map(SubmittedRequest::attemptId).toList();
  }

  private static List<String> appearanceIds(InjectionReceipt receipt) {
    return receipt.appearances().stream().map(RequestAppearance::attemptId).toList();
  }

  private static void await(CompletionStage<Void> stage) {
    try {
      stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("the send failed", e);
    }
  }

  /** A chat service that keeps the default {@code onRequestSubmitted}: it reports nothing. */
  private static final class NotReporting extends ForwardingChatService {
    NotReporting(ChatService chat) {
      super(chat);
    }

    @Override
    public Optional<Registration> onRequestSubmitted(Consumer<SubmittedRequest> listener) {
      return Optional.empty();
    }
  }
}
