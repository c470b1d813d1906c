package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.api.FusionMethod;
import dev.memhook.api.RecallOptions;
import org.junit.jupiter.api.Test;

/** The vector weight each kind of query fuses with, and what the result says about it. */
class AdaptiveWeightsTest {

  private static final RecallOptions DEFAULTS = RecallOptions.defaults();

  @Test
  void anExactQuery_keepsAFifthOfTheVectorWeight_whateverTextFound() {
    for (double share : new double[] {0, 0.1, 0.9}) {
      AdaptiveWeights.Choice c = AdaptiveWeights.choose(DEFAULTS, "what broke in SHIP-E009", share);
      assertEquals(DEFAULTS.vectorWeight() * 0.2, c.vectorWeight(), 1e-12);
      assertEquals(
          "standardised scores; query shape exact (identifier, path, SHA, error code or flag):"
              + " weights text 1.00, vector 0.10, graph 0.50",
          c.description());
    }
  }

  @Test
  void aNaturalQuery_whereTextFoundLittle_weighsVectorsAsMuchAsText() {
    AdaptiveWeights.Choice c =
        AdaptiveWeights.choose(DEFAULTS, "why could the app not start?", 0.08);
    assertEquals(DEFAULTS.textWeight(), c.vectorWeight(), 1e-12);
    assertEquals(
        "standardised scores; natural language, text found little (best share 0.08 < 0.15):"
            + " weights text 1.00, vector 1.00, graph 0.50",
        c.description());
    assertEquals(
        DEFAULTS.textWeight(),
        AdaptiveWeights.choose(DEFAULTS, "no text hit at all", 0).vectorWeight(),
        1e-12);
  }

  @Test
  void aNaturalQuery_whereTextFoundEnough_keepsTheConfiguredWeights() {
    RecallOptions ranks =
        RecallOptions.builder().fusion(FusionMethod.RECIPROCAL_RANKS).weights(2, 0.7, 0).build();
    AdaptiveWeights.Choice c = AdaptiveWeights.choose(ranks, "why could the app not start?", 0.15);
    assertEquals(0.7, c.vectorWeight(), 1e-12);
    assertEquals(
        "reciprocal ranks (k 20); natural language: weights text 2.00, vector 0.70, graph 0.00",
        c.description());
  }

  @Test
  void aVectorWeightOfZero_staysZero() {
    RecallOptions textOnly = RecallOptions.builder().weights(1, 0, 0).build();
    assertEquals(0, AdaptiveWeights.choose(textOnly, "anything at all", 0).vectorWeight());
    assertEquals(0, AdaptiveWeights.choose(textOnly, "user_id", 0).vectorWeight());
  }

  @Test
  void aTextWeightBelowTheVectorWeight_isNotRaisedToIt() {
    RecallOptions vectorHeavy = RecallOptions.builder().weights(0.5, 2, 0).build();
    assertEquals(2, AdaptiveWeights.choose(vectorHeavy, "a question", 0).vectorWeight(), 1e-12);
  }
}
