package dev.memhook.benchmarks.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the evaluation main on a tiny synthetic file written here (never the LoCoMo data). */
class RetrievalEvalSmokeTest {

  private static final String DATA =
      """
      {"type":"memory","conv":"alpha","id":"a1","session":"s1","speaker":"Ann","time":"9:00 am on 3 March, 2024","text":"I adopted a grey cat named Miso from the shelter."}
      {"type":"memory","conv":"alpha","id":"a2","session":"s1","speaker":"Ben","time":"9:00 am on 3 March, 2024","text":"Nice! I started learning the cello last week."}
      {"type":"memory","conv":"alpha","id":"a3","session":"s2","speaker":"Ann","time":"6:30 pm on 10 March, 2024","text":"Miso knocked my coffee over this morning.","image_caption":"a cat next to a spilled mug"}
      {"type":"memory","conv":"alpha","id":"a4","session":"s2","speaker":"Ben","time":"6:30 pm on 10 March, 2024","text":"My cello teacher says I should practise scales daily."}
      {"type":"memory","conv":"beta","id":"b1","session":"s1","speaker":"Cy","time":"noon-ish","text":"The kubernetes cluster upgrade is scheduled for Friday."}
      {"type":"memory","conv":"beta","id":"b2","session":"s1","speaker":"Di","time":"2:15 pm on 4 April, 2024","text":"Remember to drain the nodes before the upgrade."}
      {"type":"query","conv":"alpha","id":"qa1","text":"What is the name of Ann's cat?","relevant":["a1"],"category":4,"category_name":"single-hop"}
      {"type":"query","conv":"alpha","id":"qa2","text":"Which instrument is Ben learning?","relevant":["a2","a4"],"category":1,"category_name":"multi-hop"}
      {"type":"query","conv":"beta","id":"qb1","text":"When is the cluster upgrade?","relevant":["b1"],"category":2,"category_name":"temporal"}
      """;

  @Test
  void run_printsMetricsPerConfigAndCategory_andTheGate(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tiny.jsonl");
    Files.writeString(file, DATA);
    for (String store : new String[] {"lucene"}) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      RetrievalEval.Report report;
      try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
        report =
            RetrievalEval.run(
                RetrievalEval.Options.parse(
                    "--data",
                    file.toString(),
                    "--embedder",
                    "hashing",
                    "--store",
                    store,
                    "--max-per-session",
                    "5"),
                out);
      }
      String printed = bytes.toString(StandardCharsets.UTF_8);

