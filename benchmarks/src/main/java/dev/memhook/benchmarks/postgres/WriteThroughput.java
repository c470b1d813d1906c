package dev.memhook.benchmarks.postgres;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.benchmarks.SyntheticCorpus;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.postgres.PostgresMemoryStore;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Part (a) of {@link SharedPostgresBench}: durable {@code MemoryService.remember} throughput (each
 * call returns after its transaction committed), with the hashing embedder so that the figure is
 * the write path's and not a model's. Two services over two stores with two pools on one schema
 * stand for two JVMs. The same {@code n} generated texts are written three times, each time into
 * fresh scopes: through instance A alone, through A and B at once into one shared scope, and
 * through A and B at once into a scope each. Every instance runs {@code writers} threads; the rate
 * is {@code n} over the wall time from the first call to the last return.
 *
 * <p>Checks itself: after each run the scopes hold exactly {@code n} memories, read through A
 * (polled up to {@link #COUNT_DEADLINE}, since B's writes reach A's reads within a bound, not at
 * once).
 */
final class WriteThroughput {
  /** How long A's count may take to reflect B's writes. */
  static final Duration COUNT_DEADLINE = Duration.ofSeconds(30);

  /** Writes per instance before timing: loads classes, JIT-compiles, opens the pool. */
  private static final int WARM_UP = 200;

  /**
   * One measured run.
   *
   * @param instances how many instances wrote
   * @param scopes which scopes they wrote into
   * @param memories how many memories were written in all
   * @param seconds the wall time of the writes
   */
  record Row(String instances, String scopes, int memories, double seconds) {
    double perSecond() {
      return memories / seconds;
    }
  }

  private WriteThroughput() {}

  static List<Row> run(BenchDatabase db, int n, int writers, PrintStream progress)
      throws Exception {
    String schema = db.newSchema("writes");
    List<String> texts =
        SyntheticCorpus.generate(7, n, 8).items().stream().map(SyntheticCorpus.Item::text).toList();
    try (MemoryService a = open(db, "writes-a", schema, writers);
        MemoryService b = open(db, "writes-b", schema, writers)) {
      warmUp(a, texts);
      warmUp(b, texts);
      List<Row> rows = new ArrayList<>();
      progress.println("(a) one instance ...");
      Scope alone = Scope.of("bench", "writes-alone");
      rows.add(time("1 (A)", "one", texts, writers, List.of(a), List.of(alone), a));
      progress.println("(a) two instances, one shared scope ...");
      Scope shared = Scope.of("bench", "writes-shared");
      rows.add(time("2 (A+B)", "one shared", texts, writers, List.of(a, b), List.of(shared), a));
      progress.println("(a) two instances, a scope each ...");
      List<Scope> own = List.of(Scope.of("bench", "writes-a"), Scope.of("bench", "writes-b"));
      rows.add(time("2 (A+B)", "one each", texts, writers, List.of(a, b), own, a));
      return rows;
    }
  }

  private static MemoryService open(BenchDatabase db, String name, String schema, int writers) {
    PostgresMemoryStore store =
        PostgresMemoryStore.builder().dataSource(db.pool(name, writers + 1)).schema(schema).build();
    return Memhook.builder().store(store).embedder(HashingEmbedder.create()).noCapture().build();
  }

  private static void warmUp(MemoryService service, List<String> texts) {
    Scope scope = Scope.of("bench", "writes-warm-up");
    for (int i = 0; i < WARM_UP; i++) {
      service.remember(MemoryDraft.of(scope, texts.get(i % texts.size())));
    }
  }

  /**
   * Writes every text once: instance {@code k} of {@code instances} writes into {@code scopes.get(k
   * % scopes.size())}, its {@code writers} threads taking every {@code threads}-th text, all
   * released at once.
   */
  private static Row time(
      String instancesLabel,
      String scopesLabel,
      List<String> texts,
      int writers,
      List<MemoryService> instances,
      List<Scope> scopes,
      MemoryService counter)
      throws Exception {
    int threads = instances.size() * writers;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        int instance = t / writers;
        MemoryService service = instances.get(instance);
        Scope scope = scopes.get(instance % scopes.size());
        done.add(
            pool.submit(
                () -> {
                  go.await();
                  for (int i = thread; i < texts.size(); i += threads) {
                    service.remember(MemoryDraft.of(scope, texts.get(i)));
                  }
                  return null;
                }));
      }
      long start = System.nanoTime();
      go.countDown();
      for (Future<?> f : done) {
        f.get(30, TimeUnit.MINUTES);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      checkCount(counter, scopes, texts.size());
      return new Row(instancesLabel, scopesLabel, texts.size(), seconds);
    } finally {
      pool.shutdownNow();
    }
  }

  private static void checkCount(MemoryService service, List<Scope> scopes, long expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + COUNT_DEADLINE.toNanos();
    long count;
    do {
      count = 0;
      for (Scope s : scopes) {
        count += service.maintenance().count(s);
      }
      if (count == expected) {
        return;
      }
      Thread.sleep(50);
    } while (System.nanoTime() - deadline < 0);
    throw new IllegalStateException(
        String.format(
            Locale.ROOT,
            "scopes %s hold %d memories after %s, expected %d: writes were lost or duplicated",
            scopes,
            count,
            COUNT_DEADLINE,
            expected));
  }
}
