package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.SimilarityCalibration;
import dev.memhook.core.Memhook;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
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
        service(0.80, Map.of("weak", 0.84), RecallOptions.CosineBase.BACKGROUND)) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "weak"));
      RecallResult r = memory.recall(RecallQuery.of(Scope.DEFAULT, "the question"));
      assertEquals(List.of(), r.memories());
      assertEquals(
          "no candidate reached the evidence floors: best cosine 0.840 < 0.85 for a scope searched"
              + " whole, best text - < 1.01",
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

  /**
   * A service on the vector signal alone whose model declares unrelated cosines spread by {@code
   * deviation}; the background sample sits at cosine 0, so the evidence floor is the cosine 0.35.
   */
  private static MemoryService calibrated(double deviation, Map<String, Double> memories) {
    Map<String, Double> cosines = new HashMap<>(memories);
    Background.SENTENCES.forEach(s -> cosines.put(s, 0.0));
    return Memhook.builder()
        .inMemory()
        .embedder(new AngleEmbedder(cosines, Optional.of(new SimilarityCalibration(0, deviation))))
        .recallOptions(
            RecallOptions.builder()
                .weights(0, 1, 0)
                .minTextScore(1.01)
                .evidenceFloors(0.35, 1.01)
                .build())
        .build();
  }

  private static List<String> recalledInOrder(MemoryService memory, List<String> texts) {
    for (String t : texts) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, t));
    }
    RecallResult r = memory.recall(RecallQuery.of(Scope.DEFAULT, "the question"));
    return r.memories().stream().map(m -> m.memory().content()).toList();
  }

  /** Eleven memories at cosines {@code from}, {@code from + 0.002}, … */
  private static Map<String, Double> neighbours(double from) {
    Map<String, Double> memories = new HashMap<>();
    for (int i = 0; i < 11; i++) {
      memories.put("neighbour " + i, from + 0.002 * i);
    }
    return memories;
  }

  @Test
  void aCrowdOverTheFloor_givesNoEvidence_butAnAnswerAheadOfItDoes() {
    Map<String, Double> crowd = neighbours(0.50);
    crowd.put("neighbour 11", 0.522);
    // every memory is over the floor 0.35, none clear of the tenth (0.504) by 0.25 × 0.1
    try (MemoryService memory = calibrated(0.1, crowd)) {
      assertEquals(Set.of(), recalled(memory, List.copyOf(crowd.keySet())));
    }
    // a model whose unrelated cosines spread a tenth as wide needs a tenth of the lead
    try (MemoryService memory = calibrated(0.01, crowd)) {
      assertEquals(
          "neighbour 11",
          recalledInOrder(memory, List.copyOf(crowd.keySet())).get(0),
          "0.522 is clear of 0.504 + 0.25 × 0.01");
    }
    Map<String, Double> withAnswer = new HashMap<>(crowd);
    withAnswer.put("answer", 0.6);
    try (MemoryService memory = calibrated(0.1, withAnswer)) {
      for (String t : withAnswer.keySet()) {
        memory.remember(MemoryDraft.of(Scope.DEFAULT, t));
      }
      RecallResult r = memory.recall(RecallQuery.of(Scope.DEFAULT, "the question"));
      assertEquals("answer", r.memories().get(0).memory().content(), r.explain());
    }
  }

  /**
   * A scope of fewer memories than a recall takes from each signal (50) is searched whole: its
   * evidence floor is halfway between the candidate floor (0.17) and the evidence floor (0.35). The
   * same answer among 60 memories has to reach the evidence floor itself.
   */
  @Test
  void aSmallScope_recallsAModestAnswer_thatALargeScopeHoldsBackUnderTheEvidenceFloor() {
    Map<String, Double> few = new HashMap<>();
    for (int i = 0; i < 11; i++) {
      few.put("unrelated " + i, 0.0);
    }
    few.put("answer", 0.30);
    try (MemoryService memory = calibrated(0.1, few)) {
      assertEquals(Set.of("answer"), recalled(memory, List.copyOf(few.keySet())));
    }
    Map<String, Double> many = new HashMap<>(few);
    for (int i = 11; i < 60; i++) {
      many.put("unrelated " + i, 0.0);
    }
    try (MemoryService memory = calibrated(0.1, many)) {
      for (String t : many.keySet()) {
        memory.remember(MemoryDraft.of(Scope.DEFAULT, t));
      }
      RecallResult r = memory.recall(RecallQuery.of(Scope.DEFAULT, "the question"));
      assertEquals(List.of(), r.memories(), r.explain());
      assertTrue(
          r.dropped().get(0).detail().contains("best cosine 0.300 (floor 0.35 and above"),
          r.dropped().get(0).detail());
    }
  }

  /** An embedder over 8 dimensions from each text's hash, counting query-side calls. */
  private static final class HashedEmbedder implements Embedder {
    final AtomicInteger queries = new AtomicInteger();
    private final Optional<SimilarityCalibration> declared;

    HashedEmbedder(Optional<SimilarityCalibration> declared) {
      this.declared = declared;
    }

    @Override
    public Embedding embed(String text) {
      java.util.Random random = new java.util.Random(text.hashCode());
      float[] v = new float[8];
      for (int i = 0; i < v.length; i++) {
        v[i] = (float) random.nextGaussian();
      }
      return Embedding.of(v);
    }

    @Override
    public Embedding embedQuery(String text) {
      queries.incrementAndGet();
      return embed(text);
    }

    @Override
    public int dimension() {
      return 8;
    }

    @Override
    public String modelId() {
      return "hashed-test";
    }

    @Override
    public Optional<SimilarityCalibration> similarityCalibration() {
      return declared;
    }
  }

  @Test
  void calibration_isMeasuredOverTheSample_whenTheEmbedderDeclaresNone() {
    HashedEmbedder embedder = new HashedEmbedder(Optional.empty());
    SimilarityCalibration measured = new Background(embedder).calibration();
    List<Double> cosines = new ArrayList<>();
    for (String q : Background.SENTENCES) {
      for (String d : Background.SENTENCES) {
        if (!q.equals(d)) {
          cosines.add(embedder.embed(q).cosine(embedder.embed(d)));
        }
      }
    }
    double mean = cosines.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double squares = cosines.stream().mapToDouble(c -> (c - mean) * (c - mean)).sum();
    assertEquals(mean, measured.unrelatedMean(), 1e-6);
    assertEquals(Math.sqrt(squares / (cosines.size() - 1)), measured.unrelatedDeviation(), 1e-6);
    assertEquals(Background.SENTENCES.size(), embedder.queries.get());
  }

  @Test
  void calibration_isTheEmbeddersDeclaration_withoutEmbeddingTheSampleAsQueries() {
    SimilarityCalibration declared = new SimilarityCalibration(0.42, 0.065);
    HashedEmbedder embedder = new HashedEmbedder(Optional.of(declared));
    Background background = new Background(embedder);
    assertEquals(declared, background.calibration());
    assertEquals(declared, background.calibration());
    assertEquals(0, embedder.queries.get());
    assertTrue(background.closeness(embedder.embed("a question")).deviation() > 0);
  }
}