      assertTrue(printed.contains("| fused / overall | 3 |"), printed);
      assertTrue(printed.contains("| session recall@5 | session recall@10 |"), printed);
      assertTrue(
          printed.contains(
              "fused: 3 of 3 deeper rankings held fewer than 10 distinct sessions;"
                  + " 0 did not start with the top 10"),
          printed);
      assertTrue(printed.contains("| text / 4 single-hop | 1 |"), printed);
      assertTrue(printed.contains("gate precision:"), printed);
      assertTrue(printed.contains("1 memories had an unparseable time"), printed);
      assertEquals(3, report.overall().get("fused").queries());
      // four memories per conversation at most: every relevant memory is in the top 10
      assertEquals(1.0, report.overall().get("text").recall10(), 1e-9, printed);
      // and two sessions at most: every relevant session is among the first 5
      assertEquals(1.0, report.overall().get("fused").sessionRecall5(), 1e-9, printed);
      assertEquals(1.0, report.overall().get("fused").sessionAny10(), 1e-9, printed);
      assertEquals(3, report.latencyMillis().length);
      assertFalse(Double.isNaN(report.gatePrecision()));
    }
  }

  @Test
  void captureIngest_storesEveryTurnOnceAsAnObservation_andFindsItsEvidence(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("tiny.jsonl");
    Files.writeString(file, DATA);
    Ran ran =
        run(
            "--data",
            file.toString(),
            "--embedder",
            "hashing",
            "--ingest",
            "capture",
            "--unnamed-speakers");
    RetrievalEval.Report report = ran.report();
    String printed = ran.printed();

    assertTrue(printed.contains("ingest=capture"), printed);
    assertTrue(
        printed.contains(
            "capture: 6 events accepted, 0 not accepted, 6 processed, 0 failed, 0 dropped;"
                + " 6 observations stored, 6 matched to eval ids, 0 observed turns unmatched"),
        printed);
    assertTrue(printed.contains("stored 6 memories of 2 conversations"), printed);
    assertTrue(printed.contains("1 memories had an unparseable time"), printed);
    assertEquals(3, report.overall().get("fused").queries());
    // captured without speaker names: a4 ("My cello teacher says ...") shares no term with "Which
    // instrument is Ben learning?" without "Ben" beside it, so BM25 finds one of qa2's two
    assertEquals(5.0 / 6, report.overall().get("text").recall10(), 1e-9, printed);
  }

  @Test
  void dump_writesEachRecallsListsAndTheBestPassageCosineOfMemoriesWithSentences(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("tiny.jsonl");
    // a1 says two sentences, and a3 one beside its image's caption, so each is stored with a
    // vector per sentence; a2 and a4 say one sentence each and have none
    Files.writeString(
        file,
        DATA.replace(
            "from the shelter.\"",
            "from the shelter. She sleeps on top of the piano every single afternoon.\""));
    Path dump = dir.resolve("tiny.dump");
    run("--data", file.toString(), "--embedder", "hashing", "--dump", dump.toString());

    List<JsonNode> lines = jsonLines(dump);
    // each on-topic query against its own conversation and against the next one
    assertEquals(6, lines.size());
    JsonNode own =
        lines.stream()
            .filter(l -> l.get("id").asText().equals("qa1") && l.get("kind").asText().equals("own"))
            .findFirst()
            .orElseThrow();
    assertTrue(own.get("text").size() > 0, own.toString());
    assertTrue(own.get("vector").size() > 0, own.toString());
    Map<String, Double> passages = new HashMap<>();
    own.get("passages").forEach(p -> passages.put(p.get(0).asText(), p.get(1).asDouble()));
    assertEquals(Set.of("a1", "a3"), passages.keySet(), own.toString());
    passages.values().forEach(c -> assertTrue(Math.abs(c) <= 1.0 + 1e-6, own.toString()));
  }

  @Test
  void trace_writesEveryMeasuredRecall_andItsOutcomesAddUpToTheReportsGate(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("tiny.jsonl");
    // and a question no memory answers, recalled against its own conversation only
    Files.writeString(
        file,
        DATA
            + "{\"type\":\"query\",\"conv\":\"beta\",\"id\":\"qb2\",\"text\":\"Who won the"
            + " chess final?\",\"relevant\":[],\"category\":2,\"category_name\":\"temporal\"}\n");
    Path trace = dir.resolve("tiny.trace");
    Ran ran = run("--data", file.toString(), "--embedder", "hashing", "--trace", trace.toString());
    RetrievalEval.Report report = ran.report();
    assertTrue(ran.printed().contains("traced each measured recall to " + trace), ran.printed());

    List<JsonNode> rankings = new ArrayList<>();
    Map<String, List<JsonNode>> gateByRecall = new HashMap<>();
    for (JsonNode n : jsonLines(trace)) {
      switch (n.get("kind").asText()) {
        case "ranking" -> rankings.add(n);
        case "gate" ->
            gateByRecall.computeIfAbsent(n.get("recall").asText(), k -> new ArrayList<>()).add(n);
        default -> throw new AssertionError("unknown kind: " + n);
      }
    }
    // three on-topic questions, each ranked by text, vector and fused
    assertEquals(9, rankings.size());
    for (JsonNode r : rankings) {
      List<String> relevant = strings(r.get("relevant"));
      List<String> ranked = strings(r.get("ranked"));
      List<Integer> found = new ArrayList<>();
      for (int i = 0; i < ranked.size(); i++) {
        if (relevant.contains(ranked.get(i))) {
          found.add(i + 1);
        }
      }
      List<Integer> written = new ArrayList<>();
      r.get("found").forEach(f -> written.add(f.asInt()));
      assertEquals(found, written, r.toString());
    }
    JsonNode fusedQa1 =
        rankings.stream()
            .filter(r -> r.get("config").asText().equals("fused"))
            .filter(r -> r.get("id").asText().equals("qa1"))
            .findFirst()
            .orElseThrow();
    assertEquals("What is the name of Ann's cat?", fusedQa1.get("q").asText());
    assertEquals("alpha", fusedQa1.get("conv").asText());
    assertTrue(
        fusedQa1.get("fusion").asText().startsWith("standardised scores"), fusedQa1.toString());

    // each on-topic question against its own conversation and the next; qb2 against its own
    assertEquals(3, gateByRecall.get("own").size());
    assertEquals(3, gateByRecall.get("other").size());
    assertEquals(1, gateByRecall.get("question").size());
    assertEquals(
        "alpha",
        gateByRecall.get("other").stream()
            .filter(g -> g.get("id").asText().equals("qb1"))
            .findFirst()
            .orElseThrow()
            .get("against")
            .asText());
    List<JsonNode> offTopic = new ArrayList<>(gateByRecall.get("other"));
    offTopic.addAll(gateByRecall.get("question"));
    long empty = 0;
    for (JsonNode g : offTopic) {
      String outcome = g.get("outcome").asText();
      assertTrue(Set.of("empty", "injected").contains(outcome), g.toString());
      assertEquals(outcome.equals("empty"), g.get("ranked").isEmpty(), g.toString());
      empty += outcome.equals("empty") ? 1 : 0;
    }
    assertEquals(report.gatePrecision(), (double) empty / offTopic.size(), 1e-9);
    long kept = 0;
    long lost = 0;
    for (JsonNode g : gateByRecall.get("own")) {
      String outcome = g.get("outcome").asText();
      assertTrue(
          Set.of("kept evidence", "lost evidence", "no evidence").contains(outcome), g.toString());
      kept += outcome.equals("kept evidence") ? 1 : 0;
      lost += outcome.equals("lost evidence") ? 1 : 0;
      assertTrue(g.get("dropped").size() <= EvalTrace.DROPS_WRITTEN, g.toString());
    }
    assertTrue(kept + lost > 0, gateByRecall.toString());
    assertEquals(report.gateCost(), (double) lost / (kept + lost), 1e-9);
  }

  @Test
  void trace_toADirectoryThatIsNotThere_failsBeforeAnythingIsStored(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("tiny.jsonl");
    Files.writeString(file, DATA);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      org.junit.jupiter.api.Assertions.assertThrows(
          java.io.IOException.class,
          () ->
              RetrievalEval.run(
                  RetrievalEval.Options.parse(
                      "--data",
                      file.toString(),
                      "--trace",
                      dir.resolve("absent").resolve("t.jsonl").toString()),
                  out));
    }
    assertEquals("", bytes.toString(StandardCharsets.UTF_8));
  }

  /** What a run returned and printed. */
  private record Ran(RetrievalEval.Report report, String printed) {}

  private static Ran run(String... args) throws java.io.IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      RetrievalEval.Report report = RetrievalEval.run(RetrievalEval.Options.parse(args), out);
      return new Ran(report, bytes.toString(StandardCharsets.UTF_8));
    }
  }

  private static List<JsonNode> jsonLines(Path file) throws java.io.IOException {
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      lines.add(json.readTree(line));
    }
    return lines;
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void captureMatch_pairsEqualContentsOfOneSessionByTheirContext() {
    Scope scope = Scope.of("eval", "c");
    Memory first = observation("m1", scope, "s", "Yes!", "user: Tea?");
    Memory second = observation("m2", scope, "s", "Yes!", "user: Coffee?");
    Map<String, List<EvalCapture.Turn>> turns =
        Map.of(
            "s",
            List.of(
                new EvalCapture.Turn("c", "e1", "Coffee?", null),
                new EvalCapture.Turn("c", "e2", "Yes!", "Coffee?"),
                new EvalCapture.Turn("c", "e3", "Tea?", "Yes!"),
                new EvalCapture.Turn("c", "e4", "Yes!", "Tea?")));

    Map<MemoryId, String> evalIds =
        EvalCapture.match(
            turns,
            List.of(
                first,
                second,
                observation("m3", scope, "s", "Coffee?", ""),
                observation("m4", scope, "s", "Tea?", "user: Yes!")),
            Map.of("c", scope));

    assertEquals(
        Map.of(
            MemoryId.of("m3"), "e1",
            MemoryId.of("m2"), "e2",
            MemoryId.of("m4"), "e3",
            MemoryId.of("m1"), "e4"),
        evalIds);
  }

  private static Memory observation(
      String id, Scope scope, String session, String content, String context) {
    Instant at = Instant.parse("2024-03-03T09:00:00Z");
    return Memory.builder()
        .id(MemoryId.of(id))
        .scope(scope)
        .content(content)
        .type(MemoryType.OBSERVATION)
        .occurredAt(at)
        .createdAt(at)
        .context(context)
        .sourceSession(session)
        .build();
  }

  @Test
  void options_rejectUnknownAndConflictingFlags() {
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> RetrievalEval.Options.parse("--data", "x", "--bogus"));
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> RetrievalEval.Options.parse("--embedder", "hashing"));
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () ->
            RetrievalEval.Options.parse(
                "--data", "x", "--no-session-cap", "--max-per-session", "2"));
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> RetrievalEval.Options.parse("--data", "x", "--ingest", "hooks"));
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> RetrievalEval.Options.parse("--data", "x", "--ingest", "capture", "--no-context"));
  }

  @Test
  void options_refuseAMalformedNumber_namingItsOption() {
    for (String[] given :
        List.of(
            new String[] {"--distractors", "3k"},
            new String[] {"--distractors", "-1"},
            new String[] {"--distractors", "3000000000"},
            new String[] {"--max-per-session", "two"},
            new String[] {"--distractor-seed", "0x2a"},
            new String[] {"--min-cosine", "0,3"},
            new String[] {"--min-text", "NaN"},
            new String[] {"--evidence-cosine", "Infinity", "--evidence-text", "0.2"})) {
      List<String> args = new ArrayList<>(List.of("--data", "x"));
      args.addAll(List.of(given));
      IllegalArgumentException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class,
              () -> RetrievalEval.Options.parse(args.toArray(String[]::new)));
      assertTrue(e.getMessage().startsWith(given[0] + " "), e.getMessage());
      assertTrue(e.getMessage().contains(given[1]), e.getMessage());
    }
    RetrievalEval.Options ok =
        RetrievalEval.Options.parse(
            "--data", "x", "--distractors", "0", "--distractor-seed", "-7", "--min-cosine", "0.3");
    assertEquals(0, ok.distractors());
    assertEquals(-7, ok.distractorSeed());
  }

  @Test
  void options_refuseToWriteADumpOrTraceOverTheDataOrOverEachOther(@TempDir Path dir)
      throws Exception {
    Path data = Files.writeString(dir.resolve("d.jsonl"), DATA);
    String d = data.toString();
    String same = dir.resolve(".").resolve("d.jsonl").toString();
    for (String[] args :
        List.of(
            new String[] {"--data", d, "--trace", d},
            new String[] {"--data", d, "--dump", same},
            new String[] {"--data", d, "--dump", "out.jsonl", "--trace", "./out.jsonl"})) {
      IllegalArgumentException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class, () -> RetrievalEval.Options.parse(args));
      assertTrue(e.getMessage().contains("--trace"), e.getMessage());
    }
    assertEquals(DATA, Files.readString(data));
    RetrievalEval.Options ok =
        RetrievalEval.Options.parse("--data", d, "--dump", "a.jsonl", "--trace", "b.jsonl");
    assertEquals(Path.of("b.jsonl"), ok.trace());
  }
}
