package dev.memhook.benchmarks.soak;

import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.spi.Embedder;
import dev.memhook.benchmarks.BenchEmbedders;
import dev.memhook.benchmarks.BenchStores;
import dev.memhook.benchmarks.SyntheticCorpus;
import dev.memhook.benchmarks.soak.SoakStats.Op;
import dev.memhook.core.Memhook;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * Runs one soak: preload, then {@code hooks} {@link ChatWorker}s, {@code workers} {@link
 * MemoryWorker}s and {@code observers} {@link ObserveWorker}s against one {@link MemoryService} for
 * the configured duration, watched by a {@link Watchdog} and a {@link HeapSampler}; then stops
 * them, settles the checks and reports.
 *
 * <p>Beyond what the workers check as they go, the run itself fails when: a thread does not stop
 * within the stall window after the end (a hang), the live heap grew past {@link HeapTrend}'s rule,
 * {@code close()} of the service hangs, or a kind of work never happened (a soak in which no hook
 * injected proves nothing about at-most-once injection), or capture lost, failed or miscounted an
 * observed event ({@link ObserveWorker#verify}). Not thread-safe; one run at a time per directory.
 */
final class SoakRun {

  /** Vector dimension of the corpus: its own vectors are unused (the embedder's are stored). */
  private static final int CORPUS_DIMENSION = 8;

  /** Where observed events are stored: no ledger scope, so isolation from them is checked. */
  static final Scope CAPTURE_SCOPE = new Scope("soak-capture");

  private SoakRun() {}

  /**
   * Runs the soak in {@code config.directory()} (which must be missing or empty), or in a new
   * temporary directory deleted afterwards. Progress lines go to {@code log}.
   */
  static SoakReport run(SoakConfig config, PrintStream log)
      throws IOException, InterruptedException {
    Path dir = config.directory();
    if (dir == null) {
      dir = Files.createTempDirectory("memhook-soak");
      try {
        return run(config, dir, log);
      } finally {
        BenchStores.deleteRecursively(dir);
      }
    }
    if (Files.exists(dir)) {
      try (Stream<Path> entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new IllegalArgumentException("--dir must be missing or empty: " + dir);
        }
      }
    }
    return run(config, dir, log);
  }

  private static SoakReport run(SoakConfig config, Path dir, PrintStream log)
      throws InterruptedException {
    SyntheticCorpus corpus =
        SyntheticCorpus.generate(config.seed(), config.memories(), CORPUS_DIMENSION);
    MemoryLedger ledger = new MemoryLedger(MemoryLedger.scopes(config.scopes()), config.memories());
    Embedder embedder = BenchEmbedders.create(config.embedder());
    Preload.Result preload;
    MemoryService service;
    try {
      log.printf(Locale.ROOT, "[soak] preloading %d memories into %s%n", corpus.size(), dir);
      preload = Preload.into(dir, corpus, ledger, embedder);
      // the ledger knows every memory the workers wrote; observed events go to a scope of their
      // own, and hooks do not capture their turns (ChatWorker), so no recall in a ledger scope may
      // show anything else
      Memhook.Builder builder = Memhook.builder().directory(dir).embedder(embedder);
      if (config.observers() > 0) {
        builder.capture(CaptureOptions.builder().scope(CAPTURE_SCOPE).build());
      } else {
        builder.noCapture();
      }
      service = builder.build();
    } catch (RuntimeException e) {
      embedder.close();
      throw e;
    }
    log.printf(
        Locale.ROOT,
        "[soak] preloaded in %.1f s; mixed phase for %s (seed %d)%n",
        preload.elapsed().toMillis() / 1000.0,
        config.duration(),
        config.seed());
    return mixedPhase(config, corpus, ledger, service, preload, log);
  }

  private static SoakReport mixedPhase(
      SoakConfig config,
      SyntheticCorpus corpus,
      MemoryLedger ledger,
      MemoryService service,
      Preload.Result preload,
      PrintStream log)
      throws InterruptedException {
    Findings findings = new Findings();
    SoakStats stats = new SoakStats();
    AtomicBoolean stop = new AtomicBoolean();
    Watchdog watchdog = new Watchdog(config.stallWindow(), findings, log, () -> stop.set(true));
    HeapSampler heap = new HeapSampler(config.heapInterval());
    SplittableRandom seeds = new SplittableRandom(config.seed());
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < config.hooks(); i++) {
      Scope scope = ledger.scopes().get(i % ledger.scopes().size());
      ChatWorker worker =
          new ChatWorker(
              i,
              scope,
              service,
              corpus,
              ledger,
              findings,
              stats,
              watchdog.watch("chat-" + i),
              stop::get,
              config,
              seeds.nextLong());
      threads.add(new Thread(worker, "soak-chat-" + i));
    }
    for (int i = 0; i < config.workers(); i++) {
      MemoryWorker worker =
          new MemoryWorker(
              i,
              service,
              corpus,
              ledger,
              findings,
              stats,
              watchdog.watch("memory-" + i),
              stop::get,
              seeds.nextLong());
      threads.add(new Thread(worker, "soak-memory-" + i));
    }
    LongAdder observed = new LongAdder();
    List<ObserveWorker> observers = new ArrayList<>();
    for (int i = 0; i < config.observers(); i++) {
      ObserveWorker worker =
          new ObserveWorker(
              i,
              service,
              findings,
              stats,
              watchdog.watch("observe-" + i),
              stop::get,
              observed,
              seeds.nextLong());
      observers.add(worker);
      threads.add(new Thread(worker, "soak-observe-" + i));
    }
    heap.start();
    watchdog.start();
    long start = System.nanoTime();
    threads.forEach(Thread::start);
    waitForEnd(config, stats, findings, stop, start, log);
    stop.set(true);
    long joinBy = System.nanoTime() + config.stallWindow().toNanos();
    List<String> stuck = new ArrayList<>();
    for (Thread t : threads) {
      t.join(Math.max(1, (joinBy - System.nanoTime()) / 1_000_000));
      if (t.isAlive()) {
        stuck.add(t.getName());
      }
    }
    Duration mixed = Duration.ofNanos(System.nanoTime() - start);
    if (!stuck.isEmpty()) {
      findings.violation("did not stop", stuck + " still running after the end");
      watchdog.dump("threads that did not stop: " + stuck);
    }
    watchdog.check(); // a last deadlock check, with every worker finished
    watchdog.close();
    heap.sampleNow();
    heap.close();
    ledger.settle(findings);
    ObserveWorker.verify(
        service, CAPTURE_SCOPE, observers, observed.sum(), config.stallWindow(), findings);
    List<HeapSampler.Sample> samples = heap.samples();
    Optional<HeapTrend.Trend> trend = HeapTrend.of(samples, mixed.toNanos());
    trend
        .flatMap(t -> HeapTrend.growth(t, config.heapGrowthRatio(), SoakConfig.HEAP_SLACK_BYTES))
        .ifPresent(message -> findings.violation("heap growth", message));
    checkWorkHappened(config, stats, findings);
    closeWithin(service, config.stallWindow(), findings, watchdog);
    return report(config, preload, mixed, stats, findings, samples, trend);
  }

  private static void waitForEnd(
      SoakConfig config,
      SoakStats stats,
      Findings findings,
      AtomicBoolean stop,
      long start,
      PrintStream log)
      throws InterruptedException {
    long end = start + config.duration().toNanos();
    long every = Math.max(10_000_000_000L, config.duration().toNanos() / 10);
    long nextLog = start + every;
    long now;
    while (!stop.get() && (now = System.nanoTime()) - end < 0) {
      Thread.sleep(Math.max(1, Math.min(200, (end - now) / 1_000_000)));
      if (System.nanoTime() - nextLog >= 0) {
        nextLog += every;
        log.printf(
            Locale.ROOT,
            "[soak] %3d s: turns %d, remember %d, recall %d, forget %d, injected ids %d,"
                + " violations %s%n",
            (System.nanoTime() - start) / 1_000_000_000L,
            stats.latencies().get(Op.TURN).count(),
            stats.latencies().get(Op.REMEMBER).count(),
            stats.latencies().get(Op.RECALL).count(),
            stats.latencies().get(Op.FORGET).count(),
            stats.injectedIds.sum(),
            findings.counts());
      }
    }
  }

  /** Each kind of work ran at least once, or its checks proved nothing. */
  private static void checkWorkHappened(SoakConfig config, SoakStats stats, Findings findings) {
    Map<Op, LatencyHistogram.Summary> latencies = stats.latencies();
    for (Op op : Op.values()) {
      boolean expected =
          switch (op) {
            case TURN -> config.hooks() > 0;
            case OBSERVE -> config.observers() > 0;
            default -> config.workers() > 0;
          };
      if (expected && latencies.get(op).count() == 0) {
        findings.violation("idle", "no " + op.name().toLowerCase(Locale.ROOT) + " completed");
      }
    }
    if (stats.injectedIds.sum() == 0) {
      findings.violation("idle", "no hook injected anything: at-most-once was not exercised");
    }
  }

  /** Closes the service on another thread, so a hang in close is reported, not inherited. */
  private static void closeWithin(
      MemoryService service, Duration limit, Findings findings, Watchdog watchdog)
      throws InterruptedException {
    Thread closer = new Thread(service::close, "soak-close");
    closer.setDaemon(true);
    closer.start();
    closer.join(limit.toMillis());
    if (closer.isAlive()) {
      findings.violation("close hung", "MemoryService.close() did not return in " + limit);
      watchdog.dump("close hung");
    }
  }

  private static SoakReport report(
      SoakConfig config,
      Preload.Result preload,
      Duration mixed,
      SoakStats stats,
      Findings findings,
      List<HeapSampler.Sample> samples,
      Optional<HeapTrend.Trend> trend) {
    long peak = samples.stream().mapToLong(HeapSampler.Sample::usedBytes).max().orElse(0);
    Map<String, Long> violations = findings.counts();
    Map<String, List<String>> details = new LinkedHashMap<>();
    violations.keySet().forEach(kind -> details.put(kind, findings.details(kind)));
    return new SoakReport(
        config,
        preload,
        mixed,
        stats.latencies(),
        stats.outcomes.snapshot(),
        stats.documentedExceptions.snapshot(),
        stats.hookFailures.snapshot(),
        stats.modelFetches.snapshot(),
        stats.injections.sum(),
        stats.injectedIds.sum(),
        stats.duplicateInjections.sum(),
        stats.conversations.sum(),
        peak,
        HeapSampler.poolPeaksBytes(),
        HeapSampler.maxHeapBytes(),
        samples.size(),
        trend,
        violations,
        details);
  }
}
