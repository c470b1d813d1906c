package dev.memhook.benchmarks.postgres;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.benchmarks.BenchStores;
import dev.memhook.benchmarks.PrecomputedEmbedder;
import dev.memhook.benchmarks.RecallLatencyBenchmark;
import dev.memhook.benchmarks.SyntheticCorpus;
import dev.memhook.benchmarks.Unowned;
import dev.memhook.core.Memhook;
import dev.memhook.postgres.PostgresMemoryStore;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Part (c) of {@link SharedPostgresBench}: the latency of one {@code MemoryService.recall} (limit
 * 10) in the modes of {@link RecallLatencyBenchmark} ({@code text}, {@code vector}, {@code fused}),
 * on the same {@link SyntheticCorpus} and the same questions, through a {@link PostgresMemoryStore}
 * and through the embedded {@code LuceneMemoryStore} on disk ({@link BenchStores}, whose cached
 * index is reused between runs). Question vectors come from a {@link PrecomputedEmbedder}, so no
 * model runs.
 *
 * <p>Per store and mode, a fresh service over the already filled store first recalls {@code warmUp}
 * questions (which loads the PostgreSQL store's vectors into its cache and warms the JIT), then
 * times {@code queries} other questions, the same ones for both stores, so no timed question was
 * asked before by that service.
 *
 * <p>Checks itself: each row counts the timed questions whose top hit is of the question's topic;
 * {@link Row#passed()} is false below half, and the harness then exits with status 1, as a fast
 * figure from a broken recall means nothing.
 */
final class RecallComparison {
  /** The corpus's vector dimension, that of all-MiniLM-L6-v2 as in the other recall benchmarks. */
  private static final int DIMENSION = 384;

  private static final long SEED = 42;
  private static final Scope SCOPE = Scope.of("bench", "recall");
  private static final List<String> MODES = List.of("text", "vector", "fused");

  /**
   * One measured row.
   *
   * @param store {@code postgres} or {@code lucene}
   * @param mode the recall mode
   * @param latency one recall's latency
   * @param onTopic timed questions whose top hit was of their topic
   */
  record Row(String store, String mode, Latencies latency, int onTopic) {
    boolean passed() {
      return onTopic * 2 >= latency.count();
    }
  }

  private RecallComparison() {}

  static List<Row> run(BenchDatabase db, int size, int warmUp, int queries, PrintStream progress) {
    SyntheticCorpus corpus = SyntheticCorpus.generate(SEED, size, DIMENSION);
    List<SyntheticCorpus.Query> questions = corpus.queries(7, warmUp + queries);
    PrecomputedEmbedder.Builder vectors =
        PrecomputedEmbedder.builder("bench-synthetic-d" + DIMENSION, DIMENSION);
    questions.forEach(q -> vectors.put(q.text(), q.vector()));
    PrecomputedEmbedder embedder = vectors.unrelatedForUnknown().build();
    EmbeddingSpace space = embedder.space();

    Map<String, MemoryStore> stores = new LinkedHashMap<>();
    try {
      progress.printf("(c) filling PostgreSQL with %,d memories ...%n", size);
      long start = System.nanoTime();
      stores.put("postgres", postgres(db, corpus, space));
      progress.printf("(c) filled in %.1f s%n", (System.nanoTime() - start) / 1e9);
      progress.printf("(c) opening the Lucene store (built once, then cached) ...%n");
      stores.put(
          "lucene",
          BenchStores.open(
              BenchStores.Kind.LUCENE,
              corpus,
              SCOPE,
              space,
              corpus::embedding,
              BenchStores.Settings.DEFAULTS));
      List<Row> rows = new ArrayList<>();
      for (String mode : MODES) {
        for (Map.Entry<String, MemoryStore> store : stores.entrySet()) {
          progress.printf("(c) %s, %s ...%n", store.getKey(), mode);
          rows.add(
              measure(store.getKey(), store.getValue(), embedder, mode, corpus, questions, warmUp));
        }
      }
      return rows;
    } finally {
      stores.values().forEach(MemoryStore::close);
    }
  }

  private static MemoryStore postgres(
      BenchDatabase db, SyntheticCorpus corpus, EmbeddingSpace space) {
    PostgresMemoryStore store =
        PostgresMemoryStore.builder()
            .dataSource(db.pool("recall", 4))
            .schema(db.newSchema("recall"))
            .build();
    store.attach(space);
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    for (int i = 0; i < corpus.size(); i++) {
      batch.put(corpus.memory(i, SCOPE), corpus.embedding(i));
      if (batch.size() == 1_000 || i == corpus.size() - 1) {
        store.putAll(batch);
        batch.clear();
      }
    }
    return store;
  }

  private static Row measure(
      String name,
      MemoryStore store,
      PrecomputedEmbedder embedder,
      String mode,
      SyntheticCorpus corpus,
      List<SyntheticCorpus.Query> questions,
      int warmUp) {
    try (MemoryService service =
        Memhook.builder()
            .store(Unowned.store(store))
            .embedder(Unowned.embedder(embedder))
            .recallOptions(RecallLatencyBenchmark.options(mode))
            .noCapture()
            .build()) {
      for (int i = 0; i < warmUp; i++) {
        service.recall(new RecallQuery(SCOPE, questions.get(i).text(), 10));
      }
      int timed = questions.size() - warmUp;
      long[] nanos = new long[timed];
      int onTopic = 0;
      for (int i = 0; i < timed; i++) {
        SyntheticCorpus.Query q = questions.get(warmUp + i);
        long start = System.nanoTime();
        List<RecalledMemory> got = service.recall(new RecallQuery(SCOPE, q.text(), 10)).memories();
        nanos[i] = System.nanoTime() - start;
        if (!got.isEmpty() && corpus.topicOf(got.get(0).memory().id()) == q.topic()) {
          onTopic++;
        }
      }
      return new Row(name, mode, Latencies.ofNanos(nanos), onTopic);
    }
  }
}
