package dev.memhook.benchmarks.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.benchmarks.eval.CommonDirectionProbe.Variant;
import dev.memhook.core.HashingEmbedder;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probe's variants on a conversation made so that its common direction matters. */
class CommonDirectionProbeTest {

  /**
   * Twelve memories repeat the conversation's common words, which the question shares; the answer
   * shares only the question's rarer word. As stored, the repeats outrank it; with the
   * conversation's mean taken out, it comes first. A second conversation gives the off-topic side.
   */
  private static String data() {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      lines.add(
          memory("c", "filler" + i, "we talked about the weekend plans again, weekend plans " + i));
    }
    lines.add(memory("c", "answer", "new hiking boots for the trail"));
    lines.add(
        "{\"type\":\"query\",\"conv\":\"c\",\"id\":\"q\",\"text\":\"weekend plans hiking\","
            + "\"relevant\":[\"answer\"],\"category\":1,\"category_name\":\"single-hop\"}");
    for (int i = 0; i < 5; i++) {
      lines.add(memory("d", "other" + i, "the invoice total was wrong on page " + i));
    }
    lines.add(
        "{\"type\":\"query\",\"conv\":\"d\",\"id\":\"q2\",\"text\":\"invoice total\","
            + "\"relevant\":[\"other0\"],\"category\":2,\"category_name\":\"multi-hop\"}");
    return String.join("\n", lines) + "\n";
  }

  private static String memory(String conv, String id, String text) {
    return "{\"type\":\"memory\",\"conv\":\"%s\",\"id\":\"%s\",\"session\":\"s1\",\"speaker\":\"Ann\",\"text\":\"%s\"}"
        .formatted(conv, id, text);
  }

  @Test
  void measure_findsAnAnswerTheCommonDirectionHid_andCountsEachCategory() throws Exception {
    EvalData data = EvalData.parse(new StringReader(data()));
    try (HashingEmbedder embedder = HashingEmbedder.create()) {
      CommonDirectionProbe.Result r = CommonDirectionProbe.measure(data, embedder, 1);

      Map<Variant, Double> hop = r.recall().get("single-hop");
      assertEquals(0.0, hop.get(Variant.AS_STORED), "a repeat of the common words ranks first");
      assertEquals(1.0, hop.get(Variant.LESS_WHOLE), "without the common direction, the answer");
      assertEquals(1.0, hop.get(Variant.CENTRED));
      assertEquals(List.of("all", "multi-hop", "single-hop"), List.copyOf(r.recall().keySet()));
      assertEquals(2, r.questions().get("all"));
      assertEquals(1, r.questions().get("single-hop"));
      assertEquals(Set.of(Variant.values()), r.separation().keySet());
      assertEquals(Set.of("c", "d"), r.meanLength().keySet());
      assertTrue(r.meanLength().get("c") > 0.5, "the repeats share one direction: " + r);
    }
  }

  @Test
  void found_countsTheEvidenceInTheFirstAt_andAucCountsTiesHalf() {
    List<EvalData.EvalMemory> memories = new ArrayList<>();
    for (String id : List.of("a", "b", "c")) {
      memories.add(new EvalData.EvalMemory("c", id, "s", null, null, id, null));
    }
    double[] scores = {0.1, 0.9, 0.5};
    assertEquals(1, CommonDirectionProbe.found(scores, memories, Set.of("b", "a"), 2));
    assertEquals(2, CommonDirectionProbe.found(scores, memories, Set.of("b", "a"), 3));

    assertEquals(
        1.0, CommonDirectionProbe.auc(List.of(new double[] {0.9, 0.1}, new double[] {0.8, 0.2})));
    // on 0.5 ties off 0.5 (half) and beats 0.1; on 0.05 beats neither: (1.5 + 0) / 4
    assertEquals(
        0.375,
        CommonDirectionProbe.auc(List.of(new double[] {0.5, 0.5}, new double[] {0.05, 0.1})));
  }

  @Test
  void options_nameWhatIsMissingOrUnreadable(@TempDir Path dir) throws Exception {
    Path data = Files.writeString(dir.resolve("data.jsonl"), data());
    assertEquals(
        new CommonDirectionProbe.Options(data, 10, "djl-int8", 0, 42),
        CommonDirectionProbe.Options.parse("--data", data.toString()));
    assertEquals(
        new CommonDirectionProbe.Options(data, 5, "hashing", 3000, 7),
        CommonDirectionProbe.Options.parse(
            "--data",
            data.toString(),
            "--at",
            "5",
            "--embedder",
            "hashing",
            "--distractors",
            "3000",
            "--distractor-seed",
            "7"));
    assertThrows(IllegalArgumentException.class, () -> CommonDirectionProbe.Options.parse());
    assertThrows(
        IllegalArgumentException.class,
        () -> CommonDirectionProbe.Options.parse("--data", dir.resolve("none").toString()));
    assertThrows(
        IllegalArgumentException.class,
        () -> CommonDirectionProbe.Options.parse("--data", data.toString(), "--at", "0"));
    assertThrows(
        IllegalArgumentException.class,
        () -> CommonDirectionProbe.Options.parse("--data", data.toString(), "--dump", "x"));
  }
}
