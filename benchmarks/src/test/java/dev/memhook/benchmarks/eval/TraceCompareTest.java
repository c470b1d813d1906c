package dev.memhook.benchmarks.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceCompareTest {

  private static String ranking(
      String config, String id, String category, String relevant, String found) {
    return "{\"kind\":\"ranking\",\"id\":\""
        + id
        + "\",\"conv\":\"c1\",\"category\":\""
        + category
        + "\",\"q\":\"question "
        + id
        + "?\",\"relevant\":["
        + relevant
        + "],\"config\":\""
        + config
        + "\",\"ranked\":[],\"found\":["
        + found
        + "],\"fusion\":\"\"}\n";
  }

  private static String gate(String recall, String id, String outcome) {
    return "{\"kind\":\"gate\",\"id\":\""
        + id
        + "\",\"conv\":\"c1\",\"category\":\"single-hop\",\"q\":\"question "
        + id
        + "?\",\"relevant\":[],\"recall\":\""
        + recall
        + "\",\"against\":\"c2\",\"outcome\":\""
        + outcome
        + "\",\"ranked\":[],\"fusion\":\"\",\"dropped\":[]}\n";
  }

  private static Path write(Path dir, String name, String... lines) throws Exception {
    return Files.writeString(dir.resolve(name), String.join("", lines));
  }

  @Test
  void compare_countsEachQuestionsRecallPerCategory_andListsLossesFirst(@TempDir Path dir)
      throws Exception {
    Path before =
        write(
            dir,
            "before.jsonl",
            ranking("text", "q1", "multi-hop", "\"a\",\"b\"", ""),
            ranking("fused", "q1", "multi-hop", "\"a\",\"b\"", "3"),
            ranking("fused", "q2", "multi-hop", "\"c\"", "1"),
            ranking("fused", "q3", "single-hop", "\"d\"", "2"),
            ranking("fused", "q4", "single-hop", "\"e\",\"f\"", "1,7"),
            gate("other", "q1", "injected"),
            gate("other", "q2", "empty"),
            gate("own", "q1", "kept evidence"),
            gate("own", "q2", "kept evidence"),
            gate("question", "q9", "injected"));
    Path after =
        write(
            dir,
            "after.jsonl",
            // the gate lines first: order within a file does not matter
            gate("other", "q1", "empty"),
            gate("other", "q2", "empty"),
            gate("own", "q1", "lost evidence"),
            gate("own", "q2", "kept evidence"),
            gate("question", "q9", "injected"),
            ranking("fused", "q4", "single-hop", "\"e\",\"f\"", "1"),
            ranking("fused", "q1", "multi-hop", "\"a\",\"b\"", "3,9"),
            ranking("fused", "q2", "multi-hop", "\"c\"", "1"),
            ranking("fused", "q3", "single-hop", "\"d\"", "6"),
            ranking("text", "q1", "multi-hop", "\"a\",\"b\"", "1,2"));

    TraceCompare.Comparison at10 =
        TraceCompare.compare(TraceCompare.Options.parse(before.toString(), after.toString()));

    // q1 0.5 -> 1.0 up; q2 1 -> 1; q3 1 -> 1 at 10; q4 1.0 -> 0.5 down
    assertEquals(
        new TraceCompare.Row("overall", 4, 3.5 / 4, 3.5 / 4, 1, 1, 1.0), at10.rows().get(0));
    assertEquals(new TraceCompare.Row("multi-hop", 2, 0.75, 1.0, 1, 0, 1.0), at10.rows().get(1));
    assertEquals(new TraceCompare.Row("single-hop", 2, 1.0, 0.75, 0, 1, 1.0), at10.rows().get(2));
    assertEquals(List.of("c1/q4", "c1/q1"), at10.moved().stream().map(m -> m.key()).toList());
    assertEquals(List.of(1, 7), at10.moved().get(0).foundBefore());
    assertEquals(List.of(1), at10.moved().get(0).foundAfter());

    // two off-topic recalls and one question no memory answers; two own recalls with evidence
    assertEquals(new TraceCompare.GateFigures(3, 1, 2, 0), at10.gateBefore());
    assertEquals(new TraceCompare.GateFigures(3, 2, 2, 1), at10.gateAfter());
    assertEquals(1.0 / 3, at10.gateBefore().precision(), 1e-12);
    assertEquals(0.5, at10.gateAfter().cost(), 1e-12);
    assertEquals(
        List.of("own c1/q1 kept evidence -> lost evidence", "other c1/q1 injected -> empty"),
        at10.outcomes().stream()
            .map(o -> o.recall() + " " + o.key() + " " + o.before() + " -> " + o.after())
            .sorted(java.util.Comparator.reverseOrder())
            .toList());

    // at depth 5, q3's move from rank 2 to 6 counts too; the text rankings are their own
    TraceCompare.Comparison at5 =
        TraceCompare.compare(
            TraceCompare.Options.parse(before.toString(), after.toString(), "--at", "5"));
    assertEquals(
        new TraceCompare.Row("overall", 4, 3.0 / 4, 2.0 / 4, 0, 1, 1.0), at5.rows().get(0));
    TraceCompare.Comparison text =
        TraceCompare.compare(
            TraceCompare.Options.parse(before.toString(), after.toString(), "--config", "text"));
    assertEquals(new TraceCompare.Row("overall", 1, 0, 1, 1, 0, 1.0), text.rows().get(0));

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      TraceCompare.print(at10, out);
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(
        printed.contains("| overall | 4 | 0.875 | 0.875 | +0.000 | 1 | 1 | 1.000 |"), printed);
    assertTrue(
        printed.contains("- c1/q4 (single-hop) 1.000 -> 0.500, ranks [1, 7] -> [1]: question q4?"),
        printed);
    assertTrue(
        printed.contains(
            "gate precision 0.333 -> 0.667 (1 -> 2 of 3 off-topic recalls empty);"
                + " cost 0.000 -> 0.500 (0 -> 1 of 2 own recalls with evidence lost it)"),
        printed);
  }

  @Test
  void aCategoryNamedOverall_isItsOwnRow(@TempDir Path dir) throws Exception {
    Path trace =
        write(
            dir,
            "t.jsonl",
            ranking("fused", "q1", "overall", "\"a\"", "1"),
            ranking("fused", "q2", "other", "\"b\"", ""));
    TraceCompare.Comparison c =
        TraceCompare.compare(TraceCompare.Options.parse(trace.toString(), trace.toString()));
    assertEquals(
        List.of(
            new TraceCompare.Row("overall", 2, 0.5, 0.5, 0, 0, 1.0),
            new TraceCompare.Row("other", 1, 0, 0, 0, 0, 1.0),
            new TraceCompare.Row("overall", 1, 1, 1, 0, 0, 1.0)),
        c.rows());
  }

  @Test
  void signTest_isTheExactTwoSidedBinomialTail() {
    assertEquals(1.0, TraceCompare.signTest(0, 0));
    assertEquals(1.0, TraceCompare.signTest(3, 3));
    assertEquals(2.0 / 32, TraceCompare.signTest(5, 0), 1e-15);
    assertEquals(2.0 / 32, TraceCompare.signTest(0, 5), 1e-15);
    // P(X <= 2) for 10 flips is (1 + 10 + 45) / 1024
    assertEquals(2 * 56.0 / 1024, TraceCompare.signTest(8, 2), 1e-15);
    // thousands of flips: no underflow to 0 or overflow past 1
    assertEquals(1.0, TraceCompare.signTest(1000, 1000));
    double p = TraceCompare.signTest(1100, 900);
    assertTrue(p > 0 && p < 1e-4, "p = " + p);
  }

  @Test
  void twoRunsOfTheHarnessOnOneBuild_compareAsTheirReportsRead(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("tiny.jsonl");
    Files.writeString(
        data,
        """
        {"type":"memory","conv":"alpha","id":"a1","session":"s1","speaker":"Ann","time":"9:00 am on 3 March, 2024","text":"I adopted a grey cat named Miso from the shelter."}
        {"type":"memory","conv":"alpha","id":"a2","session":"s1","speaker":"Ben","time":"9:00 am on 3 March, 2024","text":"Nice! I started learning the cello last week."}
        {"type":"memory","conv":"beta","id":"b1","session":"s1","speaker":"Cy","time":"9:00 am on 4 March, 2024","text":"The kubernetes cluster upgrade is scheduled for Friday."}
        {"type":"query","conv":"alpha","id":"qa1","text":"What is the name of Ann's cat?","relevant":["a1"],"category":4,"category_name":"single-hop"}
        {"type":"query","conv":"beta","id":"qb1","text":"When is the cluster upgrade?","relevant":["b1"],"category":2,"category_name":"temporal"}
        """);
    Path[] traces = {dir.resolve("one.jsonl"), dir.resolve("two.jsonl")};
    RetrievalEval.Report report = null;
    for (Path trace : traces) {
      try (PrintStream out =
          new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)) {
        report =
            RetrievalEval.run(
                RetrievalEval.Options.parse(
                    "--data",
                    data.toString(),
                    "--embedder",
                    "hashing",
                    "--trace",
                    trace.toString()),
                out);
      }
    }

    TraceCompare.Comparison c =
        TraceCompare.compare(
            TraceCompare.Options.parse(traces[0].toString(), traces[1].toString()));

    assertEquals(3, c.rows().size());
    TraceCompare.Row overall = c.rows().get(0);
    assertEquals(2, overall.questions());
    assertEquals(report.overall().get("fused").recall10(), overall.after(), 1e-12);
    assertEquals(overall.before(), overall.after());
    assertTrue(c.moved().isEmpty(), c.moved().toString());
    assertEquals(report.gatePrecision(), c.gateAfter().precision(), 1e-12);
    assertEquals(report.gateCost(), c.gateAfter().cost(), 1e-12);
    assertTrue(c.outcomes().isEmpty(), c.outcomes().toString());
  }

  @Test
  void tracesOfDifferentQuestions_orOfDifferentData_areRefused(@TempDir Path dir) throws Exception {
    Path before =
        write(
            dir,
            "b.jsonl",
            ranking("fused", "q1", "x", "\"a\"", "1"),
            ranking("fused", "q2", "x", "\"b\"", ""));
    Path fewer = write(dir, "f.jsonl", ranking("fused", "q1", "x", "\"a\"", "1"));
    Path otherRelevant =
        write(
            dir,
            "o.jsonl",
            ranking("fused", "q1", "x", "\"a\"", "1"),
            ranking("fused", "q2", "x", "\"z\"", ""));
    Path gated =
        write(
            dir,
            "g.jsonl",
            ranking("fused", "q1", "x", "\"a\"", "1"),
            ranking("fused", "q2", "x", "\"b\"", ""),
            gate("other", "q1", "empty"));

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TraceCompare.compare(
                    TraceCompare.Options.parse(before.toString(), fewer.toString())));
    assertTrue(
        e.getMessage()
            .contains("different rankings: 1 only in " + before + " (first c1/q2), 0 only in"),
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TraceCompare.compare(
                    TraceCompare.Options.parse(before.toString(), otherRelevant.toString())));
    assertTrue(e.getMessage().contains("c1/q2 has relevant ids [b]"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TraceCompare.compare(
                    TraceCompare.Options.parse(before.toString(), gated.toString())));
    assertTrue(e.getMessage().contains("different gate recalls"), e.getMessage());
    // without gate lines on either side there are no gate figures
    TraceCompare.Comparison same =
        TraceCompare.compare(TraceCompare.Options.parse(before.toString(), before.toString()));
    assertNull(same.gateBefore());
  }

  @Test
  void aFileThatIsNotATrace_isRefusedWithItsLine(@TempDir Path dir) throws Exception {
    Path good = write(dir, "good.jsonl", ranking("fused", "q1", "x", "\"a\"", "1"));
    String first = ranking("fused", "q1", "x", "\"a\"", "1");
    String[][] cases = {
      {first + "{not json\n", "line 2: not JSON"},
      {first + "[1,2]\n", "line 2: not a JSON object"},
      {first + "\n" + first, "line 3: question c1/q1 ranked twice"},
      {first + "{\"kind\":\"summary\"}\n", "line 2: unknown kind 'summary'"},
      {first.replace("\"conv\":\"c1\",", ""), "line 1: no text field 'conv'"},
      {ranking("fused", "q1", "x", "\"a\"", "11"), "line 1: 'found' must hold ascending ranks"},
      {ranking("fused", "q1", "x", "\"a\"", "2,1"), "line 1: 'found' must hold ascending ranks"},
      {ranking("fused", "q1", "x", "\"a\"", "1,2"), "line 1: more ranks found than relevant ids"},
      {ranking("fused", "q1", "x", "", ""), "line 1: a ranking without relevant ids"},
      {ranking("fused", "q1", "x", "7", "1"), "line 1: 'relevant' holds a non-text element"},
      {ranking("text", "q1", "x", "\"a\"", "1"), "holds no 'fused' rankings"},
      {"", "holds no 'fused' rankings"},
      {"[".repeat(100_000) + "\n", "line 1: not JSON"},
    };
    for (String[] c : cases) {
      Path bad = write(dir, "bad.jsonl", c[0]);
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  TraceCompare.compare(TraceCompare.Options.parse(good.toString(), bad.toString())),
              c[1]);
      assertTrue(e.getMessage().startsWith(bad.toString()), e.getMessage());
      assertTrue(e.getMessage().contains(c[1]), e.getMessage());
    }
    Path absent = dir.resolve("absent");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TraceCompare.compare(
                    TraceCompare.Options.parse(good.toString(), absent.toString())));
    assertEquals("no trace file " + absent, e.getMessage());
  }

  @Test
  void options_refuseWhatTheyCannotCompare() {
    for (String[] args :
        List.of(
            new String[] {"a.jsonl"},
            new String[] {"a.jsonl", "b.jsonl", "c.jsonl"},
            new String[] {"a.jsonl", "b.jsonl", "--at", "11"},
            new String[] {"a.jsonl", "b.jsonl", "--at", "0"},
            new String[] {"a.jsonl", "b.jsonl", "--at", "five"},
            new String[] {"a.jsonl", "b.jsonl", "--config", "graph"},
            new String[] {"a.jsonl", "b.jsonl", "--config"},
            new String[] {"a.jsonl", "b.jsonl", "--bogus"})) {
      assertThrows(
          IllegalArgumentException.class,
          () -> TraceCompare.Options.parse(args),
          String.join(" ", args));
    }
    TraceCompare.Options o = TraceCompare.Options.parse("--at", "5", "a.jsonl", "b.jsonl");
    assertEquals(new TraceCompare.Options(Path.of("a.jsonl"), Path.of("b.jsonl"), "fused", 5), o);
  }
}
