package dev.memhook.benchmarks.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.core.HashingEmbedder;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe's parts (how a memory is split, how the vector list is ranked again, the rrf) and one
 * replay of a dump written here, with the hashing embedder.
 */
class SentenceVectorProbeTest {

  private static final String QUESTION = "What new job did my brother Alex get?";
  private static final String ANSWER = "By the way, my brother Alex got a new job downtown.";

  private static final String DATA =
      """
      {"type":"memory","conv":"c","id":"told","session":"s1","speaker":"user","text":"I need the traffic forecast for the drive to my grandparents this weekend. %s"}
      {"type":"memory","conv":"c","id":"reply","session":"s1","speaker":"assistant","text":"Here is the forecast for the weekend drive. Congratulations to your brother Alex on the new job."}
      {"type":"query","conv":"c","id":"q","text":"%s","relevant":["told"],"category":1,"category_name":"multi-session"}
      """
          .formatted(ANSWER, QUESTION);

  /**
   * The person's turn ranks eleventh by its whole vector in the dump, under ten candidates just
   * below its answering sentence's cosine: by sentence it comes first. The assistant's reply is not
   * split unless every speaker is asked for.
   */
  @Test
  void measure_liftsATurnWhoseOneSentenceAnswers_andSplitsOnlyWhatPeopleSaid(@TempDir Path dir)
      throws Exception {
    try (HashingEmbedder embedder = HashingEmbedder.create()) {
      double answer =
          embedder
              .embedQuery(QUESTION)
              .normalized()
              .dot(embedder.embed("user: " + ANSWER).normalized());
      List<String> text = new ArrayList<>();
      List<String> vector = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        text.add("[\"d" + i + "\"," + (10 - i) + "]");
        vector.add(String.format(Locale.ROOT, "[\"d%d\",%.6f]", i, answer - 0.01 * (i + 1)));
      }
      vector.add("[\"told\",0.05]");
      vector.add("[\"reply\",0.04]");
      String own =
          "{\"id\":\"q\",\"kind\":\"own\",\"q\":\"%s\",\"text\":%s,\"vector\":%s}"
              .formatted(QUESTION, text, vector);
      String other =
          "{\"id\":\"q\",\"kind\":\"other\",\"q\":\"%s\",\"text\":[],\"vector\":[[\"told\",0.05]]}"
              .formatted(QUESTION);
      Path dump = dir.resolve("dump.jsonl");
      Files.writeString(dump, own + "\n" + other + "\n");
      EvalData data = EvalData.parse(new StringReader(DATA));

      SentenceVectorProbe.Result people = SentenceVectorProbe.measure(data, dump, embedder, false);

      Map<String, Double> all = people.recall().get("all (1)");
      assertEquals(0.0, all.get("vector @10"), "eleventh by its whole vector");
      assertEquals(1.0, all.get("vector by sentence @5"), "first by its answering sentence");
      assertEquals(1.0, all.get("vector by sentence, own hits @5"));
      assertEquals(0.0, all.get("text @10"));
      assertEquals(2, people.sentences());
      assertEquals(1, people.split(), "the assistant's reply is not split");
      assertEquals(1, people.offTopic());
      assertEquals(0.05, people.offTopicBest(), 1e-9);
      assertEquals(answer, people.offTopicBestBySentence(), 1e-6);

      SentenceVectorProbe.Result everyone = SentenceVectorProbe.measure(data, dump, embedder, true);
      assertEquals(4, everyone.sentences());
      assertEquals(2, everyone.split());
      assertTrue(everyone.recall().containsKey("multi-session (1)"), everyone.recall().toString());
    }
  }

  @Test
  void options_nameWhatIsMissingUnknownOrUnreadable(@TempDir Path dir) throws Exception {
    Path data = Files.writeString(dir.resolve("data.jsonl"), DATA);
    Path dump = Files.writeString(dir.resolve("dump.jsonl"), "");
    String d = data.toString();

    assertEquals(
        new SentenceVectorProbe.Options(data, dump, "djl-int8", false, 0, 42),
        SentenceVectorProbe.Options.parse("--data", d, "--dump", dump.toString()));
    assertEquals(
        new SentenceVectorProbe.Options(data, dump, "hashing", true, 3000, 7),
        SentenceVectorProbe.Options.parse(
            "--data",
            d,
            "--dump",
            dump.toString(),
            "--embedder",
            "hashing",
            "--speakers",
            "all",
            "--distractors",
            "3000",
            "--distractor-seed",
            "7"));
    assertMessage("missing --dump", "--data", d);
    assertMessage("is not a readable file", "--data", d, "--dump", dir.resolve("no").toString());
    assertMessage("--speakers is people or all, got some", "--data", d, "--speakers", "some");
    assertMessage("expected --option value pairs", "--data", d, "--dumb", dump.toString());
    assertMessage("expected --option value pairs", "--data");
  }

  @Test
  void options_refuseAMalformedOrNegativeNumber_namingItsOption(@TempDir Path dir)
      throws Exception {
    String data = Files.writeString(dir.resolve("data.jsonl"), DATA).toString();
    String dump = Files.writeString(dir.resolve("dump.jsonl"), "").toString();
    for (String[] refused :
        new String[][] {
          {"--distractors", "3k", "--distractors needs a whole number, not '3k'"},
          {"--distractors", "-1", "--distractors must be 0 to 2147483647, not -1"},
          {"--distractor-seed", "x", "--distractor-seed needs a whole number, not 'x'"}
        }) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  SentenceVectorProbe.Options.parse(
                      "--data", data, "--dump", dump, refused[0], refused[1]));
      assertEquals(refused[2], e.getMessage());
    }
  }

  private static void assertMessage(String part, String... args) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SentenceVectorProbe.Options.parse(args));
    assertTrue(e.getMessage().contains(part), e.getMessage());
  }

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
