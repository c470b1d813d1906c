package dev.memhook.benchmarks;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.core.Memhook;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Where the time of one fused recall goes: each store call the recall engine makes, timed alone on
 * the same corpus as {@link RecallLatencyBenchmark} ({@code searchText} with its score ceiling at
 * the engine's depth of 50, {@code searchVector} at 50, {@code getAll} of 10 ids nobody fetched
 * before (the best vector hits no other call read; fewer if a question's 100 nearest hold fewer
 * such), {@code searchRelated} with the concepts and files of the top 5 text hits, if the corpus
 * has any, {@code sessionWindows} of the top 5 text hits, two memories each side), then the whole
 * {@code recall} through the service; the difference is fusion, gate, session cap and object churn
 * above the store.
 *
 * <p>Run:
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.RecallBreakdown --size 100000 --store lucene
 * </pre>
 *
 * {@code --force-merge} runs on a separate cached index merged into one segment after the bulk load
 * ({@link dev.memhook.lucene.LuceneMemoryStore#forceMerge(int)}). Figures are medians and p99 of
 * {@code --queries} calls (default 1,000), each step measured on questions it has not seen, after a
 * warm-up pass over as many other questions: a repeated question would find its records in the
 * store's read cache, so {@code getAll} and the whole recall would time the cache instead.
 */
public final class RecallBreakdown {

  private RecallBreakdown() {}

  public static void main(String[] args) {
    StepTimes.main(args, RecallBreakdown::run);
  }

  /**
   * Runs with {@code args} as on the command line, printing the table to {@code out}.
   *
   * @throws IllegalArgumentException with the usage, for an unknown argument
   */
  static void run(String[] args, PrintStream out) {
    int size = 100_000;
    int queries = 1_000;
    String storeName = "lucene";
    BenchStores.Layout layout = BenchStores.Layout.AS_BUILT;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--size" -> size = CommandLine.count(args, ++i);
        case "--queries" -> queries = CommandLine.count(args, ++i);
        case "--store" -> storeName = CommandLine.value(args, ++i);
        case "--force-merge" -> layout = BenchStores.Layout.MERGED;
        case "--settled" -> layout = BenchStores.Layout.SETTLED;
        default ->
            throw new IllegalArgumentException(
                "usage: RecallBreakdown [--size N] [--queries N] [--store lucene|memory] [--force-merge|--settled]");
      }
    }
    Scope scope = RecallLatencyBenchmark.SCOPE;
    SyntheticCorpus corpus =
        SyntheticCorpus.generate(
            RecallLatencyBenchmark.SEED, size, RecallLatencyBenchmark.DIMENSION);
    // Four disjoint blocks of questions: warm-up and measurement for the store steps (the getAll
    // step
    // fetches the measured block's records, so they are cached from then on), then warm-up and
    // measurement for the whole recall.
    int n = queries;
    List<SyntheticCorpus.Query> qs = corpus.queries(7, 4 * n);
    PrecomputedEmbedder.Builder eb =
        PrecomputedEmbedder.builder("bench-synthetic-d" + corpus.dimension(), corpus.dimension());
    qs.forEach(q -> eb.put(q.text(), q.vector()));
    PrecomputedEmbedder embedder = eb.unrelatedForUnknown().build();
    EmbeddingSpace space = embedder.space();
    MemoryStore store =
        BenchStores.open(
            BenchStores.Kind.of(storeName),
            corpus,
            scope,
            space,
            corpus::embedding,
            BenchStores.Settings.DEFAULTS.withLayout(layout));
    int depth = RecallOptions.DEFAULT_CANDIDATES_PER_SIGNAL;
    Embedding[] vectors = qs.stream().map(q -> Embedding.of(q.vector())).toArray(Embedding[]::new);
    // For the getAll step: per question, the 10 best vector hits that no other call of the step
    // reads (questions on one topic share hits, and a record read once is cached).
    List<List<MemoryId>> unread10 = new ArrayList<>();
    Set<MemoryId> seen = new HashSet<>();
    for (int i = 0; i < 2 * n; i++) {
      List<MemoryId> ids = new ArrayList<>(10);
      for (StoreHit hit : store.searchVector(scope, vectors[i], 100)) {
        if (ids.size() < 10 && seen.add(hit.id())) {
          ids.add(hit.id());
        }
      }
      unread10.add(ids);
    }
    out.printf(
        Locale.ROOT,
        "%s, store %s%s, %d queries%n",
        corpus,
        storeName,
        layout == BenchStores.Layout.AS_BUILT ? "" : " (segments " + layout + ")",
        queries);
    StepTimes.header(out);
    StepTimes.time(
        out,
        "searchText(k=50, with ceiling)",
        0,
        n,
        i -> store.searchText(scope, qs.get(i).text(), depth));
    StepTimes.time(
        out, "searchVector(k=50)", 0, n, i -> store.searchVector(scope, vectors[i], depth));
    StepTimes.time(out, "getAll(10 ids, not cached)", 0, n, i -> store.getAll(unread10.get(i)));
    // The recall engine expands only from seeds with concepts or files; the generated corpus may
    // carry none, and then there is nothing to time (and no reason to read records to find out).
    boolean entities =
        IntStream.range(0, Math.min(100, corpus.size()))
            .mapToObj(i -> corpus.memory(i, scope))
            .anyMatch(m -> !m.concepts().isEmpty() || !m.files().isEmpty());
    if (!entities) {
      StepTimes.skipped(out, "searchRelated", "the corpus's memories carry no concepts or files");
    } else {
      // The step's input: the concepts and files of each question's top 5 text hits, read after the
      // getAll step so that step's records are not cached by it.
      List<Set<String>> concepts = new ArrayList<>();
      List<Set<String>> files = new ArrayList<>();
      for (int i = 0; i < 2 * n; i++) {
        Set<String> c = new LinkedHashSet<>();
        Set<String> f = new LinkedHashSet<>();
        List<MemoryId> top5 =
            store.searchText(scope, qs.get(i).text(), 5).hits().stream().map(StoreHit::id).toList();
        for (Memory m : store.getAll(top5).values()) {
          c.addAll(m.concepts());
          f.addAll(m.files());
        }
        concepts.add(c);
        files.add(f);
      }
      StepTimes.time(
          out,
          "searchRelated(top 5 text hits' entities)",
          0,
          n,
          i -> store.searchRelated(scope, concepts.get(i), files.get(i), depth + 5));
    }
    // Neighbouring turns: one sessionWindows call for the seeds (at most 5 top hits) with two
    // memories each side, then one getAll of what it found; the top 5 text hits stand in for the
    // seeds, as for searchRelated.
    List<List<MemoryId>> seeds = new ArrayList<>();
    for (int i = 0; i < 2 * n; i++) {
      seeds.add(
          store.searchText(scope, qs.get(i).text(), 5).hits().stream().map(StoreHit::id).toList());
    }
    StepTimes.time(
        out,
        "sessionWindows(top 5 text hits, span 2)",
        0,
        n,
        i -> store.sessionWindows(scope, seeds.get(i), 2));
    try (MemoryService fused = Memhook.builder().store(store).embedder(embedder).build()) {
      StepTimes.time(
          out,
          "recall, fused defaults (whole)",
          2 * n,
          n,
          i -> fused.recall(new RecallQuery(scope, qs.get(i).text(), 10)));
    }
  }
}
