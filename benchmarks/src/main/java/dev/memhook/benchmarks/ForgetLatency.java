package dev.memhook.benchmarks;

import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.FSDirectory;

/**
 * What a forget costs its caller, what its purge costs, and what a storm of forgets costs recall,
 * on one store: {@code memories} synthetic memories with 384-dimension vectors, bulk-loaded and
 * then merged into {@code segments} segments (the layout a settled store of that size has), behind
 * a {@link MemoryService} with precomputed query vectors (no model) and the default recall options.
 *
 * <pre>{@code
 * java -Xmx6g -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.ForgetLatency \
 *     [memories=100000] [segments=1] [forgets=200] [storm=1000] [stormSeconds=60] \
 *     [purgeDelay=PT10M] [dir=DIR]
 * }</pre>
 *
 * <p>Phases, each printed as it ends: quiet recall (p50/p99 of 3,000 recalls); {@code forgets}
 * forgets one at a time, five recalls between two (forget p50/p90/p99); {@code purge()} of those
 * forgets (its duration); then the storm: {@code storm} forgets paced evenly over {@code
 * stormSeconds} on a second thread while the main thread recalls without pause, and recalls go on
 * until the background purge the storm's forgets are due for has committed (recall p50/p99 during
 * the storm and during the purge, the ratio of each p99 to the quiet one, and when the purge was
 * done against the first storm forget's deadline); then, per storm forget, whether the commit that
 * purged it came within the delay of that forget, and the longest such wait. A directory given with
 * {@code dir} keeps the loaded index between runs (the store is copied per run; it is never
 * changed). Not thread-safe; a command-line harness.
 */
public final class ForgetLatency {
  private static final int DIMENSION = 384;
  private static final Scope SCOPE = Scope.of("bench");
  private static final int QUIET_RECALLS = 3_000;

  private ForgetLatency() {}

