package dev.memhook.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.RecallOptions;
import dev.memhook.api.spi.Embedding;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the paired harness shares out its questions, and what it refuses. */
class PairedJarsTest {

  @Test
  void theSidesAlternateABBA_eachQuestionAskedOnce_halfOnEachSide() {
    List<Integer> onA = new ArrayList<>();
    List<Integer> onB = new ArrayList<>();
    long[][] took = PairedJars.alternate(onA::add, onB::add, 6);

    assertEquals(List.of(0, 3, 4, 7, 8, 11, 12, 15, 16, 19, 20, 23), onA);
    assertEquals(List.of(1, 2, 5, 6, 9, 10, 13, 14, 17, 18, 21, 22), onB);
    assertEquals(6, took[0].length, "only the second half is measured");
    assertEquals(6, took[1].length);
    for (long[] side : took) {
      for (int i = 1; i < side.length; i++) {
        assertTrue(side[i - 1] <= side[i], "sorted");
      }
    }
  }

  @Test
  void aModelsTime_turnsTheQueryEmbeddingCacheOff_soThatEveryRecallPaysIt() {
    for (String mode : List.of("text", "vector", "fused")) {
      RecallOptions plain = PairedSide.options(mode, 0);
      RecallOptions timed = PairedSide.options(mode, 3_500);
      assertEquals(RecallOptions.DEFAULT_QUERY_CACHE_SIZE, plain.queryCacheSize(), mode);
      assertEquals(0, timed.queryCacheSize(), mode);
      // nothing else changes (RecallOptions has no equals; its description names every other
      // setting)
      String asTheBenchmark = RecallLatencyBenchmark.options(mode).toString();
      assertEquals(asTheBenchmark, plain.toString(), mode);
      assertEquals(asTheBenchmark, timed.toString(), mode);
    }
  }

  @Test
  void theSpinningEmbedder_paysOncePerTextInARow_asAQuestionEmbeddedTwiceInOneRecallWould() {
    PrecomputedEmbedder.Builder b = PrecomputedEmbedder.builder("paired-test", 2);
    b.put("first question", new float[] {1, 0});
    b.put("second question", new float[] {0, 1});
    PairedSide.Spinning spinning = new PairedSide.Spinning(b.build(), 1);

    assertEquals(Embedding.of(new float[] {1, 0}), spinning.embed("first question"));
    spinning.embed("first question");
    assertEquals(1, spinning.spins(), "the same text again, as in one recall: paid once");
    spinning.embed("second question");
    spinning.embed("first question");
    assertEquals(3, spinning.spins(), "another text in between: each pays again");
  }

  @Test
  void aMissingJarOrArgument_isAClearError() {
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    IllegalArgumentException usage =
        assertThrows(IllegalArgumentException.class, () -> PairedJars.run(new String[0], out));
    assertTrue(usage.getMessage().startsWith("usage: PairedJars"), usage.getMessage());
    IllegalArgumentException jar =
        assertThrows(
            IllegalArgumentException.class,
            () -> PairedJars.run(new String[] {"no-such-a.jar", "b.jar", "x", "y"}, out));
    assertEquals("no such jar: no-such-a.jar", jar.getMessage());
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> PairedJars.run(new String[] {"a.jar", "b.jar", "x", "y", "--fast"}, out));
    assertEquals("unknown argument: --fast", unknown.getMessage());
    IllegalArgumentException count =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PairedJars.run(
                    new String[] {"a.jar", "b.jar", "x", "y", "--questions", "3k"}, out));
    assertEquals("--questions needs a whole number, not '3k'", count.getMessage());
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> PairedJars.run(new String[] {"a.jar", "b.jar", "x", "y", "--mode"}, out));
    assertEquals("--mode needs a value", missing.getMessage());
  }
}
