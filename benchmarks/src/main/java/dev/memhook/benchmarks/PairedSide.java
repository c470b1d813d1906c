package dev.memhook.benchmarks;

import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.SimilarityCalibration;
import dev.memhook.core.Memhook;
import java.util.List;
import java.util.Optional;
import java.util.function.IntConsumer;

/**
 * One side of a {@link PairedJars} comparison: the kept settled index of {@link SettledRecall}
 * under {@code dir}, opened by the classes of the jar this class was loaded with, and a recall of
 * the {@code i}th question. {@link PairedJars} loads this class into each jar's own class loader,
 * so it uses only what every benchmarks jar since {@code SettledRecall} has.
 *
 * <p>Not thread-safe; one per side.
 */
public final class PairedSide {
  private PairedSide() {}

  /**
   * Opens the 100,000-memory settled index under {@code dir} ({@code memhook.bench.dir}), building
   * it if it is not kept there, and returns a recall of question {@code i} of {@code questions} in
   * {@code mode} ({@link RecallLatencyBenchmark#options}). The service stays open until the JVM
   * exits.
   */
  public static IntConsumer open(String dir, int questions, String mode) {
    return open(dir, questions, mode, 0);
  }

  /**
   * {@link #open(String, int, String)} with each query's embedding taking {@code embedMicros} (the
   * precomputed vector, returned after the calling thread has spun that long): a model's cost
   * without the model, so that a recall's vector side outlasts its text search as it does with one.
   */
  public static IntConsumer open(String dir, int questions, String mode, long embedMicros) {
    return open(dir, questions, mode, embedMicros, 100_000);
  }

  /**
   * {@link #open(String, int, String, long)} over {@link SettledRecall}'s kept index of {@code
   * size} memories.
   */
  public static IntConsumer open(
      String dir, int questions, String mode, long embedMicros, int size) {
    System.setProperty("memhook.bench.dir", dir);
    Scope scope = RecallLatencyBenchmark.SCOPE;
    SyntheticCorpus corpus =
        SyntheticCorpus.generate(
            RecallLatencyBenchmark.SEED, size, RecallLatencyBenchmark.DIMENSION);
    // SettledRecall's question stream, so both sides ask questions neither warm-up asked
    List<SyntheticCorpus.Query> qs = corpus.queries(7, questions);
    PrecomputedEmbedder.Builder eb =
        PrecomputedEmbedder.builder("bench-synthetic-d" + corpus.dimension(), corpus.dimension());
    qs.forEach(q -> eb.put(q.text(), q.vector()));
    PrecomputedEmbedder precomputed = eb.unrelatedForUnknown().build();
    Embedder embedder = embedMicros <= 0 ? precomputed : new Spinning(precomputed, embedMicros);
    MemoryStore store =
        BenchStores.open(
            BenchStores.Kind.LUCENE,
            corpus,
            scope,
            precomputed.space(),
            corpus::embedding,
            BenchStores.Settings.DEFAULTS.withLayout(BenchStores.Layout.IDLE));
    MemoryService service =
        Memhook.builder()
            .store(store)
            .embedder(embedder)
            .recallOptions(options(mode, embedMicros))
            .build();
    return i -> service.recall(new RecallQuery(scope, qs.get(i).text(), 10));
  }

  /**
   * The recall options of {@code mode} ({@link RecallLatencyBenchmark#options}); with a model's
   * time ({@code embedMicros} above 0), without the query-embedding cache. The synthetic question
   * stream repeats its texts (about 5,400 distinct in the 12,000 of a 3,000-question run), and a
   * cached embedding would skip the time the flag stands for on a repeated text, on each side as
   * often as it happened to ask that text before. Without the cache every recall embeds, as a new
   * question does; a build that embeds one question more than once in a recall still pays once, as
   * its cache would make it ({@link Spinning}).
   */
  static RecallOptions options(String mode, long embedMicros) {
    RecallOptions options = RecallLatencyBenchmark.options(mode);
    return embedMicros > 0 ? options.toBuilder().queryCacheSize(0).build() : options;
  }

  /**
   * An embedder whose embedding of a text takes at least a set time, spun on the calling thread,
   * unless the text is the one it embedded last: a recall that embeds its question twice (older
   * builds did, and their query cache answered the second) pays once, and the next recall's
   * question, another text, pays again. Thread-safe: one side's recalls run one at a time, each
   * perhaps embedding on a thread of its own.
   */
  static final class Spinning implements Embedder {
    private final Embedder inner;
    private final long nanos;
    private String last;
    private int spins;

    Spinning(Embedder inner, long micros) {
      this.inner = inner;
      this.nanos = micros * 1_000;
    }

    @Override
    public Embedding embed(String text) {
      long until = System.nanoTime() + nanos;
      Embedding e = inner.embed(text);
      synchronized (this) {
        if (text.equals(last)) {
          return e;
        }
        last = text;
        spins++;
      }
      while (System.nanoTime() < until) {
        Thread.onSpinWait();
      }
      return e;
    }

    /** How many embeddings paid the time so far. */
    synchronized int spins() {
      return spins;
    }

    @Override
    public int dimension() {
      return inner.dimension();
    }

    @Override
    public String modelId() {
      return inner.modelId();
    }

    @Override
    public EmbeddingSpace space() {
      return inner.space();
    }

    @Override
    public Optional<SimilarityCalibration> similarityCalibration() {
      return inner.similarityCalibration();
    }
  }
}
