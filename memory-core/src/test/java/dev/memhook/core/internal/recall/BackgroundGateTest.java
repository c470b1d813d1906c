package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.core.Memhook;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The gate's cosine floors count from what unrelated text reaches with the model in use, so one
 * setting works for a model whose cosines crowd near 1 and for one whose cosines run low; absolute
 * floors fail the first.
 */
class BackgroundGateTest {

  /** A model where unrelated text sits at {@code unrelated} and the memories where given. */
  private static MemoryService service(
      double unrelated, Map<String, Double> memories, RecallOptions.CosineBase base) {
    Map<String, Double> cosines = new HashMap<>(memories);
    Background.SENTENCES.forEach(s -> cosines.put(s, unrelated));
    RecallOptions.Builder options = RecallOptions.builder().weights(0, 1, 0).minTextScore(1.01);
    if (base == RecallOptions.CosineBase.ABSOLUTE) {
      options.cosineBase(base);
    }
    return Memhook.builder()
        .inMemory()
        .embedder(new AngleEmbedder(cosines))
        .recallOptions(options.evidenceFloors(0.35, 1.01).build())
        .build();
  }

  private static Set<String> recalled(MemoryService memory, List<String> texts) {
    for (String t : texts) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, t));
    }
    RecallResult r = memory.recall(RecallQuery.of(Scope.DEFAULT, "the question"));
    return Set.copyOf(r.memories().stream().map(m -> m.memory().content()).toList());
  }

  @Test
  void aModelWithCrowdedCosines_recallsTheMatch_andNotWhatSitsJustAboveUnrelatedText() {
    Map<String, Double> memories = Map.of("match", 0.95, "near unrelated", 0.82);
    try (MemoryService memory = service(0.80, memories, RecallOptions.CosineBase.BACKGROUND)) {
      // floors: evidence 0.80 + 0.35 × 0.20 = 0.87, candidate 0.80 + 0.17 × 0.20 = 0.834
      assertEquals(Set.of("match"), recalled(memory, List.copyOf(memories.keySet())));
    }
    try (MemoryService memory = service(0.80, memories, RecallOptions.CosineBase.ABSOLUTE)) {
      assertEquals(
          Set.of("match", "near unrelated"),
          recalled(memory, List.copyOf(memories.keySet())),
          "absolute floors let everything through for such a model");
    }
  }

  @Test
  void aModelWithLowCosines_recallsAMatchThatClearsTheRoomAboveUnrelatedText() {
    Map<String, Double> memories = Map.of("match", 0.42, "unrelated", 0.06);
    try (MemoryService memory = service(0.05, memories, RecallOptions.CosineBase.BACKGROUND)) {
      // floors: evidence 0.05 + 0.35 × 0.95 = 0.3825, candidate 0.05 + 0.17 × 0.95 = 0.2115
      assertEquals(Set.of("match"), recalled(memory, List.copyOf(memories.keySet())));
    }
  }

  @Test
  void nothingClearsTheEvidenceFloor_soNothingIsRecalled_andTheDetailNamesTheFloor() {
    try (MemoryService memory =
        service(0.80, Map.of("weak", 0.85), RecallOptions.CosineBase.BACKGROUND)) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "weak"));
      RecallResult r = memory.recall(RecallQuery.of(Scope.DEFAULT, "the question"));
      assertEquals(List.of(), r.memories());
      assertEquals(
          "no candidate reached the evidence floors: best cosine 0.850 < 0.87, best text - < 1.01",
          r.dropped().get(0).detail());
    }
  }

  @Test
  void closeness_summarisesTheSample_withTheThirdHighestAsItsHigh() {
    Background.Closeness c = Background.Closeness.of(new double[] {0.1, 0.5, 0.2, 0.4, 0.3});
    assertEquals(0.3, c.mean(), 1e-12);
    assertEquals(0.3, c.high(), 1e-12);
    assertEquals(Math.sqrt(0.025), c.deviation(), 1e-12);
  }
}
