package dev.memhook.benchmarks;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Top-10 vector search side by side, same vectors, same queries: Memhook's vector signal ({@link
 * MemoryStore#searchVector} on the store named by {@code impl}), LangChain4j's {@link
 * InMemoryEmbeddingStore} ({@code search} with an {@link EmbeddingSearchRequest}), and a plain
 * exact scan over {@code float[][]} ({@link ExactScan}).
 *
 * <p>Checks itself: the setup measures each implementation's recall@10 against the exact scan over
 * {@value #RECALL_QUERIES} queries, prints it ({@code [recall@10] ...}) and fails if it is below
 * 0.5. {@link VectorRecallCheck} sweeps the HNSW search width.
 *
 * <p>Run:
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar VectorSearchBenchmark -f 1 -wi 2 -w 2s -i 3 -r 3s
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx6g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class VectorSearchBenchmark {

  static final int K = 10;
  static final int QUERIES = 1_024;
  static final int RECALL_QUERIES = 200;
  static final Scope SCOPE = Scope.of("bench", "vectors");

  @Param({"10000", "100000"})
  public int size;

  /**
   * {@code memhook-lucene} (HNSW; {@code memhook-memory}, the exact in-memory store, with {@code -p
   * impl=...}), {@code langchain4j}, {@code exact}.
   */
  @Param({"memhook-lucene", "langchain4j", "exact"})
  public String impl;

  /** HNSW candidates per search for a Lucene store; 0 keeps the store's default. */
  @Param({"0"})
  public int efSearch;

  /**
   * Lucene segments (memhook-lucene only): {@code asbuilt}, {@code settled} or {@code merged}, as
   * in {@link RecallLatencyBenchmark}.
   */
  @Param({"asbuilt"})
  public String segments;

  private SyntheticCorpus corpus;
  private float[][] queryVectors;
  private Embedding[] memhookQueries;
  private dev.langchain4j.data.embedding.Embedding[] lc4jQueries;
  private MemoryStore store;
  private InMemoryEmbeddingStore<TextSegment> lc4j;
  private ExactScan exact;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    corpus =
        SyntheticCorpus.generate(
            RecallLatencyBenchmark.SEED, size, RecallLatencyBenchmark.DIMENSION);
    List<SyntheticCorpus.Query> queries = corpus.queries(11, QUERIES);
    queryVectors = new float[QUERIES][];
    for (int i = 0; i < QUERIES; i++) {
      queryVectors[i] = queries.get(i).vector();
    }
    exact = new ExactScan(corpus.vectors());
    switch (impl) {
      case "exact" -> {}
      case "langchain4j" -> {
        lc4j = langChain4jStore(corpus);
        lc4jQueries = new dev.langchain4j.data.embedding.Embedding[QUERIES];
        for (int i = 0; i < QUERIES; i++) {
          lc4jQueries[i] = dev.langchain4j.data.embedding.Embedding.from(queryVectors[i]);
        }
      }
      default -> {
        String storeName = impl.startsWith("memhook-") ? impl.substring("memhook-".length()) : impl;
        EmbeddingSpace space =
            new EmbeddingSpace("bench-synthetic-d" + corpus.dimension(), corpus.dimension());
        store =
            BenchStores.open(
                BenchStores.Kind.of(storeName),
                corpus,
                SCOPE,
                space,
                corpus::embedding,
                new BenchStores.Settings(false, efSearch, BenchStores.Layout.of(segments)));
        memhookQueries = new Embedding[QUERIES];
        for (int i = 0; i < QUERIES; i++) {
          memhookQueries[i] = Embedding.of(queryVectors[i]);
        }
      }
    }
    double recall = recallAt10();
    System.out.printf(
        Locale.ROOT,
        "%n[recall@10] impl=%s size=%d efSearch=%d recall@10=%.4f over %d queries%n",
        impl,
        size,
        efSearch,
        recall,
        RECALL_QUERIES);
    if (recall < 0.5) {
      throw new IllegalStateException(
          impl + " has recall@10 " + recall + " against the exact scan; not a working search");
    }
  }

  /** LangChain4j's in-memory store holding the corpus vectors under the corpus ids. */
  static InMemoryEmbeddingStore<TextSegment> langChain4jStore(SyntheticCorpus corpus) {
    InMemoryEmbeddingStore<TextSegment> s = new InMemoryEmbeddingStore<>();
    List<String> ids = new ArrayList<>(corpus.size());
    List<dev.langchain4j.data.embedding.Embedding> vectors = new ArrayList<>(corpus.size());
    List<TextSegment> segments = new ArrayList<>(corpus.size());
    for (SyntheticCorpus.Item item : corpus.items()) {
      ids.add(item.id().value());
      vectors.add(dev.langchain4j.data.embedding.Embedding.from(corpus.vector(item.index())));
      segments.add(TextSegment.from(item.text()));
    }
    s.addAll(ids, vectors, segments);
    return s;
  }

  private double recallAt10() {
    double sum = 0;
    for (int i = 0; i < RECALL_QUERIES; i++) {
      sum += ExactScan.recall(exact.topK(queryVectors[i], K), indices(i));
    }
    return sum / RECALL_QUERIES;
  }

  /** The corpus indices {@code impl} returns for query {@code i}. */
  private int[] indices(int i) {
    return switch (impl) {
      case "exact" -> exact.topK(queryVectors[i], K);
      case "langchain4j" ->
          lc4j.search(request(lc4jQueries[i])).matches().stream()
              .mapToInt(m -> index(m.embeddingId()))
              .toArray();
      default ->
          store.searchVector(SCOPE, memhookQueries[i], K).stream()
              .mapToInt(h -> index(h.id().value()))
              .toArray();
    };
  }

  private static int index(String id) {
    return Integer.parseInt(id.substring("bench-".length()));
  }

  private static EmbeddingSearchRequest request(dev.langchain4j.data.embedding.Embedding query) {
    return EmbeddingSearchRequest.builder()
        .queryEmbedding(query)
        .maxResults(K)
        .minScore(0.0)
        .build();
  }

  @Benchmark
  public Object search() {
    int i = next++ & (QUERIES - 1);
    return switch (impl) {
      case "exact" -> exact.topK(queryVectors[i], K);
      case "langchain4j" -> lc4j.search(request(lc4jQueries[i])).matches();
      default -> store.searchVector(SCOPE, memhookQueries[i], K);
    };
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (store != null) {
      store.close();
    }
  }
}
