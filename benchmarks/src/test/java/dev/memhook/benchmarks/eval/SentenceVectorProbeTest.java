package dev.memhook.benchmarks.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The probe's pure parts: how a memory is split, how the vector list is ranked again, the rrf. */
class SentenceVectorProbeTest {

  @Test
  void sentences_splitsAtSentenceEndsAndLineBreaks_andDropsShortOnes() {
    assertEquals(
        List.of(
            "I'm planning a trip to see my grandparents.",
            "By the way, my brother Alex got a new job in the city!",
            "Can you check the traffic forecast"),
        SentenceVectorProbe.sentences(
            "I'm planning a trip to see my grandparents. Thanks! By the way, my brother Alex got a"
                + " new job in the city!\nCan you check the traffic forecast"));
  }

  @Test
  void sentences_isEmptyForOneSentence_forThenTheMemorysVectorSaysItAll() {
    assertEquals(List.of(), SentenceVectorProbe.sentences("One sentence only, said at length."));
    assertEquals(List.of(), SentenceVectorProbe.sentences("A real sentence here. Ok. Yes."));
    assertEquals(List.of(), SentenceVectorProbe.sentences(""));
  }

  @Test
  void rescored_takesTheBetterOfTheTwoCosines_andBringsInPoolMemoriesOnlyBySentence() {
    List<Map.Entry<String, Double>> vector =
        List.of(Map.entry("a", 0.60), Map.entry("b", 0.50), Map.entry("c", 0.40));
    Map<String, Double> bySentence = Map.of("b", 0.45, "c", 0.70, "t", 0.55, "x", 0.99);

    assertEquals(
        List.of("c", "a", "t"),
        SentenceVectorProbe.rescored(vector, List.of("t", "a", "b", "c"), bySentence),
        "b keeps its own 0.50 and falls off the depth of three; x is outside the pool");
  }

  @Test
  void reciprocalRank_sumsOneOverSixtyPlusRank() {
    assertEquals(
        List.of("b", "a", "d", "c"),
        SentenceVectorProbe.reciprocalRank(List.of(List.of("a", "b", "c"), List.of("b", "d"))));
  }
}
