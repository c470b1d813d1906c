package dev.memhook.benchmarks.capture;

import dev.memhook.api.MemoryService;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.benchmarks.BenchEmbedders;
import dev.memhook.core.Memhook;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * {@link CaptureBench}'s phase {@code latency}: what one {@link
 * dev.memhook.api.capture.MemoryCapture#observe} costs the caller, printed as a table of
 * percentiles in microseconds and checked against the 50 µs p99 target.
 *
 * <p>For each run a new service on a temporary directory ({@code Memhook.builder().directory(...)})
 * with a queue large enough that nothing is shed (checked: the run fails if {@code
 * captureStats().shed()} is not 0). A warm-up of {@code --warmup} events is observed and flushed,
 * then each of {@code --events} new events is timed with {@link System#nanoTime()} around one call;
 * the capture worker processes them meanwhile, on the same cores. Runs: the hashing embedder from 1
 * thread, from {@code --threads} threads (the per-call times pooled), {@code observeJson} of the
 * same events as JSON (parsing included) from 1 thread, and, for every other embedder, 1 thread on
 * the first 10,000 events at most, with no warm-up of its own (the observe path is compiled by the
 * hashing runs, or by an unprinted hashing warm-up; a flush of a model's warm-up would take
 * minutes), while the worker embeds with the model and competes for the cores. Each run gets a
 * fresh service, so the same events are never duplicates; the single-threaded hashing run then
 * observes its events again, and that row (all {@code DUPLICATE}) is the part of {@code observe}
 * before the journal and the queue: validation, sanitizing, the duplicate key.
 *
 * <p>Stateless; each call makes and closes its own services and caller threads.
 */
final class LatencyPhase {

  private static final int MODEL_LATENCY_EVENTS = 10_000;

  private LatencyPhase() {}

  /** One latency run: the per-call times' percentiles and what the service counted. */
  record Row(
      String run,
      int events,
      int threads,
      long[] sortedNanos,
      long shed,
      long gcCount,
      long gcMs) {}

  /**
   * Runs the phase on {@code warmup} and then {@code events} events of seed {@code seed}, printing
   * to {@code out}.
   *
   * @throws IllegalStateException if a check fails (an unexpected result, events shed)
   */
  static List<Row> measure(
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
    List<Row> rows = new ArrayList<>();
    out.println(
        "| run | events | threads | median | p90 | p99 | p99.9 | max | shed | GCs (ms) | load |");
    out.println("|---|---|---|---|---|---|---|---|---|---|---|");
    boolean hashing = embedders.contains("hashing");
    if (hashing) {
      List<List<Row>> runs = new ArrayList<>();
      runs.add(timeRun("hashing, observe", "hashing", warm, timed, 1, null, null, true));
      runs.get(runs.size() - 1).forEach(row -> rows.add(print(out, row)));
      runs.add(timeRun("hashing, observe", "hashing", warm, timed, threads, null, null, false));
      runs.get(runs.size() - 1).forEach(row -> rows.add(print(out, row)));
      runs.add(
          timeRun("hashing, observeJson", "hashing", warm, timed, 1, warmJson, timedJson, false));
      runs.get(runs.size() - 1).forEach(row -> rows.add(print(out, row)));
    }
    for (String name : embedders) {
      if (!name.equals("hashing")) {
        if (!hashing) {
          // compiles the observe path, as the hashing runs would have; not printed
          timeRun("warm-up", "hashing", warm, timed, 1, null, null, false);
          hashing = true;
        }
        // no warm-up of its own: a flush of a model's warm-up would take minutes, and closing
        // waits up to a minute for the worker, then leaves the rest in the (deleted) journal
        int n = Math.min(events, MODEL_LATENCY_EVENTS);
        for (Row row :
            timeRun(
                name + ", observe", name, List.of(), timed.subList(0, n), 1, null, null, false)) {
          rows.add(print(out, row));
        }
      }
    }
    for (Row row : rows) {
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
  private static List<Row> timeRun(
      String run,
      String embedderName,
      List<LifecycleEvent> warm,
      List<LifecycleEvent> timed,
      int threads,
      List<String> warmJson,
      List<String> timedJson,
      boolean redeliver) {
    Path dir = RunEnvironment.tempDirectory();
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
        CaptureBench.expectResult(
            ObserveResult.ACCEPTED,
            warmJson != null
                ? service.capture().observeJson(warmJson.get(i))
                : service.capture().observe(warm.get(i)),
            "warm-up event " + i);
      }
      if (!service.capture().flush(CaptureBench.FLUSH_WAIT)) {
        throw new IllegalStateException(
            run + ": the warm-up was not processed in " + CaptureBench.FLUSH_WAIT);
      }
      List<Row> rows = new ArrayList<>();
      rows.add(timeCalls(run, service, timed, timedJson, threads, ObserveResult.ACCEPTED));
      CaptureStats stats = service.capture().stats();
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
      RunEnvironment.deleteRecursively(dir);
    }
  }

  /** Times each call from {@code threads} threads, each expected to return {@code expected}. */
  private static Row timeCalls(
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
                      r = service.capture().observeJson(timedJson.get(i));
                    } else {
                      r = service.capture().observe(timed.get(i));
                    }
                    nanos[i] = System.nanoTime() - t0;
                    CaptureBench.expectResult(expected, r, "event " + i);
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
    long gcCount0 = RunEnvironment.gcCount();
    long gcMs0 = RunEnvironment.gcMillis();
    start.countDown();
    try {
      for (Thread caller : callers) {
        caller.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(run + " was interrupted", e);
    }
    long gcCount = RunEnvironment.gcCount() - gcCount0;
    long gcMs = RunEnvironment.gcMillis() - gcMs0;
    synchronized (failure) {
      if (failure[0] != null) {
        throw failure[0];
      }
    }
    Arrays.sort(nanos);
    return new Row(run, n, threads, nanos, service.capture().stats().shed(), gcCount, gcMs);
  }

  private static Row print(PrintStream out, Row row) {
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
        RunEnvironment.load());
    return row;
  }

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

  /** The value at quantile {@code q} of sorted values (nearest rank). */
  static long percentile(long[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
