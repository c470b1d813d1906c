package dev.memhook.benchmarks.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.benchmarks.eval.EvalData.EvalMemory;
import dev.memhook.benchmarks.eval.EvalData.EvalQuery;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The coding-agent dev set in {@code benchmarks/eval/coding-dev.jsonl} and its distractors. */
class CodingDevSetTest {

  /** Relative to the module directory, where surefire runs. */
  static final Path FILE = Path.of("eval", "coding-dev.jsonl");

  private static EvalData load() throws Exception {
    assertTrue(Files.isRegularFile(FILE), "missing " + FILE.toAbsolutePath());
    return EvalData.load(FILE);
  }

  @Test
  void file_parsesAndMeetsTheMinimums() throws Exception {
    EvalData data = load();
    Set<String> memoryIds = new HashSet<>();
    for (EvalMemory m : data.memories()) {
      assertTrue(memoryIds.add(m.id()), "duplicate memory id " + m.id());
      assertTrue(ConversationTime.parse(m.time()).isPresent(), "time of " + m.id());
    }
    assertTrue(data.memories().size() >= 60, "memories: " + data.memories().size());
    assertTrue(data.conversations().size() >= 2, "projects: " + data.conversations());
    Map<String, String> convOf =
        data.memories().stream().collect(Collectors.toMap(EvalMemory::id, EvalMemory::conv));

    Set<String> queryIds = new HashSet<>();
    Map<Integer, Integer> perCategory = new TreeMap<>();
    int onTopic = 0;
    int offTopic = 0;
    for (EvalQuery q : data.queries()) {
      assertTrue(queryIds.add(q.id()), "duplicate query id " + q.id());
      assertFalse(q.categoryName().equals(Integer.toString(q.category())), q.id());
      perCategory.merge(q.category(), 1, Integer::sum);
      if (q.relevant().isEmpty()) {
        assertEquals(9, q.category(), q.id() + " has no relevant memory but is not off_topic");
        assertEquals("off_topic", q.categoryName());
        offTopic++;
      } else {
        assertTrue(q.category() >= 1 && q.category() <= 8, q.id());
        for (String r : q.relevant()) {
          assertEquals(q.conv(), convOf.get(r), q.id() + ": relevant " + r);
        }
        onTopic++;
      }
    }
    assertTrue(onTopic >= 100, "questions with evidence: " + onTopic);
    assertTrue(offTopic >= 20, "off-topic questions: " + offTopic);
    for (int c = 1; c <= 8; c++) {
      assertTrue(perCategory.getOrDefault(c, 0) >= 8, "category " + c + ": " + perCategory);
    }
    System.out.println("coding-dev.jsonl: " + data.memories().size() + " memories, " + perCategory);
  }

  @Test
  void load_addsTheDistractorsOfItsSeed_orNoneForZero() throws Exception {
    EvalData data = load();
    assertEquals(data, CodingDistractors.load(FILE, 0, 7));
    assertEquals(CodingDistractors.addTo(data, 30, 7), CodingDistractors.load(FILE, 30, 7));
    assertEquals(
        data.memories().size() + 2 * 30, CodingDistractors.load(FILE, 30, 7).memories().size());
  }

  @Test
  void distractors_areDeterministicPerSeed_andFreeOfTheRareTokens() throws Exception {
    EvalData data = load();
    List<String> relevantTexts = new ArrayList<>();
    Set<String> relevant = new HashSet<>();
    data.queries().forEach(q -> relevant.addAll(q.relevant()));
    data.memories().stream()
        .filter(m -> relevant.contains(m.id()))
        .forEach(m -> relevantTexts.add(m.text()));
    Set<String> rare = CodingDistractors.rareTokens(relevantTexts);
    for (String expected :
        List.of("3f9c2ab", "PAY-4012", "ERR_CONN_RESET", "E0502", "retry_backoff_ms", "0a7f3c9")) {
      assertTrue(rare.contains(expected), expected + " not in " + rare);
    }

    EvalData a = CodingDistractors.addTo(data, 3000, CodingDistractors.DEFAULT_SEED);
    EvalData b = CodingDistractors.addTo(data, 3000, CodingDistractors.DEFAULT_SEED);
    EvalData c = CodingDistractors.addTo(data, 3000, 7);
    assertEquals(a.memories(), b.memories());
    assertNotEquals(a.memories(), c.memories());
    assertEquals(data.memories().size() + 3000 * data.conversations().size(), a.memories().size());
    assertEquals(data.queries(), a.queries());
    assertEquals("distractor-shop-backend-0", a.memories().get(data.memories().size()).id());

    List<String> lowerRare = rare.stream().map(t -> t.toLowerCase(Locale.ROOT)).toList();
    for (EvalData generated : List.of(a, c)) {
      for (EvalMemory m :
          generated.memories().subList(data.memories().size(), a.memories().size())) {
        String text = m.text().toLowerCase(Locale.ROOT);
        for (String token : lowerRare) {
          assertFalse(text.contains(token), m.id() + " contains " + token + ": " + m.text());
        }
        assertTrue(ConversationTime.parse(m.time()).isPresent(), m.time());
      }
    }
    // and the vocabulary alone, with no filter, does not produce them either
    for (EvalMemory m : CodingDistractors.generate("x", 3000, 1, Set.of())) {
      String text = m.text().toLowerCase(Locale.ROOT);
      for (String token : lowerRare) {
        if (token.length() >= 6) {
          assertFalse(text.contains(token), m.id() + " contains " + token + ": " + m.text());
        }
      }
    }
  }

  @Test
  void harness_runsEndToEndOnTheSetWithDistractors() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    long started = System.nanoTime();
    RetrievalEval.Report report;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      report =
          RetrievalEval.run(
              RetrievalEval.Options.parse(
                  "--data", FILE.toString(), "--embedder", "hashing", "--distractors", "200"),
              out);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    String printed = bytes.toString(StandardCharsets.UTF_8);
    System.out.println(printed);
    System.out.printf(Locale.ROOT, "harness run took %.1f s%n", seconds);

    assertTrue(printed.contains("distractors: 200 per conversation"), printed);
    assertTrue(printed.contains("seed 42"), printed);
    assertTrue(printed.contains("| fused / 8 paraphrase |"), printed);
    assertFalse(printed.contains("9 off_topic |"), "off-topic questions are not ranked");
    assertTrue(printed.contains("off-topic questions:"), printed);
    assertFalse(printed.contains("unparseable time"), printed);
    EvalData data = load();
    int onTopic = EvalRecalls.onTopic(data).size();
    assertEquals(onTopic, report.overall().get("fused").queries());
    assertFalse(Double.isNaN(report.gatePrecision()));
    assertTrue(report.overall().get("text").recall10() > 0.3, printed);
  }
}
