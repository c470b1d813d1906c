package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.core.internal.recall.RecallEngine;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a service warms, and when: the query side when it is built, and each scope a hook recalls
 * from the first time a hook is created for it, by recalling with the words of one of its memories
 * — only for a store the builder opened.
 */
class RecallWarmUpTest {

  private static final Scope TEAM = Scope.of("acme", "team");
  private static final String NOTE = "the staging database is reset every monday at six";

  @Test
  void aHookOnAScope_warmsItOnce_byRecallingWithTheWordsOfOneOfItsMemories() {
    SidedEmbedder embedder = new SidedEmbedder();
    try (MemoryService memory = Memhook.builder().inMemory().embedder(embedder).build()) {
      assertEquals(List.of(RecallEngine.WARM_UP_QUERY), embedder.queries);
      memory.remember(MemoryDraft.of(TEAM, NOTE));
      embedder.queries.clear();
      memory.hookInto(FakeChatService.create(), HookOptions.builder().scope(TEAM).build());
      assertEquals(List.of(NOTE), embedder.queries, "the first hook on the scope warms it");
      memory.hookInto(FakeChatService.create(), HookOptions.builder().scope(TEAM).build());
      assertEquals(List.of(NOTE), embedder.queries, "a second hook on it does not");
    }
  }

  @Test
  void aStoreTheHostHandedOver_isNeverSearchedToWarmUp() {
    SidedEmbedder embedder = new SidedEmbedder();
    try (LuceneMemoryStore lucene = LuceneMemoryStore.inMemory();
        MemoryService memory =
            Memhook.builder()
                .store(new ForwardingMemoryStore(lucene) {})
                .embedder(embedder)
                .build()) {
      memory.remember(MemoryDraft.of(TEAM, NOTE));
      memory.hookInto(FakeChatService.create(), HookOptions.builder().scope(TEAM).build());
      assertEquals(List.of(RecallEngine.WARM_UP_QUERY), embedder.queries);
    }
  }
}
