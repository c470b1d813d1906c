package dev.memhook.benchmarks;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;

/**
 * What one forget costs, and what the segment cap that bounds it costs searches: for each {@code
 * maxSegmentMB} given, a store of {@code memories} synthetic memories with 384-dimension vectors is
 * written in batches (so natural merges shape its segments), then forgets and searches are timed
 * side by side on it. The store purges before each forget returns ({@code purgeDelay(ZERO)}), so a
 * forget's time is its purge's: the rewrite of the segment that held the memory, vector graph
 * included, whose cost follows the segment size. (A store's default forget destroys the record's
 * key and leaves that rewrite to the background: {@code ForgetLatency} times it.)
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.ForgetCost \
 *     [memories=20000] [forgets=15] [caps=5120,64,32,16] [settled=false]
 * }</pre>
 *
 * <p>With {@code settled=true} the store's idle merges run after the load and are waited for before
 * the first round ({@link IdleSettling}); otherwise they are off, and the segments are what the
 * natural merges left.
 *
 * <p>Prints one line per cap: segments, forget median and p90, put median, and the median vector
 * and text search. Not thread-safe; a command-line harness.
 */
public final class ForgetCost {

  private static final int DIMENSION = 384;
  private static final int BATCH = 1_000;
  private static final Scope SCOPE = Scope.of("bench");

  private ForgetCost() {}

  /**
   * The command line: {@code key=value} pairs, each key at most once (the last wins).
   *
   * @param memories memories in the store
   * @param forgets forgets timed per cap
   * @param caps the {@code maxSegmentMB} caps, one store each
   * @param settled whether the idle merges run and are waited for before the first round
   */
  private record Options(int memories, int forgets, double[] caps, boolean settled) {

    /**
     * Parses {@code args}.
     *
     * @throws IllegalArgumentException naming the pair or the key whose value is malformed
     */
    static Options parse(String[] args) {
      Map<String, String> options =
          CommandLine.pairs(args, Set.of("memories", "forgets", "caps", "settled"));
      return new Options(
          CommandLine.count("memories", options.getOrDefault("memories", "20000")),
          CommandLine.count("forgets", options.getOrDefault("forgets", "15")),
          Arrays.stream(options.getOrDefault("caps", "5120,64,32,16").split(","))
              .mapToDouble(cap -> CommandLine.number("caps", cap))
              .toArray(),
          CommandLine.flag("settled", options.getOrDefault("settled", "false")));
    }
  }

  public static void main(String[] args) throws IOException {
    Options options = CommandLine.parseOrExit(Options::parse, args);
    int memories = options.memories();
    int forgets = options.forgets();
    double[] caps = options.caps();
    boolean settled = options.settled();
    SyntheticCorpus corpus = SyntheticCorpus.generate(42, memories, DIMENSION);
    System.out.printf(
        "ForgetCost: %d memories, %d dimensions, %d forgets per cap, Java %s%n",
        memories, DIMENSION, forgets, Runtime.version());
    System.out.println(
        "maxSegmentMB  segments  forget p50 ms  forget p90 ms  put p50 ms  vector p50 ms  text p50 ms");
    for (double cap : caps) {
      Path dir = Files.createTempDirectory("memhook-forget-cost");
      try {
        System.out.println(run(corpus, cap, forgets, settled, dir));
      } finally {
        try (Stream<Path> files = Files.walk(dir)) {
          files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
        }
      }
    }
  }

  private static String run(
      SyntheticCorpus corpus, double cap, int forgets, boolean settled, Path dir) {
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder()
            .directory(dir.resolve("index"))
            .maxSegmentMB(cap)
            .idleMerge(settled ? IdleSettling.IDLE : Duration.ZERO)
            .purgeDelay(Duration.ZERO)
            .build()) {
      store.attach(new EmbeddingSpace("synthetic", DIMENSION));
      Map<Memory, Embedding> batch = new LinkedHashMap<>();
      for (int i = 0; i < corpus.size(); i++) {
        batch.put(corpus.memory(i, SCOPE), corpus.embedding(i));
        if (batch.size() == BATCH || i == corpus.size() - 1) {
          store.putAll(batch);
          batch.clear();
        }
      }
      if (settled) {
        store.flush();
        IdleSettling.awaitQuiet(dir.resolve("index"));
      }
      Random random = new Random(7);
      List<Long> forgetNanos = new ArrayList<>();
      List<Long> putNanos = new ArrayList<>();
      List<Long> vectorNanos = new ArrayList<>();
      List<Long> textNanos = new ArrayList<>();
      for (int i = 0; i < forgets; i++) {
        // side by side: a put, searches and a forget per round, on the same store state
        int pick = random.nextInt(corpus.size());
        Memory fresh = corpus.memory(pick, SCOPE).toBuilder().id(MemoryId.of("fresh-" + i)).build();
        putNanos.add(time(() -> store.put(fresh, corpus.embedding(pick))));
        SyntheticCorpus.Query q = corpus.query(random);
        for (int j = 0; j < 5; j++) {
          vectorNanos.add(time(() -> store.searchVector(SCOPE, Embedding.of(q.vector()), 20)));
          textNanos.add(time(() -> store.searchText(SCOPE, q.text(), 20)));
        }
        MemoryId victim = corpus.items().get(random.nextInt(corpus.size())).id();
        ForgetRecord audit = new ForgetRecord(victim, SCOPE, "bench", "cost", Instant.now());
        forgetNanos.add(time(() -> store.delete(victim, audit)));
      }
      return String.format(
          "%12.0f  %8d  %13.1f  %13.1f  %10.1f  %13.2f  %11.2f",
          cap,
          segments(dir.resolve("index")),
          millis(forgetNanos, 0.5),
          millis(forgetNanos, 0.9),
          millis(putNanos, 0.5),
          millis(vectorNanos, 0.5),
          millis(textNanos, 0.5));
    }
  }

  private static int segments(Path index) {
    try (FSDirectory directory = FSDirectory.open(index)) {
      return SegmentInfos.readLatestCommit(directory).size();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long time(Runnable r) {
    long t0 = System.nanoTime();
    r.run();
    return System.nanoTime() - t0;
  }

  private static double millis(List<Long> nanos, double quantile) {
    long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] / 1e6;
  }
}