  /**
   * The command line: {@code key=value} pairs, each key at most once (the last wins).
   *
   * @param memories memories in the store
   * @param segments segments the loaded store is merged into
   * @param forgets forgets timed one at a time
   * @param storm forgets in the storm
   * @param stormSeconds the storm's length
   * @param purgeDelay the store's purge delay
   * @param cache where the loaded index is kept between runs
   */
  private record Options(
      int memories,
      int segments,
      int forgets,
      int storm,
      int stormSeconds,
      Duration purgeDelay,
      Path cache) {

    /**
     * Parses {@code args}.
     *
     * @throws IllegalArgumentException naming the pair or the key whose value is malformed
     */
    static Options parse(String[] args) {
      Map<String, String> o =
          CommandLine.pairs(
              args,
              Set.of(
                  "memories", "segments", "forgets", "storm", "stormSeconds", "purgeDelay", "dir"));
      String purgeDelay = o.getOrDefault("purgeDelay", "PT10M");
      Duration delay;
      try {
        delay = Duration.parse(purgeDelay);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            "purgeDelay needs an ISO-8601 duration such as PT10M, not '" + purgeDelay + "'", e);
      }
      return new Options(
          CommandLine.count("memories", o.getOrDefault("memories", "100000")),
          CommandLine.count("segments", o.getOrDefault("segments", "1")),
          CommandLine.count("forgets", o.getOrDefault("forgets", "200")),
          CommandLine.count("storm", o.getOrDefault("storm", "1000")),
          CommandLine.count("stormSeconds", o.getOrDefault("stormSeconds", "60")),
          delay,
          Path.of(
              o.getOrDefault(
                  "dir", System.getProperty("java.io.tmpdir") + "/memhook-forget-latency")));
    }
  }

  public static void main(String[] args) throws Exception {
    Options o = CommandLine.parseOrExit(Options::parse, args);
    int memories = o.memories();
    int segments = o.segments();
    int forgets = o.forgets();
    int storm = o.storm();
    int stormSeconds = o.stormSeconds();
    Duration purgeDelay = o.purgeDelay();
    Path cache = o.cache();
    SyntheticCorpus corpus = SyntheticCorpus.generate(42, memories, DIMENSION);
    List<SyntheticCorpus.Query> queries = corpus.queries(7, 4_096);
    PrecomputedEmbedder.Builder eb =
        PrecomputedEmbedder.builder("bench-synthetic-d" + DIMENSION, DIMENSION);
    queries.forEach(q -> eb.put(q.text(), q.vector()));
    PrecomputedEmbedder embedder = eb.unrelatedForUnknown().build();
    System.out.printf(
        Locale.ROOT,
        "ForgetLatency: %d memories, %d segment(s), purge delay %s, Java %s%n",
        memories,
        segments,
        purgeDelay,
        Runtime.version());

    Path loaded = cache.resolve(memories + "-" + segments);
    if (!BenchStores.isComplete(loaded)) {
      BenchStores.deleteRecursively(loaded);
      long t0 = System.nanoTime();
      try (LuceneMemoryStore building =
          BenchStores.lucene(loaded, BenchStores.Settings.DEFAULTS, true)) {
        BenchStores.fill(building, corpus, SCOPE, embedder.space(), corpus::embedding);
      }
      try (LuceneMemoryStore merging =
          BenchStores.lucene(loaded, BenchStores.Settings.DEFAULTS, false)) {
        merging.forceMerge(segments);
      }
      BenchStores.markComplete(loaded);
      System.out.printf(
          Locale.ROOT, "loaded and merged in %.0f s%n", (System.nanoTime() - t0) / 1e9);
    }
    Path run = Files.createTempDirectory("memhook-forget-latency-run");
    BenchStores.copyIndex(loaded, run.resolve("index"));
    Path index = run.resolve("index");
    try (LuceneMemoryStore store =
            LuceneMemoryStore.builder()
                .directory(index)
                .purgeDelay(purgeDelay)
                .idleMerge(Duration.ZERO)
                .build();
        MemoryService service = Memhook.builder().store(store).embedder(embedder).build()) {
      store.attach(new EmbeddingSpace(embedder.space().modelId(), DIMENSION));
      System.out.printf(Locale.ROOT, "segments: %d%n", committedSegments(index));
      Random random = new Random(11);
      List<MemoryId> victims = new ArrayList<>();
      corpus.items().forEach(m -> victims.add(m.id()));
      Collections.shuffle(victims, random);
      int nextVictim = 0;

      // warm-up, then quiet recall
      recalls(service, queries, random, 500);
      List<Long> quiet = recalls(service, queries, random, QUIET_RECALLS);
      System.out.printf(
          Locale.ROOT, "quiet recall: p50 %.2f ms, p99 %.2f ms%n", ms(quiet, 0.5), ms(quiet, 0.99));

      // forgets one at a time
      List<Long> forgetNanos = new ArrayList<>();
      for (int i = 0; i < forgets; i++) {
        MemoryId victim = victims.get(nextVictim++);
        long t0 = System.nanoTime();
        service.forget(victim, "bench", "latency");
        forgetNanos.add(System.nanoTime() - t0);
        recalls(service, queries, random, 5);
      }
      System.out.printf(
          Locale.ROOT,
          "forget (%d, one at a time): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms%n",
          forgets,
          ms(forgetNanos, 0.5),
          ms(forgetNanos, 0.9),
          ms(forgetNanos, 0.99));
      long p0 = System.nanoTime();
      service.maintenance().purge();
      System.out.printf(
          Locale.ROOT,
          "purge() of those %d forgets: %.1f s; segments after: %d%n",
          forgets,
          (System.nanoTime() - p0) / 1e9,
          committedSegments(index));

      // the storm, then the background purge
      AtomicBoolean stormOver = new AtomicBoolean();
      AtomicLong firstForget = new AtomicLong();
      List<Long> stormForgets = Collections.synchronizedList(new ArrayList<>());
      PurgeWatch watch = new PurgeWatch(index);
      List<MemoryId> stormVictims = victims.subList(nextVictim, nextVictim + storm);
      long pace = stormSeconds * 1_000_000_000L / storm;
      Thread forgetter =
          new Thread(
              () -> {
                long start = System.nanoTime();
                firstForget.set(System.currentTimeMillis());
                for (int i = 0; i < stormVictims.size(); i++) {
                  long due = start + i * pace;
                  long wait = due - System.nanoTime();
                  if (wait > 0) {
                    try {
                      Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                      return;
                    }
                  }
                  long t0 = System.nanoTime();
                  service.forget(stormVictims.get(i), "bench", "storm");
                  stormForgets.add(System.nanoTime() - t0);
                  watch.forgotten(stormVictims.get(i));
                }
                stormOver.set(true);
              },
              "forget-storm");
      List<Long> during = new ArrayList<>();
      List<Long> purging = new ArrayList<>();
      forgetter.start();
      while (!stormOver.get()) {
        during.addAll(recalls(service, queries, random, 10));
        watch.checkEvery(WATCH_MILLIS);
      }
      forgetter.join();
      long purgeDeadline = firstForget.get() + purgeDelay.toMillis();
      long doneAt;
      while (true) {
        purging.addAll(recalls(service, queries, random, 20));
        watch.checkEvery(WATCH_MILLIS);
        if (!purgePending(index)) {
          watch.check();
          doneAt = System.currentTimeMillis();
          break;
        }
        if (System.currentTimeMillis() > purgeDeadline + purgeDelay.toMillis()) {
          doneAt = -1;
          break;
        }
      }
      System.out.printf(
          Locale.ROOT,
          "storm: %d forgets in %d s: forget p50 %.2f ms, p99 %.2f ms%n",
          storm,
          stormSeconds,
          ms(stormForgets, 0.5),
          ms(stormForgets, 0.99));
      System.out.printf(
          Locale.ROOT,
          "recall during the storm: p50 %.2f ms, p99 %.2f ms (p99 %.2fx quiet), %d recalls%n",
          ms(during, 0.5),
          ms(during, 0.99),
          ms(during, 0.99) / ms(quiet, 0.99),
          during.size());
      System.out.printf(
          Locale.ROOT,
          "recall after the storm until its purge committed: p50 %.2f ms, p99 %.2f ms"
              + " (p99 %.2fx quiet), %d recalls%n",
          ms(purging, 0.5),
          ms(purging, 0.99),
          ms(purging, 0.99) / ms(quiet, 0.99),
          purging.size());
      if (doneAt < 0) {
        System.out.println("the storm's purge was not done by twice its deadline");
      } else {
        System.out.printf(
            Locale.ROOT,
            "the storm's purge committed %.0f s after its first forget (deadline %d s): %s;"
                + " segments after: %d%n",
            (doneAt - firstForget.get()) / 1e3,
            purgeDelay.toSeconds(),
            doneAt <= purgeDeadline ? "met" : "missed",
            committedSegments(index));
      }
      System.out.printf(
          Locale.ROOT,
          "per storm forget: %d of %d purged within %d s of the forget; the longest from a forget"
              + " to the commit that purged it: %.0f s; not seen purged: %d%n",
          watch.within(purgeDelay),
          storm,
          purgeDelay.toSeconds(),
          watch.longestMillis() / 1e3,
          watch.pending());
    } finally {
      BenchStores.deleteRecursively(run);
    }
  }

  /** How often the storm's forgets are looked for in the committed index. */
  private static final long WATCH_MILLIS = 500;

  /**
   * When each forgotten memory left the committed index: its id term in no segment of the latest
   * commit (a deleted document keeps its terms until its segment is rewritten), seen by a reader of
   * that commit at most every {@link #WATCH_MILLIS}. Counts from when the forget returned, as the
   * store's promise does ({@link LuceneMemoryStore.Builder#purgeDelay}).
   */
  private static final class PurgeWatch {
    private final Path index;
    private final Map<MemoryId, Long> forgottenAt = new ConcurrentHashMap<>();
    private final List<Long> lags = Collections.synchronizedList(new ArrayList<>());
    private long lastCheck;

    PurgeWatch(Path index) {
      this.index = index;
    }

    void forgotten(MemoryId id) {
      forgottenAt.put(id, System.currentTimeMillis());
    }

    void checkEvery(long millis) {
      if (System.currentTimeMillis() - lastCheck >= millis) {
        check();
      }
    }

    /** Looks each forgotten id up in the latest commit; records the lag of those gone. */
    void check() {
      lastCheck = System.currentTimeMillis();
      if (forgottenAt.isEmpty()) {
        return;
      }
      try (FSDirectory d = FSDirectory.open(index);
          DirectoryReader reader = DirectoryReader.open(d)) {
        long now = System.currentTimeMillis();
        for (Map.Entry<MemoryId, Long> e : List.copyOf(forgottenAt.entrySet())) {
          if (reader.docFreq(new Term("id", e.getKey().value())) == 0) {
            lags.add(now - e.getValue());
            forgottenAt.remove(e.getKey());
          }
        }
      } catch (IOException e) {
        // a commit's files deleted while they were opened: the next check reads the next commit
      }
    }

    int within(Duration delay) {
      synchronized (lags) {
        return (int) lags.stream().filter(l -> l <= delay.toMillis()).count();
      }
    }

    long longestMillis() {
      synchronized (lags) {
        return lags.stream().mapToLong(Long::longValue).max().orElse(0);
      }
    }

    int pending() {
      return forgottenAt.size();
    }
  }

  private static List<Long> recalls(
      MemoryService service, List<SyntheticCorpus.Query> queries, Random random, int n) {
    List<Long> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      SyntheticCorpus.Query q = queries.get(random.nextInt(queries.size()));
      long t0 = System.nanoTime();
      service.recall(new RecallQuery(SCOPE, q.text(), 10));
      out.add(System.nanoTime() - t0);
    }
    return out;
  }

  /** Whether the last commit of {@code index} still says a purge is due. */
  private static boolean purgePending(Path index) {
    try (FSDirectory d = FSDirectory.open(index)) {
      return SegmentInfos.readLatestCommit(d).getUserData().containsKey("memhook.purge.by");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int committedSegments(Path index) {
    try (FSDirectory d = FSDirectory.open(index)) {
      return SegmentInfos.readLatestCommit(d).size();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static double ms(List<Long> nanos, double quantile) {
    long[] sorted;
    synchronized (nanos) {
      sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
    }
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] / 1e6;
  }
}
