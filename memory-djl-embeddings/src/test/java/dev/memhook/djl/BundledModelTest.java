package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.SimilarityCalibration;
import dev.memhook.core.JointEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.core.internal.recall.RecallEngine;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The three models this module bundles, each loaded once for the class: dimension, unit length,
 * their query/document conventions, a paraphrase ranking, and an index that refuses another model
 * or convention.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BundledModelTest {
  static final double UNIT = 1e-4;

  private final Map<BundledModel, DjlEmbedder> embedders = new EnumMap<>(BundledModel.class);

  @BeforeAll
  void load() {
    for (BundledModel model : bundled()) {
      embedders.put(model, DjlEmbedder.bundledBuilder(model).predictorPoolSize(1).build());
    }
  }

  @AfterAll
  void close() {
    embedders.values().forEach(DjlEmbedder::close);
  }

  static List<BundledModel> bundled() {
    return List.of(
        BundledModel.MINILM_L6_V2_Q, BundledModel.BGE_SMALL_EN_V15_Q, BundledModel.E5_SMALL_V2_Q);
  }

  @Test
  void bundled_recordsTheModelAndItsConventionInTheModelId() {
    assertEquals("all-minilm-l6-v2-q", embedders.get(BundledModel.MINILM_L6_V2_Q).modelId());
    assertEquals(
        "bge-small-en-v1.5-q+bge-query-instruction",
        embedders.get(BundledModel.BGE_SMALL_EN_V15_Q).modelId());
    assertEquals(
        "e5-small-v2-q+e5-query-passage", embedders.get(BundledModel.E5_SMALL_V2_Q).modelId());
    for (BundledModel model : bundled()) {
      assertEquals(model.modelId(), embedders.get(model).modelId());
      assertEquals(model.modelId(), embedders.get(model).space().modelId());
    }
  }

  /**
   * The declared calibration is what the model gives over the gate's background sample, the way
   * {@link SimilarityCalibration} says it is measured: each sentence's query side against every
   * other sentence's document side. Guards against a model or prefix change that leaves the
   * declaration stale. The batch tolerance of the int8 models is well inside the margin.
   */
  @ParameterizedTest
  @EnumSource(
      value = BundledModel.class,
      names = {"MINILM_L6_V2_Q", "BGE_SMALL_EN_V15_Q", "E5_SMALL_V2_Q"})
  void bundled_declaresTheCalibrationMeasuredOverTheBackgroundSample(BundledModel model) {
    DjlEmbedder embedder = embedders.get(model);
    List<String> sample = RecallEngine.backgroundSample();
    List<Embedding> documents = embedder.embedDocuments(sample);
    double sum = 0;
    double squares = 0;
    int n = 0;
    for (int i = 0; i < sample.size(); i++) {
      Embedding query = embedder.embedQuery(sample.get(i));
      for (int j = 0; j < sample.size(); j++) {
        if (j != i) {
          double cosine = query.cosine(documents.get(j));
          sum += cosine;
          squares += cosine * cosine;
          n++;
        }
      }
    }
    double mean = sum / n;
    double deviation = Math.sqrt(squares / n - mean * mean);
    SimilarityCalibration declared = model.similarityCalibration();
    assertEquals(mean, declared.unrelatedMean(), 0.003, model.name());
    assertEquals(deviation, declared.unrelatedDeviation(), 0.003, model.name());
    assertEquals(Optional.of(declared), embedder.similarityCalibration());
  }

  @Test
  void bundled_usesEachModelsPoolingAndPrefixes() {
    assertEquals(Pooling.MEAN, BundledModel.MINILM_L6_V2_Q.pooling());
    assertEquals(TextPrefixes.NONE, BundledModel.MINILM_L6_V2_Q.prefixes());
    assertEquals(Pooling.CLS, BundledModel.BGE_SMALL_EN_V15_Q.pooling());
    assertEquals(
        "Represent this sentence for searching relevant passages: ",
        BundledModel.BGE_SMALL_EN_V15_Q.prefixes().query());
    assertEquals("", BundledModel.BGE_SMALL_EN_V15_Q.prefixes().document());
    assertEquals(Pooling.MEAN, BundledModel.E5_SMALL_V2_Q.pooling());
    assertEquals("query: ", BundledModel.E5_SMALL_V2_Q.prefixes().query());
    assertEquals("passage: ", BundledModel.E5_SMALL_V2_Q.prefixes().document());
  }

  @ParameterizedTest
  @EnumSource(names = {"MINILM_L6_V2_Q", "BGE_SMALL_EN_V15_Q", "E5_SMALL_V2_Q"})
  void bundled_embedsBothSidesIn384UnitLengthDimensions(BundledModel model) {
    DjlEmbedder embedder = embedders.get(model);
    assertEquals(384, embedder.dimension());
    for (Embedding e :
        List.of(
            embedder.embed("the deployment runs on Kubernetes"),
            embedder.embedQuery("where does the deployment run?"),
            embedder.embedQuery(""),
            embedder.embedDocuments(List.of("")).get(0))) {
      assertEquals(384, e.dimension());
      assertEquals(1.0, e.norm(), UNIT, model + ": " + e.norm());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"BGE_SMALL_EN_V15_Q", "E5_SMALL_V2_Q"})
  void asymmetricModel_embedsAQueryUnlikeTheSameTextAsADocument(BundledModel model) {
    DjlEmbedder embedder = embedders.get(model);
    String text = "which database does the billing service use";
    Embedding query = embedder.embedQuery(text);
    Embedding document = embedder.embed(text);
    assertNotEquals(document, query);
    assertTrue(query.cosine(document) < 0.999, model + ": " + query.cosine(document));
    assertEquals(document, embedder.embedDocuments(List.of(text)).get(0));
  }

  @Test
  void symmetricModel_embedsAQueryLikeTheSameTextAsADocument() {
    DjlEmbedder embedder = embedders.get(BundledModel.MINILM_L6_V2_Q);
    String text = "which database does the billing service use";
    assertEquals(embedder.embed(text), embedder.embedQuery(text));
  }

  @ParameterizedTest
  @EnumSource(names = {"MINILM_L6_V2_Q", "BGE_SMALL_EN_V15_Q", "E5_SMALL_V2_Q"})
  void bundled_ranksTheAnsweringPassageAboveAnUnrelatedOne(BundledModel model) {
    DjlEmbedder embedder = embedders.get(model);
    Embedding query = embedder.embedQuery("how do I reset my password?");
    List<Embedding> passages =
        embedder.embedDocuments(
            List.of(
                "To change your password, open Settings, choose Security and click Reset.",
                "The train to Berlin leaves from platform 4 at noon."));
    double answer = query.cosine(passages.get(0));
    double unrelated = query.cosine(passages.get(1));
    assertTrue(answer > unrelated, model + ": " + answer + " vs " + unrelated);

    Embedding anchor = embedder.embed("the cat sits on the mat");
    double paraphrase = anchor.cosine(embedder.embed("a cat is sitting on a rug"));
    double other = anchor.cosine(embedder.embed("quarterly revenue grew 5%"));
    assertTrue(paraphrase > other, model + ": " + paraphrase + " vs " + other);
  }

  @ParameterizedTest
  @EnumSource(names = {"BGE_SMALL_EN_V15_Q", "E5_SMALL_V2_Q"})
  void asymmetricModel_embedsLongQueriesInPrefixedWindows(BundledModel model) {
    DjlEmbedder embedder = embedders.get(model);
    String longText = "the billing service stores invoices in postgres. ".repeat(80);
    Embedding query = embedder.embedQuery(longText);
    assertEquals(1.0, query.norm(), UNIT);
    assertTrue(query.cosine(embedder.embed(longText)) < 0.999, model.toString());
  }

  @Test
  void index_builtWithOneModelOrConvention_refusesAnother(@TempDir Path dir) {
    DjlEmbedder bge = embedders.get(BundledModel.BGE_SMALL_EN_V15_Q);
    Memory kept;
    try (MemoryService memory = Memhook.builder().directory(dir).embedder(unowned(bge)).build()) {
      kept = memory.remember(MemoryDraft.of(Scope.DEFAULT, "the billing service uses postgres"));
    }
    // another model of the same dimension
    Embedder e5 = unowned(embedders.get(BundledModel.E5_SMALL_V2_Q));
    assertThrows(
        IncompatibleStoreException.class,
        () -> Memhook.builder().directory(dir).embedder(e5).build());
    // the same model without its query instruction: another convention
    Embedder bgeWithoutPrefixes = new Renamed(bge, DjlEmbedder.BGE_SMALL_EN_V15_Q_ID);
    IncompatibleStoreException e =
        assertThrows(
            IncompatibleStoreException.class,
            () -> Memhook.builder().directory(dir).embedder(bgeWithoutPrefixes).build());
    assertTrue(
        e.getMessage().contains("bge-small-en-v1.5-q+bge-query-instruction"), e.getMessage());
    // the same model and convention opens it
    try (MemoryService memory = Memhook.builder().directory(dir).embedder(unowned(bge)).build()) {
      assertEquals(kept, memory.get(kept.id()).orElseThrow());
    }
  }

  @Test
  void minilmAndE5AsOne_weighEachByItsSpread_andRankTheAnswerFirst() {
    DjlEmbedder minilm = embedders.get(BundledModel.MINILM_L6_V2_Q);
    DjlEmbedder e5 = embedders.get(BundledModel.E5_SMALL_V2_Q);
    try (JointEmbedder pair = JointEmbedder.of(unowned(minilm), unowned(e5))) {
      double m = 1 / BundledModel.MINILM_L6_V2_Q.similarityCalibration().unrelatedDeviation();
      double e = 1 / BundledModel.E5_SMALL_V2_Q.similarityCalibration().unrelatedDeviation();
      assertEquals(m / (m + e), pair.firstWeight(), 1e-12);
      // the id memory-djl-embeddings/README.md shows
      assertEquals(
          "joint(all-minilm-l6-v2-q,e5-small-v2-q+e5-query-passage;0.282)", pair.modelId());
      assertEquals(768, pair.dimension());

      String question = "how do I reset my password?";
      String answer = "To change your password, open Settings, choose Security and click Reset.";
      String unrelated = "The train to Berlin leaves from platform 4 at noon.";
      Embedding q = pair.embedQuery(question);
      List<Embedding> d = pair.embedDocuments(List.of(answer, unrelated));
      double w = pair.firstWeight();
      double expected =
          w * minilm.embedQuery(question).cosine(minilm.embed(answer))
              + (1 - w) * e5.embedQuery(question).cosine(e5.embed(answer));
      assertEquals(expected, q.dot(d.get(0)), UNIT);
      assertTrue(q.dot(d.get(0)) > q.dot(d.get(1)), q.dot(d.get(0)) + " vs " + q.dot(d.get(1)));
    }
  }

  private static Embedder unowned(Embedder embedder) {
    return new Renamed(embedder, embedder.modelId());
  }

  /** {@code delegate} under another model id, with a no-op close: the class owns the models. */
  private record Renamed(Embedder delegate, String modelId) implements Embedder {
    @Override
    public Embedding embed(String text) {
      return delegate.embed(text);
    }

    @Override
    public List<Embedding> embedAll(List<String> texts) {
      return delegate.embedAll(texts);
    }

    @Override
    public Embedding embedQuery(String text) {
      return delegate.embedQuery(text);
    }

    @Override
    public List<Embedding> embedDocuments(List<String> texts) {
      return delegate.embedDocuments(texts);
    }

    @Override
    public int dimension() {
      return delegate.dimension();
    }

    @Override
    public Optional<SimilarityCalibration> similarityCalibration() {
      return delegate.similarityCalibration();
    }

    @Override
    public void close() {}
  }
}
