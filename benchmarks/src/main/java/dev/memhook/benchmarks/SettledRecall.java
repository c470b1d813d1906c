package dev.memhook.benchmarks;

import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.Memhook;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * Recall as a store leaves itself, end to end in one run: builds a {@link SyntheticCorpus} store
 * the way a host does (the store's defaults, {@code putAll} in batches of {@value
 * BenchStores#BATCH}, precomputed 384-dimension vectors, no model), leaves it without a write for a
 * minute and until its idle merges are done ({@link BenchStores.Layout#IDLE}; never merged by
 * hand), then prints the segment count, the median and p99 of {@code text}, {@code vector} and
 * {@code fused} recall (the modes of {@link RecallLatencyBenchmark}) and the recall@10 of the
 * vector search against an exact scan. Each phase prints its time (building and settling to
 * standard error), so a run stopped early still shows how far it got.
 *
 * <p>Run (a 1M store needs about 12 GB of heap: the corpus's vectors, the exact scan's copy, the
 * store):
 *
 * <pre>
 * java -Xmx12g -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.SettledRecall --size 1000000
 * </pre>
 *
 * The index is kept as {@link BenchStores} keeps indexes ({@code -Dmemhook.bench.dir}); a second
 * run measures the kept index. Latencies are medians and p99 of {@code --queries} recalls (default
 * 2,000) after as many warm-up recalls, every one a question not asked before in the run (a
 * repeated question would find its records in the read cache); recall@10 is over {@code
 * --recall-queries} (default 500) other questions, with the store's default {@code efSearch} or
 * with each of {@code --ef-search N[,N...]} in turn (the index is the same; only the search's
 * candidates change). {@code --timed-ef N} times the three recall modes with that {@code efSearch}
 * instead of the store's default.
 */
public final class SettledRecall {

  /** The recall modes {@link #timeModes} times, in order. */
  static final List<String> MODES = List.of("text", "vector", "fused");

  private SettledRecall() {}

  public static void main(String[] args) {
    StepTimes.main(args, SettledRecall::run);
  }

  /**
   * Runs with {@code args} as on the command line, printing the results to {@code out}.
   *
   * @throws IllegalArgumentException with the usage, for an unknown argument
   */
  static void run(String[] args, PrintStream out) {
    int size = 100_000;
    int queries = 2_000;
    int recallQueries = 500;
    int[] efSearches = {0};
    int timedEf = 0;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--size" -> size = CommandLine.count(args, ++i);
        case "--queries" -> queries = CommandLine.count(args, ++i);
        case "--recall-queries" -> recallQueries = CommandLine.count(args, ++i);
        case "--timed-ef" -> timedEf = CommandLine.count(args, ++i);
        case "--ef-search" ->
            efSearches =
                Arrays.stream(CommandLine.value(args, ++i).split(","))
                    .mapToInt(ef -> CommandLine.count("--ef-search", ef))
                    .toArray();
        default ->
            throw new IllegalArgumentException(
                "usage: SettledRecall [--size N] [--queries N] [--recall-queries N]"
                    + " [--ef-search N[,N...]] [--timed-ef N]");
      }
    }
    long t0 = System.nanoTime();
    Scope scope = RecallLatencyBenchmark.SCOPE;
    SyntheticCorpus corpus =
        SyntheticCorpus.generate(
            RecallLatencyBenchmark.SEED, size, RecallLatencyBenchmark.DIMENSION);
    // Disjoint blocks of questions: warm-up and measurement per mode, then the recall@10 check.
    List<SyntheticCorpus.Query> qs = corpus.queries(7, 2 * queries * MODES.size() + recallQueries);
    PrecomputedEmbedder.Builder eb =
        PrecomputedEmbedder.builder("bench-synthetic-d" + corpus.dimension(), corpus.dimension());
    qs.forEach(q -> eb.put(q.text(), q.vector()));
    PrecomputedEmbedder embedder = eb.unrelatedForUnknown().build();
    EmbeddingSpace space = embedder.space();
    BenchStores.Settings settings =
        new BenchStores.Settings(false, timedEf, BenchStores.Layout.IDLE);
    System.err.printf(Locale.ROOT, "corpus generated in %.0f s%n", (System.nanoTime() - t0) / 1e9);

    long t1 = System.nanoTime();
    MemoryStore first =
        BenchStores.open(
            BenchStores.Kind.LUCENE, corpus, scope, space, corpus::embedding, settings);
    Path dir = BenchStores.indexDirectory(BenchStores.Kind.LUCENE, corpus, scope, space, settings);
    out.printf(
        Locale.ROOT,
        "%s: index ready in %.0f s (built and settled, or kept), %d segments, %.0f MB%n",
        corpus,
        (System.nanoTime() - t1) / 1e9,
        IdleSettling.committedSegments(dir),
        BenchStores.sizeOnDisk(dir) / 1048576.0);

    timeModes(
        out,
        m ->
            m == 0
                ? first
                : BenchStores.open(
                    BenchStores.Kind.LUCENE, corpus, scope, space, corpus::embedding, settings),
        embedder,
        scope,
        qs,
        queries);

    ExactScan exact = new ExactScan(corpus.vectors());
    int from = 2 * queries * MODES.size();
    int[][] truth = new int[recallQueries][];
    for (int i = 0; i < recallQueries; i++) {
      truth[i] = exact.topK(qs.get(from + i).vector(), 10);
    }
    for (int ef : efSearches) {
      BenchStores.Settings searching =
          new BenchStores.Settings(settings.quantized(), ef, settings.layout());
      try (MemoryStore store =
          BenchStores.open(
              BenchStores.Kind.LUCENE, corpus, scope, space, corpus::embedding, searching)) {
        double recall = 0;
        long[] took = new long[recallQueries];
        for (int i = 0; i < recallQueries; i++) {
          float[] v = qs.get(from + i).vector();
          long start = System.nanoTime();
          int[] got =
              store.searchVector(scope, Embedding.of(v), 10).stream()
                  .mapToInt(h -> Integer.parseInt(h.id().value().substring("bench-".length())))
                  .toArray();
          took[i] = System.nanoTime() - start;
          recall += ExactScan.recall(truth[i], got);
        }
        Arrays.sort(took);
        out.printf(
            Locale.ROOT,
            "vector recall@10 against an exact scan, %d questions, efSearch %s: %.4f"
                + " (searchVector median %.2f ms, first pass over the questions)%n",
            recallQueries,
            ef == 0 ? "default" : Integer.toString(ef),
            recall / recallQueries,
            took[recallQueries / 2] / 1e6);
      }
    }
    out.printf(Locale.ROOT, "whole run %.0f s%n", (System.nanoTime() - t0) / 1e9);
  }

  /**
   * Times recall in each of {@link #MODES} ({@link RecallLatencyBenchmark#options}) through a
   * service over {@code storeFor.apply(m)} for mode {@code m}, which the service closes: {@code
   * queries} recalls after as many warm-up ones, on questions {@code 2·queries·m} onwards of {@code
   * qs}, none asked twice; prints the table header and a row per mode.
   */
  static void timeModes(
      PrintStream out,
      IntFunction<MemoryStore> storeFor,
      PrecomputedEmbedder embedder,
      Scope scope,
      List<SyntheticCorpus.Query> qs,
      int queries) {
    StepTimes.header(out);
    for (int m = 0; m < MODES.size(); m++) {
      try (MemoryService service =
          Memhook.builder()
              .store(storeFor.apply(m))
              .embedder(embedder)
              .recallOptions(RecallLatencyBenchmark.options(MODES.get(m)))
              .build()) {
        StepTimes.time(
            out,
            MODES.get(m) + " recall",
            2 * queries * m,
            queries,
            i -> service.recall(new RecallQuery(scope, qs.get(i).text(), 10)));
      }
    }
  }
}
