package dev.memhook.benchmarks;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * What the store's idle merges cost a store that is written to between quiet periods, as a
 * conversation writes to it: a settled store of {@code size} synthetic memories (the one {@link
 * SettledRecall} builds and keeps), copied, then {@code rounds} rounds of {@code writes} new
 * memories written one at a time, each round followed by the wait for the store's own idle merges
 * (its default idle delay, 15 s, then the merges). Per round it prints the segment count the merges
 * left and the bytes of segments they wrote (the segments of the settled commit that were not in
 * the commit before the round: what was merged, flushes included); at the end, text, vector and
 * fused recall (as {@link SettledRecall} measures them) on the store as the rounds left it.
 *
 * <pre>{@code
 * java -Xmx6g -Dmemhook.bench.dir=DIR -cp benchmarks/target/benchmarks.jar \
 *     dev.memhook.benchmarks.QuietWrites [--size 100000] [--rounds 8] [--writes 20] [--queries 2000]
 * }</pre>
 *
 * Not thread-safe; a command-line harness.
 */
public final class QuietWrites {
  private QuietWrites() {}

  public static void main(String[] args) throws Exception {
    int size = 100_000;
    int rounds = 8;
    int writes = 20;
    int queries = 2_000;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--size" -> size = CommandLine.count(args, ++i);
        case "--rounds" -> rounds = CommandLine.count(args, ++i);
        case "--writes" -> writes = CommandLine.count(args, ++i);
        case "--queries" -> queries = CommandLine.count(args, ++i);
        default ->
            throw new IllegalArgumentException(
                "usage: QuietWrites [--size N] [--rounds N] [--writes N] [--queries N]");
      }
    }
    PrintStream out = System.out;
    Scope scope = RecallLatencyBenchmark.SCOPE;
    SyntheticCorpus corpus =
        SyntheticCorpus.generate(
            RecallLatencyBenchmark.SEED, size, RecallLatencyBenchmark.DIMENSION);
    List<SyntheticCorpus.Query> qs = corpus.queries(7, 2 * queries * SettledRecall.MODES.size());
    PrecomputedEmbedder.Builder eb =
        PrecomputedEmbedder.builder("bench-synthetic-d" + corpus.dimension(), corpus.dimension());
    qs.forEach(q -> eb.put(q.text(), q.vector()));
    PrecomputedEmbedder embedder = eb.unrelatedForUnknown().build();
    EmbeddingSpace space = embedder.space();
    BenchStores.Settings settings =
        BenchStores.Settings.DEFAULTS.withLayout(BenchStores.Layout.IDLE);
    // built and settled, or kept: only its directory is used below
    BenchStores.open(BenchStores.Kind.LUCENE, corpus, scope, space, corpus::embedding, settings)
        .close();
    Path settled =
        BenchStores.indexDirectory(BenchStores.Kind.LUCENE, corpus, scope, space, settings);
    Path run = Files.createTempDirectory("memhook-quiet-writes");
    Path index = run.resolve("index");
    BenchStores.copyIndex(settled, index);
    out.printf(
        Locale.ROOT,
        "%s: %d rounds of %d writes, each followed by the store's idle merges, Java %s%n",
        corpus,
        rounds,
        writes,
        Runtime.version());
    out.printf(Locale.ROOT, "before: %s%n", describe(segments(index)));

    long totalWritten = 0;
    long totalWait = 0;
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).build()) {
      store.attach(space);
      int next = 0;
      for (int r = 1; r <= rounds; r++) {
        Map<String, Long> before = segments(index);
        for (int w = 0; w < writes; w++, next++) {
          int item = next % corpus.size();
          Memory m =
              corpus.memory(item, scope).toBuilder()
                  .id(MemoryId.of(String.format(Locale.ROOT, "later-%08d", next)))
                  .build();
          store.put(m, corpus.embedding(item));
        }
        long lastWrite = System.nanoTime();
        IdleSettling.awaitQuiet(index);
        long waited = System.nanoTime() - lastWrite;
        Map<String, Long> after = segments(index);
        long written = 0;
        for (Map.Entry<String, Long> e : after.entrySet()) {
          if (!before.containsKey(e.getKey())) {
            written += e.getValue();
          }
        }
        totalWritten += written;
        totalWait += waited;
        out.printf(
            Locale.ROOT,
            "round %d: settled %.0f s after its last write; %.1f MB of new segments; %s%n",
            r,
            waited / 1e9,
            written / 1048576.0,
            describe(after));
      }
    }
    out.printf(
        Locale.ROOT,
        "in all: %.1f MB of new segments for %d memories written; %.0f s from last writes to"
            + " settled%n",
        totalWritten / 1048576.0,
        rounds * writes,
        totalWait / 1e9);

    SettledRecall.timeModes(
        out,
        m -> {
          LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).build();
          store.attach(space);
          return store;
        },
        embedder,
        scope,
        qs,
        queries);
    BenchStores.deleteRecursively(run);
  }

  /** The latest commit's segments in {@code dir}, by name, with their size in bytes. */
  private static Map<String, Long> segments(Path dir) {
    try (Directory d = FSDirectory.open(dir)) {
      Map<String, Long> sizes = new HashMap<>();
      for (SegmentCommitInfo info : SegmentInfos.readLatestCommit(d)) {
        sizes.put(info.info.name, info.sizeInBytes());
      }
      return sizes;
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the commit of " + dir, e);
    }
  }

  /** The segment count and sizes, largest first, in MB. */
  private static String describe(Map<String, Long> segments) {
    StringBuilder b = new StringBuilder().append(segments.size()).append(" segments (MB:");
    segments.values().stream()
        .sorted((x, y) -> Long.compare(y, x))
        .forEach(s -> b.append(String.format(Locale.ROOT, " %.1f", s / 1048576.0)));
    return b.append(')').toString();
  }
}
