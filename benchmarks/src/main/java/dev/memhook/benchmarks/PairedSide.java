package dev.memhook.benchmarks;

import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.Memhook;
import java.util.List;
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
    System.setProperty("memhook.bench.dir", dir);
    Scope scope = RecallLatencyBenchmark.SCOPE;
    SyntheticCorpus corpus =
        SyntheticCorpus.generate(
            RecallLatencyBenchmark.SEED, 100_000, RecallLatencyBenchmark.DIMENSION);
    // SettledRecall's question stream, so both sides ask questions neither warm-up asked
    List<SyntheticCorpus.Query> qs = corpus.queries(7, questions);
    PrecomputedEmbedder.Builder eb =
        PrecomputedEmbedder.builder("bench-synthetic-d" + corpus.dimension(), corpus.dimension());
    qs.forEach(q -> eb.put(q.text(), q.vector()));
    PrecomputedEmbedder embedder = eb.unrelatedForUnknown().build();
    MemoryStore store =
        BenchStores.open(
            BenchStores.Kind.LUCENE,
            corpus,
            scope,
            embedder.space(),
            corpus::embedding,
            BenchStores.Settings.DEFAULTS.withLayout(BenchStores.Layout.IDLE));
    MemoryService service =
        Memhook.builder()
            .store(store)
            .embedder(embedder)
            .recallOptions(RecallLatencyBenchmark.options(mode))
            .build();
    return i -> service.recall(new RecallQuery(scope, qs.get(i).text(), 10));
  }
}
