package dev.memhook.benchmarks;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.LuceneMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Acknowledged-durable {@code remember} throughput with the hashing embedder (so the figure is the
 * write path's, not the model's), side by side in one run, each into a fresh temporary directory:
 *
 * <ul>
 *   <li>{@code logged}: the service as {@code Memhook.builder().directory(dir)} builds it, every
 *       write acknowledged through the journal (one shared fsync) and the index committed by
 *       checkpoints;
 *   <li>{@code commit-per-write}: the same service over a {@link LuceneMemoryStore} that commits
 *       each write, the durability every write had before the journal.
 * </ul>
 *
 * Each is run with 1 and with 4 writer threads; each run writes for a fixed time after a warm-up
 * and reports writes per second; the rounds alternate and the median of them is printed.
 *
 * <pre>
 * {@code java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.DurableWrites [seconds] [rounds]}
 * </pre>
 */
public final class DurableWrites {

  private static final Scope SCOPE = Scope.of("bench", "durable");

  private DurableWrites() {}

  public static void main(String[] args) throws Exception {
    double seconds = CommandLine.parseOrExit(a -> a.length > 0 ? seconds(a[0]) : 5, args);
    int rounds =
        CommandLine.parseOrExit(a -> a.length > 1 ? CommandLine.count("rounds", a[1]) : 3, args);
    Path root = Files.createTempDirectory("memhook-durable-bench-");
    List<String> names = List.of("logged", "commit-per-write");
    List<Function<Path, MemoryService>> services =
        List.of(
            dir -> Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build(),
            dir ->
                Memhook.builder()
                    .store(LuceneMemoryStore.builder().directory(dir).build())
                    .embedder(HashingEmbedder.create())
                    .build());
    int[] threads = {1, 4};
    double[][][] rates = new double[names.size()][threads.length][rounds];
    int run = 0;
    try {
      for (int round = 0; round < rounds; round++) {
        for (int s = 0; s < names.size(); s++) {
          for (int t = 0; t < threads.length; t++) {
            Path dir = root.resolve("run-" + run++);
            try (MemoryService memory = services.get(s).apply(dir)) {
              rates[s][t][round] = writesPerSecond(memory, threads[t], seconds);
            }
          }
        }
      }
    } finally {
      try (Stream<Path> walk = Files.walk(root)) {
        walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    for (int s = 0; s < names.size(); s++) {
      for (int t = 0; t < threads.length; t++) {
        System.out.printf(
            "%-17s %d thread(s): median %,.0f remember/s over %d rounds %s%n",
            names.get(s), threads[t], median(rates[s][t]), rounds, Arrays.toString(rates[s][t]));
      }
    }
  }

  /**
   * The first argument: how long each run writes, more than 0 seconds.
   *
   * @throws IllegalArgumentException naming the argument when it is not such a number
   */
  private static double seconds(String text) {
    double seconds = CommandLine.number("seconds", text);
    if (seconds <= 0) {
      throw new IllegalArgumentException("seconds must be more than 0, not " + text);
    }
    return seconds;
  }

  private static double writesPerSecond(MemoryService memory, int threads, double seconds)
      throws Exception {
    for (int i = 0; i < 200; i++) {
      memory.remember(MemoryDraft.of(SCOPE, "warm up the write path " + i));
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long end = System.nanoTime() + (long) (seconds * 1e9);
    long start = System.nanoTime();
    List<Future<Integer>> counts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      counts.add(
          pool.submit(
              () -> {
                int n = 0;
                while (System.nanoTime() < end) {
                  memory.remember(
                      MemoryDraft.of(
                          SCOPE, "thread " + thread + " wrote memory " + n + " about the deploy"));
                  n++;
                }
                return n;
              }));
    }
    long total = 0;
    for (Future<Integer> c : counts) {
      total += c.get();
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    pool.shutdown();
    return total / elapsed;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
