package dev.memhook.core.internal.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.FakeChatService;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One injection never asks for more than one get_memory summary call takes. */
class HookInjectionCapTest {

  @Test
  void aCallbackRecallingMoreThanFiftyIds_injectsFifty_andTheResultIsNotAnError() throws Exception {
    try (MemoryService memory =
        Memhook.builder()
            .store(LuceneMemoryStore.inMemory())
            .embedder(HashingEmbedder.create())
            .build()) {
      for (int i = 0; i < 80; i++) {
        memory.remember(
            MemoryDraft.of(Scope.DEFAULT, "quokka ledger note number " + i + " on quokkas"));
      }
      FakeChatService chat = FakeChatService.create();
      HookOptions options =
          HookOptions.builder()
              .maxPerMessage(100)
              .maxPerCallback(1_000)
              .recallTimeout(Duration.ofSeconds(30))
              .build();
      MemoryHook hook = memory.hookInto(chat, options);
      chat.sendUser("quokka ledger note on quokkas")
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      hook.close();
      assertEquals(GetMemoryTool.MAX_SUMMARY_IDS, hook.injectedIds().size());
      List<ChatMessage> results =
          chat.messages().stream().filter(m -> m.role() == ChatRole.TOOL_RESULT).toList();
      assertEquals(1, results.size());
      com.fasterxml.jackson.databind.JsonNode array = JsonText.JSON.readTree(results.get(0).text());
      assertTrue(array.isArray(), "summaries, not an error: " + results.get(0).text());
      assertEquals(GetMemoryTool.MAX_SUMMARY_IDS, array.size());
      assertFalse(array.get(0).has("error"), results.get(0).text());
      assertTrue(results.get(0).text().length() <= options.maxResultChars(), "within the budget");
    }
  }
}
