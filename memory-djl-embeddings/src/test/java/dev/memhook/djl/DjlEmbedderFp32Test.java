package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.spi.Embedding;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The fp32 MiniLM (a test-scope dependency), loaded once for the class. */
class DjlEmbedderFp32Test {
  /** The fp32 contract: batch and single results agree to float rounding. */
  static final double FP32_MAX_ABS_DIFF = 1e-5;

  static DjlEmbedder embedder;

  @BeforeAll
  static void load() {
    embedder = DjlEmbedder.bundledMiniLmFp32();
  }

  @AfterAll
  static void close() {
    embedder.close();
  }

  @Test
  void fp32_hasItsOwnModelIdAndDimension() {
    assertEquals("all-minilm-l6-v2", embedder.modelId());
    assertEquals(384, embedder.dimension());
  }

  @Test
  void fp32_embedAllMatchesSingleEmbedsToFloatRounding() {
    List<String> texts = DjlEmbedderTest.randomTexts(11, 40);
    List<Embedding> batch = embedder.embedAll(texts);
    double worst = 0;
    for (int i = 0; i < texts.size(); i++) {
      float[] a = batch.get(i).toArray();
      float[] b = embedder.embed(texts.get(i)).toArray();
      for (int k = 0; k < a.length; k++) {
        worst = Math.max(worst, Math.abs(a[k] - b[k]));
      }
    }
    assertTrue(worst <= FP32_MAX_ABS_DIFF, "worst component difference " + worst);
    // batch-invariant at load: it keeps the default batch size
    assertTrue(
        embedder.toString().contains("batchSize=" + DjlEmbedder.DEFAULT_BATCH_SIZE),
        embedder.toString());
  }

  @Test
  void fp32_ranksParaphraseAboveUnrelatedText() {
    Embedding anchor = embedder.embed("the cat sits on the mat");
    assertTrue(
        anchor.cosine(embedder.embed("a cat is sitting on a rug"))
            > anchor.cosine(embedder.embed("quarterly revenue grew 5%")));
  }

  @Test
  void fp32_andInt8AgreeClosely() {
    try (DjlEmbedder int8 = DjlEmbedder.bundledMiniLm()) {
      double cos =
          embedder.embed("the cat sits on the mat").cosine(int8.embed("the cat sits on the mat"));
      assertTrue(cos > 0.95, "fp32 vs int8 cosine " + cos);
    }
  }
}
