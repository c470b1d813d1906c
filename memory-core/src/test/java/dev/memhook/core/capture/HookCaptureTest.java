package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ModelReply;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hooked conversation captures itself: each message once, never the hook's own get_memory pair,
 * and what it captured is recalled for the next conversation, in the next lifetime of the service.
 */
class HookCaptureTest {

  private static final String FACT =
      "Our staging database heron-db resets every Sunday at 02:00 UTC, so never run migrations then.";

  @TempDir Path dir;

  /**
   * Recall may take its time here: a first recall in a cold JVM on a loaded machine can pass the
   * default timeout, and this test is about what is captured and recalled, not how fast.
   */
  private static final HookOptions PATIENT =
      HookOptions.builder().recallTimeout(Duration.ofSeconds(10)).build();

  @Test
  void aHookedConversation_isCapturedOncePerMessage_andRecalledInTheNextLifetime()
      throws Exception {
    MemoryId seeded;
    try (MemoryService memory = service()) {
      // a memory the hook will inject, so the conversation holds a get_memory pair
      seeded =
          memory
              .remember(
                  MemoryDraft.of(
                      Scope.DEFAULT, "The integration tests use the heron-db staging database."))
              .id();
      FakeChatService chat = chatWithTestTool();
      chat.scriptReplies(
          ModelReply.builder()
              .assistant("Let me run the tests.")
              .toolCall("run_tests", Map.of("module", "billing"))
              .build(),
          ModelReply.text("All 12 billing tests pass against heron-db."),
          ModelReply.text("Noted: no migrations on Sunday mornings."));
      try (MemoryHook hook = memory.hookInto(chat, PATIENT)) {
        chat.sendUser("Please run the billing tests against the heron-db staging database.")
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
        chat.sendUser(FACT).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertTrue(
            hook.injectedIds().contains(seeded),
            () -> "the seeded memory was not injected; receipts: " + hook.receipts());
      }
      flush(memory);
      // without a session id, the hook names the session after the conversation's first message
      String session = "chat-" + chat.messages().get(0).id();
      List<Memory> captured = inSession(memory, session);
      List<String> contents = captured.stream().map(Memory::content).toList();
      assertEquals(6, captured.size(), "2 user messages, 3 answers, 1 tool use: " + contents);
      assertEquals(1, contents.stream().filter(c -> c.equals(FACT)).count());
      assertTrue(
          captured.stream()
              .anyMatch(
                  m ->
                      m.origin().equals(Origin.tool("run_tests"))
                          && m.content().contains("Tests run: 12")),
          contents.toString());
      assertFalse(
          contents.stream().anyMatch(c -> c.contains("get_memory") || c.contains(seeded.value())),
          "the injected get_memory pair is never captured: " + contents);
      Memory fact =
          captured.stream().filter(m -> m.content().equals(FACT)).findFirst().orElseThrow();
      assertEquals(Origin.user(), fact.origin());
      assertEquals(session, fact.sourceSession());
      assertTrue(
          fact.context().contains("heron-db"), "the turn before is its context: " + fact.context());

      // hooking the same conversation again captures nothing new
      int before = observations(memory).size();
      try (MemoryHook again = memory.hookInto(chat)) {
        chat.fireBeforeSendLoop().toCompletableFuture().get(30, TimeUnit.SECONDS);
        chat.fireAfterSend().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
      flush(memory);
      assertEquals(before, observations(memory).size(), "re-hooking captured again");
    }

    try (MemoryService memory = service()) {
      FakeChatService chat = FakeChatService.create();
      chat.scriptReplies(ModelReply.text("Not on Sunday at 02:00 UTC: heron-db resets then."));
      try (MemoryHook hook =
          memory.hookInto(
              chat,
              HookOptions.builder()
                  .recallTimeout(PATIENT.recallTimeout())
                  .sessionId("conv-2")
                  .build())) {
        chat.sendUser("When does the staging database reset? Can I run migrations then?")
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
        List<String> injected =
            hook.injectedIds().stream().map(id -> memory.get(id).orElseThrow().content()).toList();
        assertTrue(
            injected.contains(FACT),
            () -> "the captured fact was not injected: " + injected + "; " + hook.receipts());
      }
    }
  }

  private MemoryService service() {
    return Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
  }

  private static List<Memory> inSession(MemoryService memory, String session) {
    return observations(memory).stream().filter(m -> session.equals(m.sourceSession())).toList();
  }

  private static FakeChatService chatWithTestTool() {
    FakeChatService chat = FakeChatService.create();
    chat.registerTool(
        new ToolDefinition("run_tests", "runs a module's tests", "{\"type\":\"object\"}"),
        call ->
            CompletableFuture.completedFuture(
                ToolResult.success("Tests run: 12, Failures: 0, Errors: 0 — BUILD SUCCESS")));
    return chat;
  }
}
