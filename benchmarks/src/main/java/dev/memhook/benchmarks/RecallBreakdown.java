package dev.memhook.benchmarks;

import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.core.Memhook;
import dev.memhook.core.RecallOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntConsumer;

/**
 * Where the time of one fused recall goes: each store call the recall engine makes, timed alone on
 * the same corpus and queries as {@link RecallLatencyBenchmark} ({@code searchText} and
 * {@code textScoreCeiling} at the engine's depth of 50, {@code searchVector} at 50,
 * {@code getAll} of 10 ids), then the whole {@code recall} through the service; the difference is
 * fusion, gate, session cap and object churn above the store.
 *
 * <p>Run:
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.RecallBreakdown --size 100000 --store lucene
 * </pre>
 * {@code --force-merge} runs on a separate cached index merged into one segment after the bulk
 * load ({@link dev.memhook.core.lucene.LuceneMemoryStore#forceMerge(int)}).
 * Figures are medians and p99 of {@code --queries} calls (default 1,000) after one warm-up pass.
 */
public final class RecallBreakdown {

  private RecallBreakdown() {}

  public static void main(String[] args) {
    int size = 100_000;
    int queries = 1_000;
    String storeName = "lucene";
    boolean merged = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--size" -> size = Integer.parseInt(args[++i]);
        case "--queries" -> queries = Integer.parseInt(args[++i]);
        case "--store" -> storeName = args[++i];
        case "--force-merge" -> merged = true;
        default -> {
          System.err.println("usage: RecallBreakdown [--size N] [--queries N] [--store lucene|memory] [--force-merge]");
          System.exit(2);
        }
      }
    }
    Scope scope = RecallLatencyBenchmark.SCOPE;
    SyntheticCorpus corpus = SyntheticCorpus.generate(RecallLatencyBenchmark.SEED, size, RecallLatencyBenchmark.DIMENSION);
    List<SyntheticCorpus.Query> qs = corpus.queries(7, queries);
    PrecomputedEmbedder.Builder eb = PrecomputedEmbedder.builder("bench-synthetic-d" + corpus.dimension(), corpus.dimension());
    qs.forEach(q -> eb.put(q.text(), q.vector()));
    PrecomputedEmbedder embedder = eb.build();
    EmbeddingSpace space = embedder.space();
    MemoryStore store = BenchStores.open(BenchStores.Kind.of(storeName), corpus, scope, space, corpus::embedding,
        BenchStores.Settings.DEFAULTS.withMerged(merged));
    int depth = RecallOptions.DEFAULT_CANDIDATES_PER_SIGNAL;
    Embedding[] vectors = qs.stream().map(q -> Embedding.of(q.vector())).toArray(Embedding[]::new);
    List<List<MemoryId>> top10 = new ArrayList<>();
    for (Embedding v : vectors) {
      top10.add(store.searchVector(scope, v, 10).stream().map(StoreHit::id).toList());
    }
    System.out.printf(Locale.ROOT, "%s, store %s%s, %d queries%n", corpus, storeName,
        merged ? " (force-merged into one segment)" : "", queries);
    System.out.println("| step | median ms | p99 ms |");
    System.out.println("|---|---|---|");
    time("searchText(k=50)", queries, i -> store.searchText(scope, qs.get(i).text(), depth));
    time("textScoreCeiling", queries, i -> store.textScoreCeiling(scope, qs.get(i).text()));
    time("searchVector(k=50)", queries, i -> store.searchVector(scope, vectors[i], depth));
    time("getAll(10 ids)", queries, i -> store.getAll(top10.get(i)));
    try (MemoryService fused = Memhook.builder().store(store).embedder(embedder).build()) {
      time("recall, fused defaults (whole)", queries, i -> fused.recall(new RecallQuery(scope, qs.get(i).text(), 10)));
    }
  }

  private static void time(String step, int n, IntConsumer call) {
    for (int i = 0; i < n; i++) {
      call.accept(i);
    }
    double[] ms = new double[n];
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      call.accept(i);
      ms[i] = (System.nanoTime() - t0) / 1e6;
    }
    Arrays.sort(ms);
    System.out.printf(Locale.ROOT, "| %s | %.3f | %.3f |%n", step, ms[n / 2], ms[Math.min(n - 1, (int) Math.ceil(0.99 * n) - 1)]);
  }
}
