package dev.memhook.benchmarks.capture;

import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.benchmarks.BenchEmbedders;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.LuceneMemoryStore;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@link CaptureBench}'s phase {@code throughput}: how many observations per second become
 * searchable, and where the capture worker's time goes, printed as a table and checked against the
 * 1,000 obs/s target for a model.
 *
 * <p>Per embedder and batch size, a fresh service on a {@link LuceneMemoryStore} in a temporary
 * directory, default {@link CaptureOptions} except the batch size and a queue that holds every
 * event: {@code --throughput-events} events (default 10,000 for hashing, 1,000 for a model: at the
 * rates measured so far, more would take minutes per run) are observed from one thread as fast as
 * it goes, then {@code flush(10 minutes)}; throughput is events over the time from the first {@code
 * observe} to {@code flush} returning, when they are all searchable. The model is loaded and has
 * embedded one text before the clock starts. Where the worker's time goes: the embedder and the
 * store are wrapped ({@link TimedEmbedder}, {@link TimedStore}), and their sums are shown as shares
 * of that window (the worker is busy for all of it: events arrive faster than it stores them), the
 * rest being compression, building the memories, session records and the journal checkpoint; the
 * worker thread's CPU time is shown beside (a model's own threads are not in it). Checked
 * afterwards: {@code processed == N}, nothing shed or failed, and a recall of five events' unique
 * words finds each of them.
 *
 * <p>Stateless; each call makes and closes its own services.
 */
final class ThroughputPhase {

  private static final int RECALL_CHECKS = 5;

  private ThroughputPhase() {}

  /** One throughput run and where the worker's time went. */
  record Row(
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

  /**
   * Runs the phase for every embedder and batch size on events of seed {@code seed}, {@code
   * eventsOption} of them or, if it is 0, the default for the embedder, printing to {@code out}.
   *
   * @throws IllegalStateException if a check fails (events not processed, shed, failed, not found)
   */
  static List<Row> measure(
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
    List<Row> rows = new ArrayList<>();
    for (String name : embedders) {
      int n = eventsOption > 0 ? eventsOption : name.equals("hashing") ? 10_000 : 1_000;
      List<LifecycleEvent> events = new AgentEvents(seed).next(n);
      for (int batch : batchSizes) {
        Row row = measureRun(name, batch, events);
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
            RunEnvironment.load());
      }
    }
    for (Row row : rows) {
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

  private static Row measureRun(String embedderName, int batchSize, List<LifecycleEvent> events) {
    Path dir = RunEnvironment.tempDirectory();
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
    Set<Long> before = captureThreadIds();
    try (MemoryService service =
        Memhook.builder().store(store).embedder(embedder).capture(options).build()) {
      embedder.reset(); // building warmed the query side once; count what capture embeds
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      long workerId = workerThreadId(before);
      long cpu0 = mx.getThreadCpuTime(workerId);
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        CaptureBench.expectResult(
            ObserveResult.ACCEPTED, service.capture().observe(events.get(i)), "event " + i);
      }
      long t1 = System.nanoTime();
      boolean flushed = service.capture().flush(CaptureBench.FLUSH_WAIT);
      long t2 = System.nanoTime();
      long cpu = mx.getThreadCpuTime(workerId) - cpu0;
      long embedNanos = embedder.nanos();
      long embedCalls = embedder.calls();
      long embedTexts = embedder.texts();
      long embedChars = embedder.chars();
      long writeNanos = store.writeNanos();
      long writeCalls = store.writeCalls();
      long readNanos = store.readNanos();
      CaptureStats stats = service.capture().stats();
      if (!flushed
          // each event ends once: stored as an observation, or kept only in its session as noise
          || stats.processed() + stats.notAdmitted() != n
          || stats.shed() != 0
          || stats.failed() != 0
          || stats.dropped() != 0) {
        throw new IllegalStateException(
            embedderName
                + " batch "
                + batchSize
                + ": expected "
                + n
                + " processed or not admitted, and none shed, dropped or failed (flush "
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
      return new Row(
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
      RunEnvironment.deleteRecursively(dir);
    }
  }

  /** The ids of the live capture worker threads, named {@code memhook-capture}. */
  private static Set<Long> captureThreadIds() {
    Set<Long> ids = new java.util.HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("memhook-capture") && t.isAlive()) {
        ids.add(t.threadId());
      }
    }
    return ids;
  }

  /**
   * The id of this service's capture worker: the one live {@code memhook-capture} thread not in
   * {@code before}. A service closed earlier in the same JVM may still be finishing its last batch
   * (close is bounded), so its worker is told apart by being there before.
   */
  private static long workerThreadId(Set<Long> before) {
    Set<Long> workers = captureThreadIds();
    workers.removeAll(before);
    if (workers.size() != 1) {
      throw new IllegalStateException(
          "expected one new live memhook-capture thread, found " + workers.size());
    }
    return workers.iterator().next();
  }
}
