package dev.memhook.api.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SimilarityCalibrationTest {

  @Test
  void aCalibrationOutOfRange_isRejected_namingTheValue() {
    IllegalArgumentException mean =
        assertThrows(IllegalArgumentException.class, () -> new SimilarityCalibration(1.5, 0.1));
    assertTrue(mean.getMessage().contains("unrelatedMean"), mean.getMessage());
    IllegalArgumentException deviation =
        assertThrows(IllegalArgumentException.class, () -> new SimilarityCalibration(0.2, 0));
    assertTrue(deviation.getMessage().contains("unrelatedDeviation"), deviation.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new SimilarityCalibration(Double.NaN, 0.1));
    assertThrows(IllegalArgumentException.class, () -> new SimilarityCalibration(0.2, Double.NaN));
  }

  @Test
  void aCalibrationAtTheEdgesOfItsRange_isAccepted() {
    assertEquals(-1, new SimilarityCalibration(-1, 1).unrelatedMean());
    assertEquals(1e-6, new SimilarityCalibration(1, 1e-6).unrelatedDeviation());
  }

  @Test
  void anEmbedder_declaresNoCalibrationByDefault() {
    Embedder embedder =
        new Embedder() {
          @Override
          public Embedding embed(String text) {
            return Embedding.of(1, 0);
          }

          @Override
          public int dimension() {
            return 2;
          }

          @Override
          public String modelId() {
            return "plain";
          }
        };
    assertEquals(Optional.empty(), embedder.similarityCalibration());
  }
}
