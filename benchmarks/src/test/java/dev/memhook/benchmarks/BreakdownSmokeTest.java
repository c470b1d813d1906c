package dev.memhook.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the two breakdown harnesses and {@link SettledRecall} on 1,000 memories so they cannot rot:
 * each prints one table row per part with a median and a p99 (never checked against a bound).
 */
class BreakdownSmokeTest {

  @TempDir static Path indexes;
  private static String previousDir;

  @BeforeAll
  static void keepIndexesInTheTempDir() {
    previousDir = System.setProperty("memhook.bench.dir", indexes.toString());
    System.setProperty("memhook.bench.quietSeconds", "1");
  }

  @AfterAll
  static void restore() {
    System.clearProperty("memhook.bench.quietSeconds");
    if (previousDir == null) {
      System.clearProperty("memhook.bench.dir");
    } else {
      System.setProperty("memhook.bench.dir", previousDir);
    }
  }

  private static final Pattern ROW =
      Pattern.compile("^\\| ([^|]+) \\| ([0-9.]+) \\| ([0-9.]+) \\|$", Pattern.MULTILINE);

  private static List<String> timedParts(String table) {
    Matcher m = ROW.matcher(table);
    List<String> parts = new java.util.ArrayList<>();
    while (m.find()) {
      double median = Double.parseDouble(m.group(2));
      double p99 = Double.parseDouble(m.group(3));
      assertTrue(median <= p99, table);
      parts.add(m.group(1));
    }
    return parts;
  }

  private static String run(java.util.function.Consumer<PrintStream> harness) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      harness.accept(out);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void settledRecall_timesEveryMode_andChecksVectorRecall() {
    String table =
        run(
            out ->
                SettledRecall.run(
                    new String[] {"--size", "1000", "--queries", "20", "--recall-queries", "20"},
                    out));
    assertEquals(List.of("text recall", "vector recall", "fused recall"), timedParts(table), table);
    Matcher recall = Pattern.compile("recall@10 .*: ([0-9.]+)").matcher(table);
    assertTrue(recall.find(), table);
    // 1,000 vectors in one segment: the graph search finds nearly all of the exact top 10
    assertTrue(Double.parseDouble(recall.group(1)) >= 0.9, table);
    assertTrue(table.contains(", 1 segments,"), table);
  }

  @Test
  void recallBreakdown_timesEveryStepOfTheRecall() {
    String table =
        run(out -> RecallBreakdown.run(new String[] {"--size", "1000", "--queries", "20"}, out));
    assertEquals(
        List.of(
            "searchText(k=50, with ceiling)",
            "searchVector(k=50)",
            "getAll(10 ids, not cached)",
            "sessionWindows(top 5 text hits, span 2)",
            "recall, fused defaults (whole)"),
        timedParts(table),
        table);
    assertTrue(table.contains("| searchRelated | not run:"), table);
  }

  @Test
  void hookBreakdown_timesEveryPartOfTheCallback() {
    String table =
        run(
            out ->
                HookBreakdown.run(
                    new String[] {"--size", "1000", "--queries", "10", "--embedder", "hashing"},
                    out));
    assertEquals(
        List.of(
            "embed the question",
            "searchText(k=50, with ceiling)",
            "searchVector(k=50)",
            "getAll(5 ids, not cached)",
            "recall (limit 3, whole)",
            "beforeSendLoop (whole callback)"),
        timedParts(table),
        table);
  }

  @Test
  void anUnknownArgument_failsWithTheUsage() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> HookBreakdown.run(new String[] {"--sise", "10"}, System.out));
    assertTrue(e.getMessage().startsWith("usage: HookBreakdown"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> RecallBreakdown.run(new String[] {"--bogus"}, System.out));
  }

  @Test
  void settledRecall_refusesAMalformedOrNegativeEfSearch_namingItsOption() {
    for (String[] refused :
        new String[][] {
          {"100,3k", "--ef-search needs a whole number, not '3k'"},
          {"-50", "--ef-search must be 0 to 2147483647, not -50"}
        }) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> SettledRecall.run(new String[] {"--ef-search", refused[0]}, System.out));
      assertEquals(refused[1], e.getMessage());
    }
  }
}
