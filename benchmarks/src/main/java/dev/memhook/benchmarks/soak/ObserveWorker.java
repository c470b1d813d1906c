package dev.memhook.benchmarks.soak;

import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.benchmarks.capture.AgentEvents;
import dev.memhook.benchmarks.soak.SoakStats.Op;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * One thread posting a coding agent's lifecycle events to {@code observeJson}, as a hook script
 * would, one every {@link SoakConfig#OBSERVE_PAUSE}. Every event is valid, so {@code observe} must
 * answer each with {@link ObserveResult#ACCEPTED} (or {@code SHED}/{@code DUPLICATE}, counted) and
 * never throw: an exception is a violation. It keeps a few accepted events' unique words for {@link
 * #verify}, which runs after every worker stopped. Not thread-safe: one thread runs it.
 */
final class ObserveWorker implements Runnable {

  /** Accepted events kept for the final recall check: every {@code SAMPLE_EVERY}-th, at most. */
  private static final int SAMPLE_EVERY = 50;

  private static final int SAMPLES = 20;

  private final int number;
  private final MemoryService service;
  private final Findings findings;
  private final SoakStats stats;
  private final Progress progress;
  private final BooleanSupplier stop;
  private final AgentEvents events;
  private final LongAdder sent;
  private final List<String> sampled = new ArrayList<>();
  private int index;
  private long accepted;

  ObserveWorker(
      int number,
      MemoryService service,
      Findings findings,
      SoakStats stats,
      Progress progress,
      BooleanSupplier stop,
      LongAdder sent,
      long seed) {
    this.number = number;
    this.service = service;
    this.findings = findings;
    this.stats = stats;
    this.progress = progress;
    this.stop = stop;
    this.sent = sent;
    this.events = new AgentEvents(seed);
  }

  @Override
  public void run() {
    try {
      while (!stop.getAsBoolean()) {
        observe();
        progress.step();
        Thread.sleep(SoakConfig.OBSERVE_PAUSE.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) { // the worker's own bug or an Error: stop and report, never vanish
      findings.violation("worker died", "observe worker " + number + ": " + t);
    } finally {
      progress.finish();
    }
  }

  private void observe() {
    String word = AgentEvents.uniqueWord(index++);
    String json = AgentEvents.toJson(events.next());
    sent.increment();
    long t0 = System.nanoTime();
    ObserveResult result;
    try {
      result = service.capture().observeJson(json);
    } catch (RuntimeException e) {
      findings.violation("observe threw", "observer " + number + ": " + e);
      return;
    } finally {
      stats.time(Op.OBSERVE, System.nanoTime() - t0);
    }
    stats.outcomes.add("observe/" + result.name().toLowerCase(Locale.ROOT));
    if (result == ObserveResult.ACCEPTED
        && accepted++ % SAMPLE_EVERY == 0
        && sampled.size() < SAMPLES) {
      sampled.add(word);
    }
  }

  /**
   * After every worker stopped: the pipeline drains within {@code within}; every event sent is
   * counted once as accepted, duplicate, shed or rejected; none failed or is left pending; and each
   * sampled accepted event is found in {@code scope} by its unique word.
   */
  static void verify(
      MemoryService service,
      Scope scope,
      List<ObserveWorker> workers,
      long sent,
      Duration within,
      Findings findings) {
    if (workers.isEmpty()) {
      return;
    }
    if (!service.capture().flush(within)) {
      findings.violation("capture flush", "flush did not drain the pipeline in " + within);
    }
    CaptureStats s = service.capture().stats();
    if (s.accepted() + s.duplicates() + s.shed() + s.rejected() != sent) {
      findings.violation("capture accounting", "sent " + sent + " events, stats say " + s);
    }
    if (s.rejected() != 0 || s.failed() != 0 || s.pending() != 0) {
      findings.violation("capture", "valid events rejected, failed or left pending: " + s);
    }
    for (ObserveWorker w : workers) {
      for (String word : w.sampled) {
        if (!found(service, scope, word)) {
          findings.violation(
              "capture lost", "accepted event with '" + word + "' not found by recall in " + scope);
        }
      }
    }
  }

  private static boolean found(MemoryService service, Scope scope, String word) {
    for (RecalledMemory m : service.recall(new RecallQuery(scope, word, 5)).memories()) {
      if (m.memory().content().contains(word)) {
        return true;
      }
    }
    return false;
  }
}
