package dev.memhook.benchmarks;

import dev.memhook.api.Scope;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.store.FSDirectory;

/**
 * What the store's text search costs next to Lucene's own BM25 on the same index: the questions of
 * {@link RecallLatencyBenchmark}'s corpus through {@code searchText(k=50)} (analysis into three
 * variants, the score ceiling, the scope filter, reading the hits' ids), against a plain
 * disjunction of the question's lower-cased words on the content field run by an {@link
 * IndexSearcher} of its own (top 50, Lucene's defaults). Medians and p99 over the measured block,
 * after a warm-up block.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.TextSearchCost [--size N] [--queries N] [--force-merge]
 * </pre>
 *
 * For a profile of the store's side, run it with {@code
 * -XX:StartFlightRecording=filename=text.jfr,settings=profile} and {@code --only-store}.
 */
public final class TextSearchCost {

  private TextSearchCost() {}

  public static void main(String[] args) throws IOException {
    int size = 100_000;
    int queries = 2_000;
    boolean merged = false;
    boolean onlyStore = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--size" -> size = Integer.parseInt(args[++i]);
        case "--queries" -> queries = Integer.parseInt(args[++i]);
        case "--force-merge" -> merged = true;
        case "--only-store" -> onlyStore = true;
        default ->
            throw new IllegalArgumentException(
                "usage: TextSearchCost [--size N] [--queries N] [--force-merge] [--only-store]");
      }
    }
    Scope scope = RecallLatencyBenchmark.SCOPE;
    SyntheticCorpus corpus =
        SyntheticCorpus.generate(
            RecallLatencyBenchmark.SEED, size, RecallLatencyBenchmark.DIMENSION);
    List<SyntheticCorpus.Query> qs = corpus.queries(11, 2 * queries);
    PrecomputedEmbedder.Builder eb =
        PrecomputedEmbedder.builder("bench-synthetic-d" + corpus.dimension(), corpus.dimension());
    qs.forEach(q -> eb.put(q.text(), q.vector()));
    EmbeddingSpace space = eb.build().space();
    BenchStores.Settings settings = BenchStores.Settings.DEFAULTS.withMerged(merged);
    Path dir = BenchStores.indexDirectory(BenchStores.Kind.LUCENE, corpus, scope, space, settings);
    double[] store = new double[queries];
    try (MemoryStore s =
        BenchStores.open(
            BenchStores.Kind.LUCENE, corpus, scope, space, corpus::embedding, settings)) {
      for (int round = 0; round < (onlyStore ? 10 : 1); round++) {
        for (int i = 0; i < queries; i++) {
          s.searchText(scope, qs.get(i).text(), 50); // warm-up block
        }
        for (int i = 0; i < queries; i++) {
          long t = System.nanoTime();
          s.searchText(scope, qs.get(queries + i).text(), 50);
          store[i] = (System.nanoTime() - t) / 1e6;
        }
      }
    }
    System.out.printf(Locale.ROOT, "%s, index %s%n", corpus, dir.getFileName());
    print("store searchText(k=50)", store);
    if (onlyStore) {
      return;
    }
    double[] plain = new double[queries];
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      IndexSearcher searcher = new IndexSearcher(reader);
      System.out.printf(Locale.ROOT, "segments %d%n", reader.leaves().size());
      for (int i = 0; i < 2 * queries; i++) {
        long t = System.nanoTime();
        searcher.search(plainQuery(qs.get(i).text()), new TopScoreDocCollectorManager(50, 50));
        if (i >= queries) {
          plain[i - queries] = (System.nanoTime() - t) / 1e6;
        }
      }
    }
    print("plain BM25 disjunction (top 50)", plain);
  }

  private static BooleanQuery plainQuery(String text) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    List<String> seen = new ArrayList<>();
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (!w.isEmpty() && !seen.contains(w)) {
        seen.add(w);
        b.add(new TermQuery(new Term("text", w)), Occur.SHOULD);
      }
    }
    return b.build();
  }

  private static void print(String what, double[] ms) {
    double[] sorted = ms.clone();
    Arrays.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "%-34s median %.3f ms, p99 %.3f ms%n",
        what,
        sorted[sorted.length / 2],
        sorted[(int) (sorted.length * 0.99)]);
  }
}
