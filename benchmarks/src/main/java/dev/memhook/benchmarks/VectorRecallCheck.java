package dev.memhook.benchmarks;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * Recall@10 of Memhook's HNSW vector search against the exact answer, per HNSW search width ({@code
 * efSearch}), with the mean latency of each competitor on the same queries: the accuracy side of
 * {@link VectorSearchBenchmark}, and the sweep that picks the search width.
 *
 * <p>Run:
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.VectorRecallCheck \
 *     --size 100000 --ef 50,100,200,400 [--quantized] [--force-merge] [--no-langchain4j]
 * </pre>
 *
 * {@code --force-merge} runs the sweep on the cached index merged into one segment with {@link
 * LuceneMemoryStore#forceMerge(int)} (as {@code segments=merged} in the JMH benchmarks). Latencies
 * here are simple means over {@code --queries} queries after one warm-up pass, for orientation; the
 * JMH figures come from {@link VectorSearchBenchmark}.
 */
public final class VectorRecallCheck {

  private VectorRecallCheck() {}

  public static void main(String[] args) throws IOException {
    int size = 100_000;
    int queries = 500;
    int[] efs = {50, 100, 200, 400};
    boolean quantized = false;
    boolean forceMerge = false;
    boolean langChain4j = true;
    String usage =
        "usage: VectorRecallCheck [--size N] [--queries N] [--ef 50,100,200] [--quantized]"
            + " [--force-merge] [--no-langchain4j]";
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--size" -> size = CommandLine.count(args, ++i);
          case "--queries" -> queries = CommandLine.count(args, ++i);
          case "--ef" ->
              efs =
                  Arrays.stream(CommandLine.value(args, ++i).split(","))
                      .mapToInt(ef -> CommandLine.count("--ef", ef))
                      .toArray();
          case "--quantized" -> quantized = true;
          case "--force-merge" -> forceMerge = true;
          case "--no-langchain4j" -> langChain4j = false;
          default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
        }
      }
    } catch (IllegalArgumentException e) {
      // a malformed value is a usage error, as for the harnesses that parse through parseOrExit
      System.err.println(e.getMessage() + "\n" + usage);
      System.exit(2);
    }
    Scope scope = VectorSearchBenchmark.SCOPE;
    SyntheticCorpus corpus =
        SyntheticCorpus.generate(
            RecallLatencyBenchmark.SEED, size, RecallLatencyBenchmark.DIMENSION);
    List<SyntheticCorpus.Query> qs = corpus.queries(11, queries);
    EmbeddingSpace space =
        new EmbeddingSpace("bench-synthetic-d" + corpus.dimension(), corpus.dimension());
    BenchStores.Settings base = new BenchStores.Settings(quantized, 0, layout(forceMerge));
    long t0 = System.nanoTime();
    BenchStores.open(BenchStores.Kind.LUCENE, corpus, scope, space, corpus::embedding, base)
        .close();
    System.out.printf(
        Locale.ROOT,
        "corpus %s, index ready in %.1f s (built or reused)%n",
        corpus,
        (System.nanoTime() - t0) / 1e9);
    Path dir = BenchStores.indexDirectory(BenchStores.Kind.LUCENE, corpus, scope, space, base);
    System.out.println("index " + dir + ": segments " + segments(dir));

    ExactScan exact = new ExactScan(corpus.vectors());
    int[][] truth = new int[queries][];
    for (int i = 0; i < queries; i++) {
      truth[i] = exact.topK(qs.get(i).vector(), 10);
    }
    double exactMicros = timeMicros(queries, i -> exact.topK(qs.get(i).vector(), 10));
    double lc4jMicros = langChain4j ? langChain4jMicros(corpus, qs) : Double.NaN;
    System.out.printf(
        Locale.ROOT,
        "size=%d quantized=%b queries=%d: exact scan %.0f us, LangChain4j in-memory %.0f us%n",
        size,
        quantized,
        queries,
        exactMicros,
        lc4jMicros);
    System.out.println(
        "| efSearch | recall@10 vs exact | Memhook mean us | vs LangChain4j | vs exact scan |");
    System.out.println("|---|---|---|---|---|");
    for (int ef : efs) {
      try (MemoryStore store =
          BenchStores.lucene(
              dir, new BenchStores.Settings(quantized, ef, layout(forceMerge)), false)) {
        store.attach(space);
        Embedding[] mq = new Embedding[queries];
        for (int i = 0; i < queries; i++) {
          mq[i] = Embedding.of(qs.get(i).vector());
        }
        double recall = 0;
        for (int i = 0; i < queries; i++) {
          int[] got =
              store.searchVector(scope, mq[i], 10).stream()
                  .mapToInt(h -> Integer.parseInt(h.id().value().substring("bench-".length())))
                  .toArray();
          recall += ExactScan.recall(truth[i], got);
        }
        recall /= queries;
        double micros = timeMicros(queries, i -> store.searchVector(scope, mq[i], 10));
        System.out.printf(
            Locale.ROOT,
            "| %d | %.4f | %.0f | %.1fx faster | %.1fx faster |%n",
            ef,
            recall,
            micros,
            lc4jMicros / micros,
            exactMicros / micros);
      }
    }
    System.out.println(
        "(Lucene HNSW defaults: maxConn "
            + LuceneMemoryStore.Builder.DEFAULT_HNSW_MAX_CONN
            + ", beamWidth "
            + LuceneMemoryStore.Builder.DEFAULT_HNSW_BEAM_WIDTH
            + ", efSearch default "
            + LuceneMemoryStore.Builder.DEFAULT_EF_SEARCH
            + ")");
  }

  /** The number of segments of the index in {@code dir}. */
  static int segments(Path dir) throws IOException {
    try (Directory d = FSDirectory.open(dir);
        DirectoryReader r = DirectoryReader.open(d)) {
      return r.leaves().size();
    }
  }

  /** Mean microseconds per call over {@code n} calls, after one warm-up pass. */
  private static double timeMicros(int n, java.util.function.IntFunction<Object> call) {
    Object sink = null;
    for (int i = 0; i < n; i++) {
      sink = call.apply(i);
    }
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      sink = call.apply(i);
    }
    long elapsed = System.nanoTime() - t0;
    if (sink == null) {
      throw new AssertionError("no result");
    }
    return elapsed / 1e3 / n;
  }

  /** The mean latency of LangChain4j's in-memory store on the same queries. */
  private static double langChain4jMicros(SyntheticCorpus corpus, List<SyntheticCorpus.Query> qs) {
    InMemoryEmbeddingStore<TextSegment> lc4j = VectorSearchBenchmark.langChain4jStore(corpus);
    dev.langchain4j.data.embedding.Embedding[] lq =
        new dev.langchain4j.data.embedding.Embedding[qs.size()];
    for (int i = 0; i < qs.size(); i++) {
      lq[i] = dev.langchain4j.data.embedding.Embedding.from(qs.get(i).vector());
    }
    return timeMicros(
        qs.size(),
        i ->
            lc4j.search(
                EmbeddingSearchRequest.builder()
                    .queryEmbedding(lq[i])
                    .maxResults(10)
                    .minScore(0.0)
                    .build()));
  }

  private static BenchStores.Layout layout(boolean forceMerge) {
    return forceMerge ? BenchStores.Layout.MERGED : BenchStores.Layout.AS_BUILT;
  }
}
