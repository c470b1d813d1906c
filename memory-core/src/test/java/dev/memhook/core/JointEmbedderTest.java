package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.SimilarityCalibration;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class JointEmbedderTest {

  static LongStream seeds() {
    return Seeds.seeds(20);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void aJointCosine_isTheMeanOfThePartsCosines_forAnyTexts(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    HashingEmbedder a = HashingEmbedder.withDimension(64);
    HashingEmbedder b = HashingEmbedder.create();
    try (JointEmbedder joint = JointEmbedder.of(a, b)) {
      String x = words(random);
      String y = words(random);
      double expected = (a.embed(x).cosine(a.embed(y)) + b.embed(x).cosine(b.embed(y))) / 2;
      Embedding jx = joint.embed(x);
      Embedding jy = joint.embedQuery(y);
      assertEquals(64 + 256, jx.dimension());
      assertEquals(1.0, jx.norm(), 1e-5, "a joint vector is a unit vector; " + Seeds.replay(seed));
      assertEquals(expected, jx.dot(jy), 1e-5, x + " / " + y + "; " + Seeds.replay(seed));
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void partsThatDeclareTheirSpread_areWeightedByItsInverse_soNeitherScaleDecides(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    HashingEmbedder a = HashingEmbedder.withDimension(64);
    HashingEmbedder b = HashingEmbedder.create();
    try (JointEmbedder joint = JointEmbedder.of(calibrated(a, 0.09), calibrated(b, 0.03))) {
      assertEquals(0.25, joint.firstWeight(), 1e-12, "1/0.09 against 1/0.03");
      assertTrue(joint.modelId().endsWith(";0.250)"), joint.modelId());
      String x = words(random);
      String y = words(random);
      double expected = 0.25 * a.embed(x).cosine(a.embed(y)) + 0.75 * b.embed(x).cosine(b.embed(y));
      Embedding jx = joint.embed(x);
      assertEquals(1.0, jx.norm(), 1e-5, Seeds.replay(seed));
      assertEquals(
          expected, jx.dot(joint.embedQuery(y)), 1e-5, x + " / " + y + "; " + Seeds.replay(seed));
    }
  }

  @Test
  void aPartWithoutADeclaredSpread_leavesTheWeightsEqual() {
    try (JointEmbedder joint =
        JointEmbedder.of(calibrated(HashingEmbedder.create(), 0.09), HashingEmbedder.create())) {
      assertEquals(0.5, joint.firstWeight());
      assertFalse(joint.similarityCalibration().isPresent());
    }
  }

  @Test
  void eachPart_keepsItsOwnQueryAndDocumentSides() {
    SidedEmbedder a = new SidedEmbedder();
    SidedEmbedder b = new SidedEmbedder();
    try (JointEmbedder joint = JointEmbedder.of(a, b)) {
      joint.embedQuery("which port does the gateway use");
      joint.embed("the gateway listens on 8443");
      joint.embedAll(List.of("one stored text"));
      joint.embedDocuments(List.of("another stored text"));
      for (SidedEmbedder part : List.of(a, b)) {
        assertEquals(List.of("which port does the gateway use"), part.queries);
        assertEquals(
            List.of("the gateway listens on 8443", "one stored text", "another stored text"),
            part.documents);
      }
    }
  }

  @Test
  void aBatch_givesEachTextTheVectorItGetsAlone_inOrder() {
    try (JointEmbedder joint =
        JointEmbedder.of(HashingEmbedder.withDimension(32), HashingEmbedder.create())) {
      List<String> texts = List.of("alpha beta", "", "gamma", "alpha beta");
      List<Embedding> batch = joint.embedDocuments(texts);
      assertEquals(texts.size(), batch.size());
      for (int i = 0; i < texts.size(); i++) {
        assertEquals(joint.embed(texts.get(i)), batch.get(i), "text " + i);
      }
      assertEquals(List.of(), joint.embedDocuments(List.of()));
    }
  }

  @Test
  void theModelId_namesBothPartsInOrder_soAStoreTellsPairsApart() {
    HashingEmbedder a = HashingEmbedder.withDimension(32);
    HashingEmbedder b = HashingEmbedder.create();
    JointEmbedder ab = JointEmbedder.of(a, b);
    JointEmbedder ba = JointEmbedder.of(b, a);
    assertEquals("joint(" + a.modelId() + "," + b.modelId() + ";0.500)", ab.modelId());
    assertNotEquals(ab.modelId(), ba.modelId());
    assertEquals(new EmbeddingSpace(ab.modelId(), 32 + 256), ab.space());
    assertFalse(ab.similarityCalibration().isPresent(), "the service measures the pair's spread");
  }

  @Test
  void nullsAndTheSameEmbedderTwice_areRefused() {
    HashingEmbedder a = HashingEmbedder.create();
    assertThrows(NullPointerException.class, () -> JointEmbedder.of(null, a));
    assertThrows(NullPointerException.class, () -> JointEmbedder.of(a, null));
    assertThrows(IllegalArgumentException.class, () -> JointEmbedder.of(a, a));
    JointEmbedder joint = JointEmbedder.of(a, HashingEmbedder.withDimension(32));
    assertThrows(NullPointerException.class, () -> joint.embed(null));
    assertThrows(NullPointerException.class, () -> joint.embedQuery(null));
    assertThrows(NullPointerException.class, () -> joint.embedDocuments(null));
    assertThrows(
        NullPointerException.class, () -> joint.embedDocuments(Arrays.asList("x", null, "y")));
  }

  @Test
  void aPartThatBreaksItsOwnDimensionOrCount_isAnEmbeddingFailureNamingIt() {
    Embedder liar =
        new Embedder() {
          @Override
          public Embedding embed(String text) {
            return Embedding.of(1f, 0f);
          }

          @Override
          public List<Embedding> embedAll(List<String> texts) {
            return List.of(Embedding.of(new float[dimension()]));
          }

          @Override
          public int dimension() {
            return 3;
          }

          @Override
          public String modelId() {
            return "liar";
          }
        };
    JointEmbedder joint = JointEmbedder.of(HashingEmbedder.create(), liar);
    EmbeddingException one = assertThrows(EmbeddingException.class, () -> joint.embed("x"));
    assertTrue(
        one.getMessage().contains("liar answered a vector of 2 dimensions"), one::getMessage);
    EmbeddingException batch =
        assertThrows(EmbeddingException.class, () -> joint.embedDocuments(List.of("x", "y")));
    assertTrue(
        batch.getMessage().contains("liar answered 1 vectors for 2 texts"), batch::getMessage);
  }

  @Test
  void thePartsEmbed_atTheSameTime_onEverySide() {
    CyclicBarrier meet = new CyclicBarrier(2);
    JointEmbedder joint = JointEmbedder.of(new Meeting(meet), new Meeting(meet));
    // each part waits for the other inside its call: run one after the other, the first would
    // wait alone until its timeout and fail
    assertEquals(2 * HashingEmbedder.DEFAULT_DIMENSION, joint.embedQuery("q").dimension());
    assertEquals(2 * HashingEmbedder.DEFAULT_DIMENSION, joint.embed("d").dimension());
    assertEquals(2, joint.embedDocuments(List.of("a", "b")).size());
  }

  @Test
  void whatTheSecondPartThrows_reachesTheCaller_asItWasThrown() {
    EmbeddingException broken = new EmbeddingException("second part's model is gone");
    JointEmbedder joint = JointEmbedder.of(HashingEmbedder.create(), new Failing(broken));
    assertSame(broken, assertThrows(EmbeddingException.class, () -> joint.embedQuery("q")));
    assertSame(
        broken, assertThrows(EmbeddingException.class, () -> joint.embedDocuments(List.of("d"))));
  }

  @Test
  void close_closesBothParts_theSecondEvenWhenTheFirstFails() {
    AtomicInteger closed = new AtomicInteger();
    RuntimeException broken = new IllegalStateException("first part's close failed");
    Embedder first =
        closing(
            () -> {
              closed.incrementAndGet();
              throw broken;
            });
    Embedder second = closing(closed::incrementAndGet);
    JointEmbedder joint = JointEmbedder.of(first, second);
    RuntimeException thrown = assertThrows(RuntimeException.class, joint::close);
    assertSame(broken, thrown);
    assertEquals(2, closed.get());
  }

  @Test
  void aServiceOnAJointEmbedder_storesAndRecallsThroughBothParts() {
    SidedEmbedder a = new SidedEmbedder();
    SidedEmbedder b = new SidedEmbedder();
    String question = "which port does the staging database use";
    try (MemoryService service =
        Memhook.builder()
            .inMemory()
            .embedder(JointEmbedder.of(a, b))
            .recallOptions(RecallOptions.defaults().toBuilder().noRelevanceGate().build())
            .build()) {
      service.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database listens on port 6543."));
      service.remember(MemoryDraft.of(Scope.DEFAULT, "Lunch is at noon on Fridays."));
      RecallResult result = service.recall(RecallQuery.of(Scope.DEFAULT, question));
      assertFalse(result.memories().isEmpty(), result::toString);
      assertTrue(result.memories().get(0).memory().content().contains("6543"), result::toString);
      assertTrue(a.queries.contains(question), "first part's queries: " + a.queries);
      assertTrue(b.queries.contains(question), "second part's queries: " + b.queries);
    }
  }

  /** Hashing vectors, each call made only once the other part's call has begun too. */
  private record Meeting(CyclicBarrier meet) implements Embedder {
    @Override
    public Embedding embed(String text) {
      try {
        meet.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
        throw new AssertionError("the other part was not called at the same time", e);
      }
      return HashingEmbedder.create().embed(text);
    }

    @Override
    public List<Embedding> embedAll(List<String> texts) {
      embed("");
      return texts.stream().map(HashingEmbedder.create()::embed).toList();
    }

    @Override
    public int dimension() {
      return HashingEmbedder.DEFAULT_DIMENSION;
    }

    @Override
    public String modelId() {
      return "meeting@" + System.identityHashCode(this);
    }
  }

  /** A part whose every call throws {@code failure}. */
  private record Failing(RuntimeException failure) implements Embedder {
    @Override
    public Embedding embed(String text) {
      throw failure;
    }

    @Override
    public List<Embedding> embedAll(List<String> texts) {
      throw failure;
    }

    @Override
    public int dimension() {
      return HashingEmbedder.DEFAULT_DIMENSION;
    }

    @Override
    public String modelId() {
      return "failing";
    }
  }

  /** {@code vectors} declaring an unrelated spread of {@code deviation}. */
  private static Embedder calibrated(HashingEmbedder vectors, double deviation) {
    return new Part(vectors, Optional.of(new SimilarityCalibration(0.1, deviation)), () -> {});
  }

  /** Hashing vectors that run {@code onClose} when closed. */
  private static Embedder closing(Runnable onClose) {
    return new Part(HashingEmbedder.create(), Optional.empty(), onClose);
  }

  /** A part of a joint embedder: hashing vectors, a calibration to declare, a close to run. */
  private record Part(
      HashingEmbedder vectors, Optional<SimilarityCalibration> calibration, Runnable onClose)
      implements Embedder {
    @Override
    public Embedding embed(String text) {
      return vectors.embed(text);
    }

    @Override
    public int dimension() {
      return vectors.dimension();
    }

    @Override
    public String modelId() {
      return vectors.modelId() + "+part";
    }

    @Override
    public Optional<SimilarityCalibration> similarityCalibration() {
      return calibration;
    }

    @Override
    public void close() {
      onClose.run();
    }
  }

  private static String words(SplittableRandom random) {
    String[] pool = {
      "gateway",
      "port",
      "timeout",
      "retry",
      "pool",
      "lunch",
      "Friday",
      "cache",
      "",
      "ÄÖ",
      "日本",
      "8443",
      "db_pool_size",
      "PoolSize"
    };
    List<String> out = new ArrayList<>();
    int n = random.nextInt(0, 8);
    for (int i = 0; i < n; i++) {
      out.add(pool[random.nextInt(pool.length)]);
    }
    return String.join(" ", out);
  }
}
