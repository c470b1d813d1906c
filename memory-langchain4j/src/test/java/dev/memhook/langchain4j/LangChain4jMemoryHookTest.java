package dev.memhook.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.RecallTimeoutException;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.ModelReply;
import dev.memhook.testkit.ModelScript;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A memory service hooked into a {@link LangChain4jChatService}. */
class LangChain4jMemoryHookTest {

  private static final Duration GENEROUS = Duration.ofSeconds(30);
  private static final String STAGING = "The staging database is reset every night at 2am.";

  private final ModelScript script = ModelScript.create();
  private final ScriptedChatModel model = new ScriptedChatModel(script);
  private final LangChain4jChatService chat = LangChain4jChatService.create(model);

  private static MemoryService service() {
    return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).noCapture().build();
  }

  private static HookOptions options() {
    return HookOptions.builder().recallTimeout(GENEROUS).maxPerMessage(1).noCapture().build();
  }

  private static <T> T await(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Test
  void aRememberedMemory_reachesTheFirstRequest_asCallThenResultThenUser() throws Exception {
    try (MemoryService memory = service()) {
      Memory staging = memory.remember(MemoryDraft.of(Scope.DEFAULT, STAGING));
      try (MemoryHook hook = memory.hookInto(chat, options())) {
        await(chat.sendUser("when is the staging database reset?"));
        assertEquals(java.util.Set.of(staging.id()), hook.injectedIds());
      }
      List<dev.langchain4j.data.message.ChatMessage> sent = model.rawRequests().get(0).messages();
      assertEquals(3, sent.size(), sent.toString());
      AiMessage call = assertInstanceOf(AiMessage.class, sent.get(0));
      ToolExecutionResultMessage result =
          assertInstanceOf(ToolExecutionResultMessage.class, sent.get(1));
      assertInstanceOf(UserMessage.class, sent.get(2));
      assertEquals("get_memory", call.toolExecutionRequests().get(0).name());
      assertEquals(call.toolExecutionRequests().get(0).id(), result.id());
      assertTrue(result.text().contains(staging.id().value()), result.text());
      assertTrue(
          call.toolExecutionRequests().get(0).arguments().contains(staging.id().value()),
          call.toolExecutionRequests().get(0).arguments());
      assertEquals(List.of("get_memory"), script.requests().get(0).toolNames());
    }
  }

  @Test
  void capture_recordsTheExchangeOnce() throws Exception {
    try (MemoryService memory =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, STAGING));
      script.then(
          ModelReply.text("It resets nightly at 2am."),
          ModelReply.text("Noted: migrations wait until Monday."));
      HookOptions options =
          HookOptions.builder().recallTimeout(GENEROUS).sessionId("lc4j-capture").build();
      String question = "when is the staging database reset?";
      String fact = "We never run migrations on Sunday mornings.";
      try (MemoryHook hook = memory.hookInto(chat, options)) {
        await(chat.sendUser(question));
        await(chat.sendUser(fact));
      }
      assertTrue(memory.capture().flush(Duration.ofMinutes(1)), "capture drained");
      List<String> captured = new ArrayList<>();
      List<String> contexts = new ArrayList<>();
      memory
          .maintenance()
          .export(
              m -> {
                if (m.type() == MemoryType.OBSERVATION
                    && "lc4j-capture".equals(m.sourceSession())) {
                  captured.add(m.content());
                  contexts.add(m.context());
                }
              });
      for (String text :
          List.of(fact, "It resets nightly at 2am.", "Noted: migrations wait until Monday.")) {
        assertEquals(1, captured.stream().filter(text::equals).count(), text + " in " + captured);
      }
      // a bare question is kept as its answer's context, never as an observation of its own
      assertEquals(0, captured.stream().filter(question::equals).count(), captured.toString());
      assertTrue(
          contexts.get(captured.indexOf("It resets nightly at 2am.")).contains(question),
          contexts.toString());
      assertFalse(
          captured.stream().anyMatch(c -> c.contains("get_memory")),
          "the injected pair is never captured: " + captured);
    }
  }

  @Test
  void aRecallTimeout_neverFailsTheUsersSend() throws Exception {
    List<Runnable> neverRun = new CopyOnWriteArrayList<>();
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    CountDownLatch timedOut = new CountDownLatch(1);
    try (MemoryService memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .executor(neverRun::add)
            .noCapture()
            .build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, STAGING));
      MemoryListener listener =
          new MemoryListener() {
            @Override
            public void failed(String hookId, HookPhase phase, Throwable cause) {
              failures.add(cause);
              if (cause instanceof RecallTimeoutException) {
                timedOut.countDown();
              }
            }
          };
      try (MemoryHook hook =
          memory.hookInto(
              chat,
              HookOptions.builder()
                  .recallTimeout(Duration.ofMillis(50))
                  .listener(listener)
                  .noCapture()
                  .build())) {
        assertEquals("ok", await(chat.sendUser("when is the staging database reset?")).text());
        assertTrue(hook.injectedIds().isEmpty());
      }
      assertEquals(1, script.requests().size());
      List<ChatMessage> sent = script.requests().get(0).messages();
      assertEquals(List.of(ChatRole.USER), sent.stream().map(ChatMessage::role).toList());
      // listeners hear of it off the hook's thread, so the report may come after the send
      assertTrue(timedOut.await(30, TimeUnit.SECONDS), failures.toString());
    }
  }
}
