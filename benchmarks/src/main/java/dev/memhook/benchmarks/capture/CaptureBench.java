package dev.memhook.benchmarks.capture;

import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.benchmarks.BenchEmbedders;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What capture costs: the latency of {@link dev.memhook.api.capture.MemoryCapture#observe} at the
 * caller, and how many observations per second become searchable, on events a coding agent's hook
 * script would post ({@link AgentEvents}, seeded).
 *
 * <p>This class reads the command line, prints the header and runs the phases: {@link LatencyPhase}
 * ({@code latency}: one call's percentiles from 1 and more threads, {@code observeJson}, a
 * redelivery, each embedder) and {@link ThroughputPhase} ({@code throughput}: events to searchable
 * per second per embedder and batch size, and where the worker's time goes). Their class comments
 * say how each measures and what it checks.
 *
 * <p>Run (build first with {@code mvn -B -q -pl benchmarks -am -DskipTests package}):
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.capture.CaptureBench --phase all
 * </pre>
 *
 * Options: {@code --phase latency|throughput|all} [all], {@code --events N} [50000], {@code
 * --warmup N} [20000], {@code --threads N} [4], {@code --throughput-events N} [10000 hashing, 1000
 * a model], {@code --batch-sizes 16,64,256} [16,64,256], {@code --seed S} [42], {@code --embedders
 * hashing,djl-int8} [hashing,djl-int8]. A failed check throws {@link IllegalStateException} (exit
 * status 1); a bad argument exits with status 2.
 */
public final class CaptureBench {

  /** How long a run waits for the worker to process what was observed before it gives up. */
  static final Duration FLUSH_WAIT = Duration.ofMinutes(10);

  private static final String USAGE =
      "usage: CaptureBench [--phase latency|throughput|all] [--events N] [--warmup N]"
          + " [--threads N] [--throughput-events N] [--batch-sizes 16,64,256] [--seed S]"
          + " [--embedders hashing,djl-int8]";

  private CaptureBench() {}

  /** What a run measured; every check already held when this is returned. */
  record Report(List<LatencyPhase.Row> latency, List<ThroughputPhase.Row> throughput) {}

  public static void main(String[] args) {
    try {
      run(args, System.out);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    } catch (IllegalStateException e) {
      System.err.println("check failed: " + e.getMessage());
      System.exit(1);
    }
  }

  /**
   * Runs with {@code args} as on the command line, printing the tables to {@code out}.
   *
   * @throws IllegalArgumentException with the usage, for a bad argument
   * @throws IllegalStateException if a check fails (events shed, not processed, not found)
   */
  static Report run(String[] args, PrintStream out) {
    String phase = "all";
    int events = 50_000;
    int warmup = 20_000;
    int threads = 4;
    int throughputEvents = 0;
    long seed = 42;
    List<String> embedders = List.of("hashing", "djl-int8");
    int[] batchSizes = {16, CaptureOptions.DEFAULT_BATCH_SIZE, 256};
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--phase" -> phase = args[++i];
          case "--events" -> events = positive(args[++i]);
          case "--warmup" -> warmup = positive(args[++i]);
          case "--threads" -> threads = positive(args[++i]);
          case "--throughput-events" -> throughputEvents = positive(args[++i]);
          case "--seed" -> seed = Long.parseLong(args[++i]);
          case "--embedders" -> embedders = List.of(args[++i].split(","));
          case "--batch-sizes" ->
              batchSizes =
                  Arrays.stream(args[++i].split(",")).mapToInt(CaptureBench::positive).toArray();
          default -> throw new IllegalArgumentException(USAGE);
        }
      }
    } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
      throw new IllegalArgumentException(USAGE, e);
    }
    if (!List.of("latency", "throughput", "all").contains(phase)) {
      throw new IllegalArgumentException(USAGE);
    }
    for (String name : embedders) {
      BenchEmbedders.create(name).close(); // an unknown name fails before anything runs
    }
    out.printf(
        Locale.ROOT,
        "CaptureBench: seed %d, %d processors, Java %s, max heap %d MiB, load %.2f%n",
        seed,
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        Runtime.getRuntime().maxMemory() >> 20,
        RunEnvironment.load());
    List<LatencyPhase.Row> latency = new ArrayList<>();
    List<ThroughputPhase.Row> throughput = new ArrayList<>();
    if (!phase.equals("throughput")) {
      latency = LatencyPhase.measure(out, seed, warmup, events, threads, embedders);
    }
    if (!phase.equals("latency")) {
      throughput = ThroughputPhase.measure(out, seed, throughputEvents, batchSizes, embedders);
    }
    return new Report(latency, throughput);
  }

  /**
   * Checks one call's result, shared by both phases.
   *
   * @throws IllegalStateException naming {@code what} if {@code result} is not {@code expected}
   */
  static void expectResult(ObserveResult expected, ObserveResult result, String what) {
    if (result != expected) {
      throw new IllegalStateException(what + " was " + result + ", not " + expected);
    }
  }

  private static int positive(String value) {
    int v = Integer.parseInt(value);
    if (v <= 0) {
      throw new IllegalArgumentException("expected a positive number, got " + value + "\n" + USAGE);
    }
    return v;
  }
}
