package dev.memhook.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Collection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs every JMH benchmark once, in-process, on a corpus of 1,000 memories, so the benchmarks
 * cannot rot. It asserts that each parameter combination produced a result, never a timing.
 */
class BenchmarksSmokeTest {

  @TempDir static Path indexes;
  private static String previousDir;

  private static String previousIgnoreLock;

  @BeforeAll
  static void keepIndexesInTheTempDir() {
    previousDir = System.setProperty("memhook.bench.dir", indexes.toString());
    // JMH's machine-wide lock keeps two timed runs apart; a smoke run times nothing, and must not
    // fail because someone is running a real benchmark on the same machine
    previousIgnoreLock = System.setProperty("jmh.ignoreLock", "true");
  }

  @AfterAll
  static void restore() {
    restore("memhook.bench.dir", previousDir);
    restore("jmh.ignoreLock", previousIgnoreLock);
  }

  private static void restore(String key, String previous) {
    if (previous == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, previous);
    }
  }

  private static ChainedOptionsBuilder smoke(Class<?> benchmark) {
    return new OptionsBuilder()
        .include("^" + benchmark.getName().replace(".", "\\.") + "\\.")
        .forks(0)
        .warmupIterations(0)
        .measurementIterations(1)
        .measurementTime(TimeValue.milliseconds(100))
        .shouldFailOnError(true)
        .verbosity(org.openjdk.jmh.runner.options.VerboseMode.SILENT);
  }

  private static void assertEachProducedAResult(Collection<RunResult> results, int expected) {
    assertEquals(expected, results.size(), "parameter combinations run");
    for (RunResult r : results) {
      assertTrue(r.getPrimaryResult().getSampleCount() > 0, "no samples for " + r.getParams());
    }
  }

  @Test
  void recallLatencyBenchmark_runs() throws RunnerException {
    assertEachProducedAResult(
        new Runner(smoke(RecallLatencyBenchmark.class).param("size", "1000").build()).run(),
        6); // lucene, memory x text, vector, fused
  }

  @Test
  void recallLatencyBenchmark_onAForceMergedIndex_runs() throws RunnerException {
    assertEachProducedAResult(
        new Runner(
                smoke(RecallLatencyBenchmark.class)
                    .param("size", "1000")
                    .param("store", "lucene")
                    .param("segments", "merged")
                    .build())
            .run(),
        3); // text, vector, fused
  }

  @Test
  void recallLatencyBenchmark_withAJointEmbeddersDimension_runs() throws RunnerException {
    assertEachProducedAResult(
        new Runner(
                smoke(RecallLatencyBenchmark.class)
                    .param("size", "1000")
                    .param("store", "lucene")
                    .param("mode", "fused")
                    .param("dimension", "768")
                    .build())
            .run(),
        1);
  }

  @Test
  void vectorSearchBenchmark_runs() throws RunnerException {
    assertEachProducedAResult(
        new Runner(smoke(VectorSearchBenchmark.class).param("size", "1000").build()).run(),
        3); // memhook-lucene, langchain4j, exact
  }

  @Test
  void hookOverheadBenchmark_runs() throws RunnerException {
    assertEachProducedAResult(
        new Runner(smoke(HookOverheadBenchmark.class).param("size", "1000").build()).run(),
        3); // hashing, djl-int8-1t, djl-int8
  }

  @Test
  void ingestBenchmark_runs() throws RunnerException {
    assertEachProducedAResult(
        new Runner(smoke(IngestBenchmark.class).build()).run(),
        6); // hashing, djl-int8 x lucene, lucene-group, memory
  }

  @Test
  void embedderBenchmark_runs() throws RunnerException {
    assertEachProducedAResult(
        new Runner(smoke(EmbedderBenchmark.class).build()).run(),
        4); // djl-int8, djl-fp32 x single, batchOf32
  }
}
