package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How many records one recall reads from the store after fusion and the gate. */
class RecordReadsTest {

  /** Counts the ids asked of {@code getAll}. */
  private static final class CountingStore extends ForwardingMemoryStore {
    final List<MemoryId> read = new ArrayList<>();

    CountingStore() {
      super(LuceneMemoryStore.inMemory());
    }

    @Override
    public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
      read.addAll(ids);
      return super.getAll(ids);
    }
  }

  private static final RecallOptions TEXT_ONLY =
      RecallOptions.builder().weights(1, 0, 0).noRelevanceGate().build();

  @Test
  void recall_readsThePlacesLeftAndASmallMargin_notTwiceThem() {
    CountingStore store = new CountingStore();
    try (MemoryService svc =
        Memhook.builder()
            .store(store)
            .embedder(HashingEmbedder.create())
            .recallOptions(TEXT_ONLY)
            .build()) {
      for (int i = 0; i < 60; i++) {
        svc.remember(MemoryDraft.of(Scope.DEFAULT, "release train note " + i));
      }
      store.read.clear();
      RecallResult result = svc.recall(new RecallQuery(Scope.DEFAULT, "release train", 10));
      assertEquals(10, result.memories().size(), result.explain());
      // 10 places + max(2, 10 / 4) margin, in one read
      assertEquals(12, store.read.size(), store.read.toString());
    }
  }

  @Test
  void recall_readsOnWhenTheFirstReadIsNotEnough() {
    CountingStore store = new CountingStore();
    try (MemoryService svc =
        Memhook.builder()
            .store(store)
            .embedder(HashingEmbedder.create())
            .recallOptions(
                RecallOptions.builder().weights(1, 0, 0).noRelevanceGate().maxPerSession(1).build())
            .build()) {
      for (int i = 0; i < 40; i++) {
        svc.remember(
            MemoryDraft.builder(Scope.DEFAULT, "release train note " + i)
                .sourceSession("s" + (i % 8))
                .build());
      }
      store.read.clear();
      RecallResult result = svc.recall(new RecallQuery(Scope.DEFAULT, "release train", 10));
      // one per session and eight sessions: ten places can never be filled, so the engine reads
      // on past its first 12 until all 40 candidates are read, and keeps one of each session
      assertEquals(8, result.memories().size(), result.explain());
      assertEquals(
          8, result.memories().stream().map(m -> m.memory().sourceSession()).distinct().count());
      assertEquals(40, store.read.size(), "read " + store.read);
    }
  }
}
