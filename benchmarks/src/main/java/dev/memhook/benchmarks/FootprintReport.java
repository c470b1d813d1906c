package dev.memhook.benchmarks;

import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.lucene.LuceneMemoryStore;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Index size on disk and heap of {@code --size} memories (default 100,000) with 384-dimension
 * vectors: the Lucene store with and without scalar quantization, and the in-memory store, plus the
 * batched build rate ({@code putAll} of 1,000, precomputed vectors, group commit).
 *
 * <p>Heap is measured as used heap after three {@code System.gc()} calls, before and after: for
 * Lucene, before and after opening the built index and running 200 vector and text searches (so the
 * read caches hold what a running service holds); for the in-memory store, before and after filling
 * it. It is an estimate (the JVM may keep garbage); run with a fixed heap for stable figures.
 *
 * <p>Run:
 *
 * <pre>
 * java -Xmx6g -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.FootprintReport --size 100000
 * </pre>
 */
public final class FootprintReport {

  private FootprintReport() {}

  public static void main(String[] args) throws Exception {
    int size = 100_000;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--size")) {
        size = CommandLine.count(args, ++i);
      } else {
        System.err.println("usage: FootprintReport [--size N]");
        System.exit(2);
      }
    }
    Scope scope = Scope.of("bench", "footprint");
    SyntheticCorpus corpus =
        SyntheticCorpus.generate(
            RecallLatencyBenchmark.SEED, size, RecallLatencyBenchmark.DIMENSION);
    List<SyntheticCorpus.Query> queries = corpus.queries(3, 200);
    EmbeddingSpace space =
        new EmbeddingSpace("bench-synthetic-d" + corpus.dimension(), corpus.dimension());
    System.out.printf(
        Locale.ROOT, "%s; per-100k figures scale linearly from %d memories%n", corpus, size);
    System.out.println(
        "| store | build (memories/s) | on disk | heap (open, after 200 searches) |");
    System.out.println("|---|---|---|---|");
    for (boolean quantized : new boolean[] {false, true}) {
      Path dir = Files.createTempDirectory("memhook-footprint-");
      try {
        BenchStores.Settings settings = new BenchStores.Settings(quantized, 0);
        long t0 = System.nanoTime();
        try (LuceneMemoryStore store = BenchStores.lucene(dir, settings, true)) {
          BenchStores.fill(store, corpus, scope, space, corpus::embedding);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long disk = BenchStores.sizeOnDisk(dir);
        long before = usedHeap();
        long after;
        try (LuceneMemoryStore store = BenchStores.lucene(dir, settings, false)) {
          store.attach(space);
          exercise(store, scope, queries);
          after = usedHeap();
        }
        System.out.printf(
            Locale.ROOT,
            "| lucene%s | %.0f | %s | %s |%n",
            quantized ? " + scalar quantization" : "",
            size / seconds,
            mib(disk),
            mib(after - before));
      } finally {
        BenchStores.deleteRecursively(dir);
      }
    }
    long before = usedHeap();
    long t0 = System.nanoTime();
    MemoryStore memory = LuceneMemoryStore.inMemory();
    BenchStores.fill(memory, corpus, scope, space, corpus::embedding);
    double seconds = (System.nanoTime() - t0) / 1e9;
    exercise(memory, scope, queries.subList(0, 10));
    long after = usedHeap();
    System.out.printf(
        Locale.ROOT,
        "| memory (Lucene on a heap directory) | %.0f | - | %s |%n",
        size / seconds,
        mib(after - before));
    memory.close();
  }

  private static void exercise(
      MemoryStore store, Scope scope, List<SyntheticCorpus.Query> queries) {
    for (SyntheticCorpus.Query q : queries) {
      store.searchVector(scope, Embedding.of(q.vector()), 10).forEach(h -> store.get(h.id()));
      store.searchText(scope, q.text(), 10);
    }
  }

  private static long usedHeap() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
  }
}
