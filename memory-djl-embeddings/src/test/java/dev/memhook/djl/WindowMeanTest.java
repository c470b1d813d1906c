package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class WindowMeanTest {
  static final float EPS = 1e-6f;

  @Test
  void of_scalesOneWindowToUnitLengthWhenNormalising() {
    float[] vector = WindowMean.of(List.of(new float[] {3, 4}), true);
    assertArrayEquals(new float[] {0.6f, 0.8f}, vector, EPS);
  }

  @Test
  void of_copiesOneWindowUnchangedWithoutNormalising() {
    float[] window = {3, 4};
    float[] vector = WindowMean.of(List.of(window), false);
    assertArrayEquals(new float[] {3, 4}, vector);
    assertNotSame(window, vector);
  }

  @Test
  void of_givesEveryWindowTheSameWeightWhenNormalising() {
    // A long window vector does not outweigh a short one: both become unit length first.
    float[] vector = WindowMean.of(List.of(new float[] {10, 0}, new float[] {0, 1}), true);
    float half = (float) Math.sqrt(0.5);
    assertArrayEquals(new float[] {half, half}, vector, EPS);
  }

  @Test
  void of_isThePlainMeanWithoutNormalising() {
    float[] vector = WindowMean.of(List.of(new float[] {10, 0}, new float[] {0, 1}), false);
    assertArrayEquals(new float[] {5, 0.5f}, vector, EPS);
  }

  @Test
  void of_leavesItsInputsUnchanged() {
    float[] first = {10, 0};
    float[] second = {0, 1};
    WindowMean.of(List.of(first, second), true);
    assertArrayEquals(new float[] {10, 0}, first);
    assertArrayEquals(new float[] {0, 1}, second);
  }

  @Test
  void of_rejectsATextWithoutWindows() {
    assertThrows(IllegalArgumentException.class, () -> WindowMean.of(List.of(), true));
  }

  @Test
  void unitLength_returnsTheZeroVectorItselfInsteadOfDividingByZero() {
    float[] zero = {0, 0, 0};
    assertSame(zero, WindowMean.unitLength(zero));
    assertArrayEquals(new float[] {0, 0, 0}, WindowMean.of(List.of(zero, zero), true));
  }
}
