package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.core.Memhook;
import dev.memhook.api.RecallOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The two-level relevance gate, on the vector signal alone with vectors at known cosines. */
class RelevanceGateTest {

  /** Maps known texts to unit vectors at a given angle from the query direction (1, 0). */
  private static final class AngleEmbedder implements Embedder {
    private final Map<String, Double> cosines;

    AngleEmbedder(Map<String, Double> cosines) {
      this.cosines = cosines;
    }

    @Override
    public Embedding embed(String text) {
      double c = cosines.getOrDefault(text, 1.0);
      return Embedding.of((float) c, (float) Math.sqrt(1 - c * c));
    }

    @Override
    public int dimension() {
      return 2;
    }

    @Override
    public String modelId() {
      return "angle-test";
    }
  }

  private static MemoryService service(Map<String, Double> cosines) {
    return Memhook.builder().inMemory().embedder(new AngleEmbedder(cosines))
        .recallOptions(RecallOptions.builder().weights(0, 1, 0).evidenceFloors(0.6, 1.01)
            .minCosine(0.3).minTextScore(1.01).build())
        .build();
  }

  @Test
  void aRecallWithEvidence_bringsCompanionsAboveTheCandidateFloor() {
    try (MemoryService memory = service(Map.of("strong", 0.7, "companion", 0.4, "noise", 0.1))) {
      Memory strong = memory.remember(MemoryDraft.of(Scope.DEFAULT, "strong"));
      Memory companion = memory.remember(MemoryDraft.of(Scope.DEFAULT, "companion"));
      Memory noise = memory.remember(MemoryDraft.of(Scope.DEFAULT, "noise"));
      RecallResult result = memory.recall(RecallQuery.of(Scope.DEFAULT, "query"));
      assertEquals(List.of(strong.id(), companion.id()), result.ids(), result.explain());
      assertEquals(List.of(noise.id()), result.dropped().stream().map(DroppedCandidate::id).toList());
    }
  }

  @Test
  void aRecallWithoutEvidence_returnsNothing_evenAboveTheCandidateFloor() {
    try (MemoryService memory = service(Map.of("companion", 0.5, "other", 0.4))) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "companion"));
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "other"));
      RecallResult result = memory.recall(RecallQuery.of(Scope.DEFAULT, "query"));
      assertTrue(result.memories().isEmpty(), result.explain());
      assertEquals(2, result.dropped().size());
      assertTrue(result.dropped().get(0).detail().contains("evidence floors"), result.explain());
    }
  }

  @Test
  void evidenceFloorsBelowTheCandidateFloors_areRejected() {
    assertThrows(IllegalStateException.class,
        () -> RecallOptions.builder().minCosine(0.5).evidenceFloors(0.4, 0.9).build());
  }
}
