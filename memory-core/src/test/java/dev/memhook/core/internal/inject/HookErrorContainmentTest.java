package dev.memhook.core.internal.inject;

import static dev.memhook.core.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.TextHits;
import dev.memhook.api.trace.FetchRecord;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.core.internal.recall.Exclusion;
import dev.memhook.core.internal.sanitize.Sanitizer;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ForwardingMemoryStore;
import dev.memhook.testkit.ModelReply;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A collaborator that throws an {@link Error} (a test double's {@link AssertionError}, a {@link
 * LinkageError} from a half-deployed class) fails only the memory work it was part of: the host's
 * turn completes, and the receipt, the fetch record and the listener say what happened.
 */
class HookErrorContainmentTest {

  /**
   * How long a callback or turn may take before the test calls it stalled: a liveness bound far
   * beyond what it needs, not a measurement.
   */
  private static final long LIVENESS_SECONDS = 30;

  private final MapStore store = new MapStore();
  private final Memory memory =
      store.add(ToolFixtures.memory("m1", Scope.DEFAULT, "the staging db resets at 2am").build());
  private final List<Throwable> failures = new CopyOnWriteArrayList<>();
  private final List<FetchRecord> fetches = new CopyOnWriteArrayList<>();
  private final FakeChatService chat = FakeChatService.create();

  private final HookOptions options =
      HookOptions.builder()
          .recallTimeout(Duration.ofSeconds(LIVENESS_SECONDS))
          .listener(
              new MemoryListener() {
                @Override
                public void failed(String hookId, HookPhase phase, Throwable cause) {
                  failures.add(cause);
                }

                @Override
                public void fetched(FetchRecord fetch) {
                  fetches.add(fetch);
                }
              })
          .build();

  /** A hook whose {@code get_memory} tool reads {@code toolStore}. */
  private AsyncMemoryHook hook(MemoryStore toolStore, HookRecall recall, Executor executor) {
    return new AsyncMemoryHook(
        chat,
        options,
        new HookParts(
            toolStore,
            recall,
            new StandingProfiles(store),
            Optional.empty(),
            Sanitizer.defaults(),
            executor,
            Clock.systemUTC()),
        HookEvents.detached(options.listener()),
        (c, h) -> {});
  }

  private Exclusion.Result found(RecallQuery query, Exclusion exclusion) {
    return new Exclusion.Result(
        new RecallResult(List.of(new RecalledMemory(memory, 1.0, List.of())), List.of()),
        List.of());
  }

  @Test
  void aRecallExecutorThatThrowsAnError_completesTheCallback_andTheReceiptRecordsIt()
      throws Exception {
    Executor broken =
        task -> {
          throw new AssertionError("the executor is broken");
        };
    AsyncMemoryHook hook = hook(store, this::found, broken);
    chat.append(ChatMessage.user("when does the staging db reset?"));

    chat.fireBeforeSendLoop().toCompletableFuture().get(LIVENESS_SECONDS, TimeUnit.SECONDS);

    List<InjectionReceipt> receipts = hook.receipts();
    assertEquals(1, receipts.size(), "one attempt: " + receipts);
    PhaseStatus recall = receipts.get(0).recall();
    assertEquals(PhaseStatus.Status.FAILED, recall.status());
    assertEquals("java.lang.AssertionError: the executor is broken", recall.detail());
    assertEquals(List.of(), receipts.get(0).injectedIds());
    eventually(() -> assertEquals(1, failures.size(), "reported once: " + failures));
    assertInstanceOf(AssertionError.class, failures.get(0));

    // the hook's lock was released: the next callback runs and makes its own receipt
    chat.append(ChatMessage.user("and who gets paged for it?"));
    chat.fireBeforeSendLoop().toCompletableFuture().get(LIVENESS_SECONDS, TimeUnit.SECONDS);
    assertEquals(2, hook.receipts().size());
    assertEquals(List.of(), chat.toolCalls("get_memory"));
  }

  @Test
  void aStoreThatThrowsAnErrorWhenTheModelFetches_answersWithAStructuredError_andTheTurnGoesOn()
      throws Exception {
    ForwardingMemoryStore broken =
        new ForwardingMemoryStore(store) {
          @Override
          public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
            throw new AssertionError("the store is broken");
          }

          @Override
          public java.util.Optional<Memory> get(MemoryId id) {
            throw new AssertionError("the store is broken");
          }
        };
    hook(
        broken,
        (q, exclusion) -> new Exclusion.Result(RecallResult.empty(), List.of()),
        Runnable::run);
    chat.scriptReplies(
        ModelReply.builder().toolCall("get_memory", Map.of("id", memory.id().value())).build(),
        ModelReply.text("I could not read that memory."));

    chat.sendUser("what did we note about the staging db?")
        .toCompletableFuture()
        .get(LIVENESS_SECONDS, TimeUnit.SECONDS);

    List<ChatMessage> messages = chat.messages();
    ChatMessage result =
        messages.stream().filter(m -> m.role() == ChatRole.TOOL_RESULT).findFirst().orElseThrow();
    assertTrue(result.text().contains("\"store_unavailable\""), result.text());
    assertEquals("I could not read that memory.", messages.get(messages.size() - 1).text());
    eventually(() -> assertEquals(1, fetches.size(), "the fetch is recorded"));
    assertEquals("store_unavailable", fetches.get(0).errorCode());
  }

  @Test
  void aStoreThatThrowsALinkageErrorDuringRecall_completesTheTurn_andTheReceiptRecordsIt()
      throws Exception {
    LuceneMemoryStore lucene = LuceneMemoryStore.inMemory();
    ForwardingMemoryStore broken =
        new ForwardingMemoryStore(lucene) {
          @Override
          public TextHits searchText(Scope scope, String query, int k) {
            throw new NoClassDefFoundError("dev/example/MissingAnalyzer");
          }
        };
    try (MemoryService service =
        Memhook.builder().store(broken).embedder(HashingEmbedder.create()).build()) {
      service.remember(MemoryDraft.of(Scope.DEFAULT, "the staging db resets at 2am"));
      var hook = service.hookInto(chat, options);

      chat.sendUser("when does the staging db reset?")
          .toCompletableFuture()
          .get(LIVENESS_SECONDS, TimeUnit.SECONDS);

      assertEquals(ChatRole.ASSISTANT, chat.messages().get(chat.messages().size() - 1).role());
      List<InjectionReceipt> receipts = hook.receipts();
      assertEquals(1, receipts.size(), "one attempt: " + receipts);
      assertEquals(PhaseStatus.Status.FAILED, receipts.get(0).recall().status());
      assertTrue(
          receipts.get(0).recall().detail().contains("NoClassDefFoundError"),
          receipts.get(0).recall().detail());
      eventually(() -> assertEquals(1, failures.size(), "reported once: " + failures));
      assertInstanceOf(NoClassDefFoundError.class, failures.get(0));
    }
  }
}
