package dev.memhook.benchmarks.capture;

import dev.memhook.api.CaptureStats;
import dev.memhook.api.LifecycleEvent;
import dev.memhook.api.MemoryService;
import dev.memhook.api.ObserveResult;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.benchmarks.BenchEmbedders;
import dev.memhook.core.Memhook;
import dev.memhook.core.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * What capture costs: the latency of {@link MemoryService#observe} at the caller, and how many
 * observations per second become searchable, on events a coding agent's hook script would post
 * ({@link AgentEvents}, seeded).
 *
 * <p><b>Phase {@code latency}.</b> For each run a new service on a temporary directory ({@code
 * Memhook.builder().directory(...)}) with a queue large enough that nothing is shed (checked: the
 * run fails if {@code captureStats().shed()} is not 0). A warm-up of {@code --warmup} events is
 * observed and flushed, then each of {@code --events} new events is timed with {@link
 * System#nanoTime()} around one call; the capture worker processes them meanwhile, on the same
 * cores. Runs: the hashing embedder from 1 thread, from {@code --threads} threads (the per-call
 * times pooled), {@code observeJson} of the same events as JSON (parsing included) from 1 thread,
 * and, for every other embedder, 1 thread on the first 10,000 events at most, with no warm-up of
 * its own (the observe path is compiled by the hashing runs, or by an unprinted hashing warm-up; a
 * flush of a model's warm-up would take minutes), while the worker embeds with the model and
 * competes for the cores. Each run gets a fresh service, so the same events are never duplicates;
 * the single-threaded hashing run then observes its events again, and that row (all {@code
 * DUPLICATE}) is the part of {@code observe} before the journal and the queue: validation,
 * sanitizing, the duplicate key.
 *
 * <p><b>Phase {@code throughput}.</b> Per embedder and batch size, a fresh service on a {@link
 * LuceneMemoryStore} in a temporary directory, default {@link CaptureOptions} except the batch size
 * and a queue that holds every event: {@code --throughput-events} events (default 10,000 for
 * hashing, 1,000 for a model: at the rates measured so far, more would take minutes per run) are
 * observed from one thread as fast as it goes, then {@code flush(10 minutes)}; throughput is events
 * over the time from the first {@code observe} to {@code flush} returning, when they are all
 * searchable. The model is loaded and has embedded one text before the clock starts. Where the
 * worker's time goes: the embedder and the store are wrapped ({@link TimedEmbedder}, {@link
 * TimedStore}), and their sums are shown as shares of that window (the worker is busy for all of
 * it: events arrive faster than it stores them), the rest being compression, building the memories,
 * session records and the journal checkpoint; the worker thread's CPU time is shown beside (a
 * model's own threads are not in it). Checked afterwards: {@code processed == N}, nothing shed or
 * failed, and a recall of five events' unique words finds each of them.
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

  private static final Duration FLUSH_WAIT = Duration.ofMinutes(10);
  private static final int MODEL_LATENCY_EVENTS = 10_000;
  private static final int RECALL_CHECKS = 5;

  private static final String USAGE =
      "usage: CaptureBench [--phase latency|throughput|all] [--events N] [--warmup N]"
          + " [--threads N] [--throughput-events N] [--batch-sizes 16,64,256] [--seed S]"
          + " [--embedders hashing,djl-int8]";

  private CaptureBench() {}

  /** One latency run: the per-call times' percentiles and what the service counted. */
  record LatencyRow(
      String run,
      int events,
      int threads,
      long[] sortedNanos,
      long shed,
      long gcCount,
      long gcMs) {}

  /** One throughput run and where the worker's time went. */
  record ThroughputRow(
      String embedder,
      int batchSize,
      int events,
      long observeNanos,
      long windowNanos,
      long processed,
      long embedNanos,
      long embedCalls,
      long embedTexts,
      long embedChars,
      long writeNanos,
      long writeCalls,
      long readNanos,
      long workerCpuNanos,
      int recallsFound) {

    double perSecond() {
      return events / (windowNanos / 1e9);
    }
  }

  /** What a run measured; every check already held when this is returned. */
  record Report(List<LatencyRow> latency, List<ThroughputRow> throughput) {}

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
        load());
    List<LatencyRow> latency = new ArrayList<>();
    List<ThroughputRow> throughput = new ArrayList<>();
    if (!phase.equals("throughput")) {
      latency = latencyPhase(out, seed, warmup, events, threads, embedders);
    }
    if (!phase.equals("latency")) {
      throughput = throughputPhase(out, seed, throughputEvents, batchSizes, embedders);
    }
    return new Report(latency, throughput);
  }

  // ---- latency ---------------------------------------------------------------------------------

  private static List<LatencyRow> latencyPhase(
      PrintStream out, long seed, int warmup, int events, int threads, List<String> embedders) {
    AgentEvents generator = new AgentEvents(seed);
    List<LifecycleEvent> warm = generator.next(warmup);
    List<LifecycleEvent> timed = generator.next(events);
    List<String> warmJson = warm.stream().map(AgentEvents::toJson).toList();
    List<String> timedJson = timed.stream().map(AgentEvents::toJson).toList();
    describe(out, timedJson);
    out.printf(
        Locale.ROOT,
        "%n## latency: one observe() at the caller, µs (warm-up %,d events then flush; the worker"
            + " runs meanwhile)%n",
        warmup);
    List<LatencyRow> rows = new ArrayList<>();
    out.println(
        "| run | events | threads | median | p90 | p99 | p99.9 | max | shed | GCs (ms) | load |");
    out.println("|---|---|---|---|---|---|---|---|---|---|---|");
    boolean hashing = embedders.contains("hashing");
    if (hashing) {
      List<List<LatencyRow>> runs = new ArrayList<>();
      runs.add(latencyRun("hashing, observe", "hashing", warm, timed, 1, null, null, true));
      runs.get(runs.size() - 1).forEach(row -> rows.add(print(out, row)));
      runs.add(latencyRun("hashing, observe", "hashing", warm, timed, threads, null, null, false));
      runs.get(runs.size() - 1).forEach(row -> rows.add(print(out, row)));
      runs.add(
          latencyRun(
              "hashing, observeJson", "hashing", warm, timed, 1, warmJson, timedJson, false));
      runs.get(runs.size() - 1).forEach(row -> rows.add(print(out, row)));
    }
    for (String name : embedders) {
      if (!name.equals("hashing")) {
        if (!hashing) {
          // compiles the observe path, as the hashing runs would have; not printed
          latencyRun("warm-up", "hashing", warm, timed, 1, null, null, false);
          hashing = true;
        }
        // no warm-up of its own: a flush of a model's warm-up would take minutes, and closing
        // waits up to a minute for the worker, then leaves the rest in the (deleted) journal
        int n = Math.min(events, MODEL_LATENCY_EVENTS);
        for (LatencyRow row :
            latencyRun(
                name + ", observe", name, List.of(), timed.subList(0, n), 1, null, null, false)) {
          rows.add(print(out, row));
        }
      }
    }
    for (LatencyRow row : rows) {
      double p99 = percentile(row.sortedNanos(), 0.99) / 1e3;
      out.printf(
          Locale.ROOT,
          "target p99 <= 50 µs, %s, %d thread(s): %s (p99 %.1f µs)%n",
          row.run(),
          row.threads(),
          p99 <= 50 ? "met" : "MISSED",
          p99);
    }
    return rows;
  }

  /**
   * Times each of {@code timed} (or its JSON form, if {@code timedJson} is given) from {@code
   * threads} threads on a fresh service with {@code embedderName}, after observing and flushing
   * {@code warm}. With {@code redeliver}, then times the same calls again on the same service: each
   * is recognised as a duplicate, so that row is what {@code observe} costs before the journal and
   * the queue (validation, sanitizing, the duplicate key).
   */
  private static List<LatencyRow> latencyRun(
      String run,
      String embedderName,
      List<LifecycleEvent> warm,
      List<LifecycleEvent> timed,
      int threads,
      List<String> warmJson,
      List<String> timedJson,
      boolean redeliver) {
    Path dir = tempDirectory();
    int n = timed.size();
    CaptureOptions options =
        CaptureOptions.builder()
            .queueCapacity(
                Math.min(1_000_000, warm.size() + n + CaptureOptions.DEFAULT_QUEUE_CAPACITY))
            .build();
    try (MemoryService service =
        Memhook.builder()
            .directory(dir)
            .embedder(BenchEmbedders.create(embedderName))
            .capture(options)
            .build()) {
      for (int i = 0; i < warm.size(); i++) {
        expectResult(
            ObserveResult.ACCEPTED,
            warmJson != null ? service.observeJson(warmJson.get(i)) : service.observe(warm.get(i)),
            "warm-up event " + i);
      }
      if (!service.flush(FLUSH_WAIT)) {
        throw new IllegalStateException(run + ": the warm-up was not processed in " + FLUSH_WAIT);
      }
      List<LatencyRow> rows = new ArrayList<>();
      rows.add(timeCalls(run, service, timed, timedJson, threads, ObserveResult.ACCEPTED));
      CaptureStats stats = service.captureStats();
      if (stats.shed() != 0 || stats.accepted() != warm.size() + n) {
        throw new IllegalStateException(
            run + ": expected " + (warm.size() + n) + " accepted and none shed, got " + stats);
      }
      if (redeliver) {
        rows.add(
            timeCalls(
                run + " again (DUPLICATE)",
                service,
                timed,
                timedJson,
                threads,
                ObserveResult.DUPLICATE));
      }
      return rows;
    } finally {
      deleteRecursively(dir);
    }
  }

  /** Times each call from {@code threads} threads, each expected to return {@code expected}. */
  private static LatencyRow timeCalls(
      String run,
      MemoryService service,
      List<LifecycleEvent> timed,
      List<String> timedJson,
      int threads,
      ObserveResult expected) {
    int n = timed.size();
    long[] nanos = new long[n];
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> callers = new ArrayList<>();
    RuntimeException[] failure = new RuntimeException[1];
    for (int t = 0; t < threads; t++) {
      int first = t;
      Thread caller =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = first; i < n; i += threads) {
                    ObserveResult r;
                    long t0 = System.nanoTime();
                    if (timedJson != null) {
                      r = service.observeJson(timedJson.get(i));
                    } else {
                      r = service.observe(timed.get(i));
                    }
                    nanos[i] = System.nanoTime() - t0;
                    expectResult(expected, r, "event " + i);
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                  synchronized (failure) {
                    failure[0] = e;
                  }
                }
              },
              "capture-bench-caller-" + t);
      callers.add(caller);
      caller.start();
    }
    long gcCount0 = gcCount();
    long gcMs0 = gcMillis();
    start.countDown();
    try {
      for (Thread caller : callers) {
        caller.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(run + " was interrupted", e);
    }
    long gcCount = gcCount() - gcCount0;
    long gcMs = gcMillis() - gcMs0;
    synchronized (failure) {
      if (failure[0] != null) {
        throw failure[0];
      }
    }
    Arrays.sort(nanos);
    return new LatencyRow(run, n, threads, nanos, service.captureStats().shed(), gcCount, gcMs);
  }

  private static LatencyRow print(PrintStream out, LatencyRow row) {
    long[] s = row.sortedNanos();
    out.printf(
        Locale.ROOT,
        "| %s | %,d | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %d | %d (%d) | %.2f |%n",
        row.run(),
        row.events(),
        row.threads(),
        percentile(s, 0.5) / 1e3,
        percentile(s, 0.9) / 1e3,
        percentile(s, 0.99) / 1e3,
        percentile(s, 0.999) / 1e3,
        s[s.length - 1] / 1e3,
        row.shed(),
        row.gcCount(),
        row.gcMs(),
        load());
    return row;
  }

  // ---- throughput ------------------------------------------------------------------------------

  private static List<ThroughputRow> throughputPhase(
      PrintStream out, long seed, int eventsOption, int[] batchSizes, List<String> embedders) {
    out.printf(
        Locale.ROOT,
        "%n## throughput: observe N from 1 thread, then flush; shares of the window first observe"
            + " -> flush returned%n");
    out.println(
        "| embedder | batch | events | observe loop s | to searchable s | obs/s | embed % | store"
            + " write % | store read % | rest % | worker CPU % | embedAll calls (texts/call) |"
            + " chars/text | embed ms/text | putAll ms/call | recalls found | load |");
    out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    List<ThroughputRow> rows = new ArrayList<>();
    for (String name : embedders) {
      int n = eventsOption > 0 ? eventsOption : name.equals("hashing") ? 10_000 : 1_000;
      List<LifecycleEvent> events = new AgentEvents(seed).next(n);
      for (int batch : batchSizes) {
        ThroughputRow row = throughputRun(name, batch, events);
        rows.add(row);
        long w = row.windowNanos();
        long rest = w - row.embedNanos() - row.writeNanos() - row.readNanos();
        out.printf(
            Locale.ROOT,
            "| %s | %d | %,d | %.2f | %.2f | %,.0f | %.1f | %.1f | %.1f | %.1f | %.1f | %d (%.1f) |"
                + " %,.0f | %.2f | %.1f | %d/%d | %.2f |%n",
            row.embedder(),
            row.batchSize(),
            row.events(),
            row.observeNanos() / 1e9,
            w / 1e9,
            row.perSecond(),
            100.0 * row.embedNanos() / w,
            100.0 * row.writeNanos() / w,
            100.0 * row.readNanos() / w,
            100.0 * rest / w,
            100.0 * row.workerCpuNanos() / w,
            row.embedCalls(),
            row.embedCalls() == 0 ? 0.0 : (double) row.embedTexts() / row.embedCalls(),
            row.embedTexts() == 0 ? 0.0 : (double) row.embedChars() / row.embedTexts(),
            row.embedTexts() == 0 ? 0.0 : row.embedNanos() / 1e6 / row.embedTexts(),
            row.writeCalls() == 0 ? 0.0 : row.writeNanos() / 1e6 / row.writeCalls(),
            row.recallsFound(),
            RECALL_CHECKS,
            load());
      }
    }
    for (ThroughputRow row : rows) {
      if (!row.embedder().equals("hashing")) {
        out.printf(
            Locale.ROOT,
            "target >= 1,000 obs/s, %s batch %d: %s (%,.0f obs/s)%n",
            row.embedder(),
            row.batchSize(),
            row.perSecond() >= 1_000 ? "met" : "MISSED",
            row.perSecond());
      }
    }
    return rows;
  }

  private static ThroughputRow throughputRun(
      String embedderName, int batchSize, List<LifecycleEvent> events) {
    Path dir = tempDirectory();
    int n = events.size();
    TimedEmbedder embedder = new TimedEmbedder(BenchEmbedders.create(embedderName));
    embedder.embed("load the model and run it once before the clock starts");
    embedder.reset();
    TimedStore store =
        new TimedStore(LuceneMemoryStore.builder().directory(dir.resolve("index")).build());
    CaptureOptions options =
        CaptureOptions.builder()
            .queueCapacity(Math.max(CaptureOptions.DEFAULT_QUEUE_CAPACITY, n))
            .batchSize(batchSize)
            .journalDirectory(dir.resolve(Memhook.JOURNAL_DIRECTORY))
            .build();
    try (MemoryService service =
        Memhook.builder().store(store).embedder(embedder).capture(options).build()) {
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      long workerId = workerThreadId();
      long cpu0 = mx.getThreadCpuTime(workerId);
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        expectResult(ObserveResult.ACCEPTED, service.observe(events.get(i)), "event " + i);
      }
      long t1 = System.nanoTime();
      boolean flushed = service.flush(FLUSH_WAIT);
      long t2 = System.nanoTime();
      long cpu = mx.getThreadCpuTime(workerId) - cpu0;
      long embedNanos = embedder.nanos();
      long embedCalls = embedder.calls();
      long embedTexts = embedder.texts();
      long embedChars = embedder.chars();
      long writeNanos = store.writeNanos();
      long writeCalls = store.writeCalls();
      long readNanos = store.readNanos();
      CaptureStats stats = service.captureStats();
      if (!flushed
          || stats.processed() != n
          || stats.shed() != 0
          || stats.failed() != 0
          || stats.dropped() != 0) {
        throw new IllegalStateException(
            embedderName
                + " batch "
                + batchSize
                + ": expected "
                + n
                + " processed and none shed, dropped or failed (flush "
                + (flushed ? "returned in time" : "timed out")
                + "), got "
                + stats);
      }
      int found = 0;
      for (int k = 0; k < RECALL_CHECKS; k++) {
        int i = (int) ((long) k * (n - 1) / (RECALL_CHECKS - 1));
        String word = AgentEvents.uniqueWord(i);
        for (RecalledMemory m :
            service.recall(new RecallQuery(Scope.DEFAULT, word, 5)).memories()) {
          if (m.memory().content().contains(word)) {
            found++;
            break;
          }
        }
      }
      if (found != RECALL_CHECKS) {
        throw new IllegalStateException(
            embedderName
                + " batch "
                + batchSize
                + ": recall found "
                + found
                + " of "
                + RECALL_CHECKS
                + " events by their unique word");
      }
      return new ThroughputRow(
          embedderName,
          batchSize,
          n,
          t1 - t0,
          t2 - t0,
          stats.processed(),
          embedNanos,
          embedCalls,
          embedTexts,
          embedChars,
          writeNanos,
          writeCalls,
          readNanos,
          cpu,
          found);
    } finally {
      deleteRecursively(dir);
    }
  }

  /** The id of the one live capture worker thread, named {@code memhook-capture}. */
  private static long workerThreadId() {
    List<Thread> workers =
        Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("memhook-capture") && t.isAlive())
            .toList();
    if (workers.size() != 1) {
      throw new IllegalStateException(
          "expected one live memhook-capture thread, found " + workers.size());
    }
    return workers.get(0).getId();
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private static void describe(PrintStream out, List<String> json) {
    int[] sizes =
        json.stream().mapToInt(s -> s.getBytes(StandardCharsets.UTF_8).length).sorted().toArray();
    long bash =
        json.stream()
            .filter(s -> s.contains("\"toolName\":\"Bash\"") && s.contains("\"output\""))
            .count();
    long editRead =
        json.stream()
            .filter(s -> s.contains("\"toolName\":\"Edit\"") || s.contains("\"toolName\":\"Read\""))
            .count();
    long prompts = json.stream().filter(s -> s.contains("\"hookType\":\"PromptSubmit\"")).count();
    long answers = json.stream().filter(s -> s.contains("\"hookType\":\"AgentResponse\"")).count();
    long failures = json.stream().filter(s -> s.contains("\"hookType\":\"ToolFailure\"")).count();
    double n = json.size() / 100.0;
    out.printf(
        Locale.ROOT,
        "events as JSON: median %,d B, p10 %,d B, p90 %,d B, max %,d B; Bash %.1f %%, Edit/Read %.1f"
            + " %%, PromptSubmit %.1f %%, AgentResponse %.1f %%, ToolFailure %.1f %%%n",
        sizes[sizes.length / 2],
        sizes[sizes.length / 10],
        sizes[sizes.length * 9 / 10],
        sizes[sizes.length - 1],
        bash / n,
        editRead / n,
        prompts / n,
        answers / n,
        failures / n);
  }

  private static void expectResult(ObserveResult expected, ObserveResult result, String what) {
    if (result != expected) {
      throw new IllegalStateException(what + " was " + result + ", not " + expected);
    }
  }

  /** The value at quantile {@code q} of sorted values (nearest rank). */
  static long percentile(long[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static int positive(String value) {
    int v = Integer.parseInt(value);
    if (v <= 0) {
      throw new IllegalArgumentException("expected a positive number, got " + value + "\n" + USAGE);
    }
    return v;
  }

  private static double load() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static long gcCount() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(GarbageCollectorMXBean::getCollectionCount)
        .sum();
  }

  private static long gcMillis() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(GarbageCollectorMXBean::getCollectionTime)
        .sum();
  }

  private static Path tempDirectory() {
    try {
      return Files.createTempDirectory("memhook-capture-bench");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.err.println("could not delete " + dir + ": " + e);
    }
  }
}
