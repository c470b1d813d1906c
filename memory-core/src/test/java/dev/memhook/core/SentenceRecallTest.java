package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Origin;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memory a person said in several sentences is found by the one that answers, through the
 * service: stored with its sentences' vectors on a directory (the journaled Lucene store), ranked
 * by its best sentence, and still so after the service is closed and opened again.
 */
class SentenceRecallTest {

  @TempDir Path dir;

  private static final Scope SCOPE = Scope.of("acme", "ann");

  /** The vector signal alone, ungated: what the sentences change is the vector ranking. */
  private static final RecallOptions VECTORS_ONLY =
      RecallOptions.builder().weights(0, 1, 0).noRelevanceGate().build();

  private static final String QUESTION = "who plays the cello";

  private static Memory[] fill(MemoryService memory) {
    Memory told =
        memory.remember(
            MemoryDraft.builder(
                    SCOPE,
                    "I moved to Lisbon in May and the flat is tiny. I work night shifts at the"
                        + " clinic near the river. My brother plays the cello in an orchestra.")
                .origin(Origin.user("Ann"))
                .build());
    Memory lookAlike =
        memory.remember(
            MemoryDraft.builder(SCOPE, "Cello lessons on Tuesdays").origin(Origin.agent()).build());
    return new Memory[] {told, lookAlike};
  }

  @Test
  void thePersonsSentenceAboutTheQuestion_ranksTheirMemoryFirst_alsoAfterReopening() {
    Memory told;
    try (MemoryService memory = open()) {
      told = fill(memory)[0];
      RecallResult result = memory.recall(RecallQuery.of(SCOPE, QUESTION));
      assertEquals(told.id(), result.ids().get(0), result.explain());
      assertTrue(result.fusion().contains("passages lifted"), result.fusion());
    }
    try (MemoryService memory = open()) {
      RecallResult result = memory.recall(RecallQuery.of(SCOPE, QUESTION));
      assertEquals(told.id(), result.ids().get(0), "after reopening: " + result.explain());
    }
  }

  @Test
  void overAStoreThatKeepsNoPassages_theWholeVectorsRank_asBefore() {
    try (LuceneMemoryStore lucene = LuceneMemoryStore.inMemory();
        MemoryService memory =
            Memhook.builder()
                .store(
                    new ForwardingMemoryStore(lucene) {
                      @Override
                      public Set<StoreCapability> capabilities() {
                        return EnumSet.noneOf(StoreCapability.class);
                      }
                    })
                .embedder(HashingEmbedder.create())
                .recallOptions(VECTORS_ONLY)
                .build()) {
      Memory[] stored = fill(memory);
      RecallResult result = memory.recall(RecallQuery.of(SCOPE, QUESTION));
      assertEquals(stored[1].id(), result.ids().get(0), result.explain());
      assertFalse(result.fusion().contains("passages lifted"), result.fusion());
    }
  }

  private MemoryService open() {
    return Memhook.builder()
        .directory(dir)
        .embedder(HashingEmbedder.create())
        .recallOptions(VECTORS_ONLY)
        .build();
  }
}
