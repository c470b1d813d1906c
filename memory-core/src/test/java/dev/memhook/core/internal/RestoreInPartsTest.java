package dev.memhook.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How a restore's sanitizing pass is shared out: every memory once, in parts, failures as thrown.
 */
class RestoreInPartsTest {

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 255, 256, 257, 511, 512, 2_000})
  void everyIndex_isVisitedExactlyOnce(int size) {
    AtomicIntegerArray visits = new AtomicIntegerArray(size);
    Restore.inParts(size, visits::incrementAndGet);
    for (int i = 0; i < size; i++) {
      assertEquals(1, visits.get(i), "index " + i + " of " + size);
    }
  }

  @Test
  void aLargeList_isSanitizedOnTwoThreadsAtOnce() {
    assumeTrue(Runtime.getRuntime().availableProcessors() > 1, "one processor: one thread");
    // the first index of the first two parts wait for each other: one thread alone would time out
    CyclicBarrier both = new CyclicBarrier(2);
    Restore.inParts(
        4 * Restore.INTAKE_PART,
        i -> {
          if (i == 0 || i == Restore.INTAKE_PART) {
            try {
              both.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
              throw new AssertionError("the parts did not run side by side", e);
            }
          }
        });
  }

  @Test
  void aStepsFailure_isThrownAsItWas() {
    IllegalStateException boom = new IllegalStateException("boom");
    IllegalStateException thrown =
        assertThrows(
            IllegalStateException.class,
            () ->
                Restore.inParts(
                    8 * Restore.INTAKE_PART,
                    i -> {
                      if (i == 7 * Restore.INTAKE_PART + 3) {
                        throw boom;
                      }
                    }));
    assertSame(boom, thrown);
  }
}
