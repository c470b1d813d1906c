package dev.memhook.benchmarks;

import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.Memhook;
import java.util.List;
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
 * Latency of one {@link MemoryService#recall} (limit 10) against corpus size, per retrieval mode:
 * {@code text} (BM25 only, {@code weights(1, 0, 0)}), {@code vector} (vectors only, {@code
 * weights(0, 1, 0)}), both with the relevance gate off so every query fetches and returns ten
 * records, and {@code fused} ({@link RecallOptions#defaults()}: text + vector + graph, session cap,
 * gate on: what a host gets).
 *
 * <p>The corpus is a {@link SyntheticCorpus} of developer-chat memories with vectors (384
 * dimensions unless {@code -p dimension=N}) correlated with their topic; queries come with
 * precomputed vectors served by a {@link PrecomputedEmbedder}, so no model runs. Memories are
 * written once per trial with {@code putAll} (see {@link BenchStores}); recall goes through the
 * public service, so fusion, the gate, the session cap and record fetches are measured.
 *
 * <p>Each call asks the next of {@value #QUERIES} generated questions, so with the settings below a
 * question is not asked twice in a run (except at 10k in text mode, the fastest, which wraps once):
 * a repeated question would find its records in the store's read cache and its analysed text
 * memoised, which a host asking a new question does not. Records other questions fetched stay
 * cached, as in a running host.
 *
 * <p>Checks itself: the setup fails if fewer than half of 50 queries get a top hit of the query's
 * topic, so a broken wiring cannot produce fast, meaningless numbers.
 *
 * <p>Run (sizes 10k and 100k; add {@code -p size=1000000 -jvmArgsAppend -Xmx12g} for the longer 1M
 * run):
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar RecallLatencyBenchmark -f 1 -wi 2 -w 2s -i 3 -r 3s
 * </pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx6g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class RecallLatencyBenchmark {

  /** Vector dimension of the corpus by default: that of all-MiniLM-L6-v2. */
  static final int DIMENSION = 384;

  static final long SEED = 42;

  /** Questions per trial, a power of two; about 50 MB of query vectors. */
  static final int QUERIES = 1 << 15;

  static final Scope SCOPE = Scope.of("bench", "recall");

  @Param({"10000", "100000"})
  public int size;

  @Param({"lucene", "memory"})
  public String store;

  @Param({"text", "vector", "fused"})
  public String mode;

  /**
   * Lucene segments: {@code asbuilt} (what the store's merge policy left after the bulk load),
   * {@code settled} (then merged by the store's idle merges) or {@code merged} (force-merged into
   * one, as after a bulk import); see {@link BenchStores.Layout}.
   */
  @Param({"asbuilt"})
  public String segments;

  /**
   * The corpus's vector dimension: {@value #DIMENSION} by default; 768 is that of two 384-dimension
   * models as one {@link dev.memhook.core.JointEmbedder}.
   */
  @Param({"384"})
  public int dimension;

  private MemoryService service;
  private List<SyntheticCorpus.Query> queries;
  private int next;

  /** Builds the corpus and the service once per trial, then checks a sample of answers. */
  @Setup(Level.Trial)
  public void setUp() {
    SyntheticCorpus corpus = SyntheticCorpus.generate(SEED, size, dimension);
    queries = corpus.queries(7, QUERIES);
    PrecomputedEmbedder.Builder embedder =
        PrecomputedEmbedder.builder("bench-synthetic-d" + dimension, dimension);
    queries.forEach(q -> embedder.put(q.text(), q.vector()));
    PrecomputedEmbedder built = embedder.unrelatedForUnknown().build();
    EmbeddingSpace space = built.space();
    MemoryStore memoryStore =
        BenchStores.open(
            BenchStores.Kind.of(store),
            corpus,
            SCOPE,
            space,
            corpus::embedding,
            BenchStores.Settings.DEFAULTS.withLayout(BenchStores.Layout.of(segments)));
    service =
        Memhook.builder().store(memoryStore).embedder(built).recallOptions(options(mode)).build();
    check(corpus);
  }

  /** The recall options of {@code mode}. */
  public static RecallOptions options(String mode) {
    return switch (mode) {
      case "text" -> RecallOptions.builder().weights(1, 0, 0).noRelevanceGate().build();
      case "vector" -> RecallOptions.builder().weights(0, 1, 0).noRelevanceGate().build();
      case "fused" -> RecallOptions.defaults();
      default ->
          throw new IllegalArgumentException(
              "unknown mode '" + mode + "'; known: text, vector, fused");
    };
  }

  private void check(SyntheticCorpus corpus) {
    int onTopic = 0;
    int sample = Math.min(50, queries.size());
    for (int i = 0; i < sample; i++) {
      SyntheticCorpus.Query q = queries.get(i);
      List<RecalledMemory> got = service.recall(new RecallQuery(SCOPE, q.text(), 10)).memories();
      if (!got.isEmpty() && corpus.topicOf(got.get(0).id()) == q.topic()) {
        onTopic++;
      }
    }
    if (onTopic * 2 < sample) {
      throw new IllegalStateException(
          "only "
              + onTopic
              + " of "
              + sample
              + " queries got an on-topic top hit in mode "
              + mode
              + "; the benchmark is not measuring a working recall");
    }
  }

  @Benchmark
  public RecallResult recall() {
    SyntheticCorpus.Query q = queries.get(next++ & (QUERIES - 1));
    return service.recall(new RecallQuery(SCOPE, q.text(), 10));
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (service != null) {
      service.close();
    }
  }
}
