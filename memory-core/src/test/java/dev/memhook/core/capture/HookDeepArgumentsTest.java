package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ModelReply;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tool call whose arguments nest without end, in a conversation a hook captures: the host's turn
 * completes, and capture records the call with its arguments cut to a bounded depth.
 */
class HookDeepArgumentsTest {

  private static final int DEEP = 10_000;

  /**
   * How long the turn may take at most before the test calls it stalled: a liveness bound, far
   * beyond what the turn needs, not a measurement.
   */
  private static final long LIVENESS_SECONDS = 30;

  @TempDir Path dir;

  private static Map<String, Object> nestedMaps(int levels) {
    Map<String, Object> root = new LinkedHashMap<>();
    Map<String, Object> current = root;
    for (int i = 1; i < levels; i++) {
      Map<String, Object> next = new LinkedHashMap<>();
      current.put("k", next);
      current = next;
    }
    return root;
  }

  /** The deepest nesting of braces in {@code text}. */
  private static int braceDepth(String text) {
    int depth = 0;
    int deepest = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{') {
        deepest = Math.max(deepest, ++depth);
      } else if (c == '}') {
        depth--;
      }
    }
    return deepest;
  }

  @Test
  void aToolCallNestedTenThousandMapsDeep_completesTheTurn_andIsCapturedCutToABoundedDepth()
      throws Exception {
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "The deep tool walks trees."));
      FakeChatService chat = FakeChatService.create();
      chat.registerTool(
          new ToolDefinition("walk_tree", "walks a tree", "{\"type\":\"object\"}"),
          call -> CompletableFuture.completedFuture(ToolResult.success("walked the tree")));
      chat.scriptReplies(
          ModelReply.builder().toolCall("walk_tree", Map.of("tree", nestedMaps(DEEP))).build(),
          ModelReply.text("The tree is walked."));
      try (MemoryHook hook =
          memory.hookInto(
              chat, HookOptions.builder().recallTimeout(Duration.ofSeconds(10)).build())) {
        chat.sendUser("Please walk the deep tree.")
            .toCompletableFuture()
            .get(LIVENESS_SECONDS, TimeUnit.SECONDS);

        List<ChatMessage> messages = chat.messages();
        ChatMessage last = messages.get(messages.size() - 1);
        assertEquals(ChatRole.ASSISTANT, last.role(), "the turn went on: the model answered");
        assertEquals("The tree is walked.", last.text());
        assertTrue(
            messages.stream()
                .anyMatch(
                    m ->
                        m.role() == ChatRole.TOOL_RESULT
                            && m.toolCall().toolName().equals("walk_tree")
                            && m.text().equals("walked the tree")),
            "the tool ran");
        List<InjectionReceipt> receipts = hook.receipts();
        assertEquals(1, receipts.size(), "one attempt, for the user message");
        assertEquals(PhaseStatus.Status.OK, receipts.get(0).recall().status());
      }
      flush(memory);
      List<Memory> toolUses =
          observations(memory).stream()
              .filter(m -> m.origin().equals(Origin.tool("walk_tree")))
              .toList();
      assertEquals(1, toolUses.size(), "the tool use is captured once");
      String content = toolUses.get(0).content();
      assertTrue(content.contains("walked the tree"), content);
      assertTrue(content.contains(MemoryDraft.CUT_MARKER), "the arguments are shown cut");
      int depth = braceDepth(content);
      assertTrue(
          depth > 1 && depth <= 64,
          "the arguments nest " + depth + " levels, within capture's JSON depth of 64");
    }
  }
}
