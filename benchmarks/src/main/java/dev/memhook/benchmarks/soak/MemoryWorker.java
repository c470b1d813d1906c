package dev.memhook.benchmarks.soak;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryException;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Origin;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.benchmarks.SyntheticCorpus;
import dev.memhook.benchmarks.soak.SoakStats.Op;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One thread calling the service directly, as a host's request handlers would: remember (25 %),
 * recall (55 %) and forget (20 %) over every scope, checking each answer against the {@link
 * MemoryLedger}:
 *
 * <ul>
 *   <li>a recall returns at most its limit, only memories of its scope, and never a memory whose
 *       forget returned before the recall started;
 *   <li>{@code remember} returns a memory of the draft's scope;
 *   <li>a forget of a live memory this worker remembered returns true, after which {@code get}
 *       finds nothing; a memory is never forgotten twice (two forgets both returning true).
 * </ul>
 *
 * Exceptions the methods document ({@link MemoryException}, {@link IllegalArgumentException}) are
 * counted by type; any other is a violation. Not thread-safe: one thread runs it.
 */
final class MemoryWorker implements Runnable {

  /** Own memories kept as forget candidates; older ones stay stored. */
  private static final int OWN_KEPT = 2_000;

  private final int number;
  private final MemoryService service;
  private final SyntheticCorpus corpus;
  private final MemoryLedger ledger;
  private final Findings findings;
  private final SoakStats stats;
  private final Progress progress;
  private final BooleanSupplier stop;
  private final Random random;
  private final Deque<MemoryId> own = new ArrayDeque<>();
  private long remembered;

  MemoryWorker(
      int number,
      MemoryService service,
      SyntheticCorpus corpus,
      MemoryLedger ledger,
      Findings findings,
      SoakStats stats,
      Progress progress,
      BooleanSupplier stop,
      long seed) {
    this.number = number;
    this.service = service;
    this.corpus = corpus;
    this.ledger = ledger;
    this.findings = findings;
    this.stats = stats;
    this.progress = progress;
    this.stop = stop;
    this.random = new Random(seed);
  }

  @Override
  public void run() {
    try {
      while (!stop.getAsBoolean()) {
        int dice = random.nextInt(100);
        if (dice < 25) {
          remember();
        } else if (dice < 80) {
          recall();
        } else {
          forget();
        }
        progress.step();
      }
    } catch (Throwable t) { // the worker's own bug or an Error: stop and report, never vanish
      findings.violation("worker died", "memory worker " + number + ": " + t);
    } finally {
      progress.finish();
    }
  }

  private Scope anyScope() {
    List<Scope> scopes = ledger.scopes();
    return scopes.get(random.nextInt(scopes.size()));
  }

  private void remember() {
    Scope scope = anyScope();
    SyntheticCorpus.Item like = corpus.items().get(random.nextInt(corpus.size()));
    String token = "soakw" + number + "n" + (++remembered);
    MemoryDraft draft =
        MemoryDraft.builder(scope, like.text() + " Noted as " + token + ".")
            .origin(Origin.user(like.speaker()))
            .sourceSession("soak-worker-" + number)
            .build();
    Memory m = timed(Op.REMEMBER, "remember", () -> service.remember(draft));
    if (m == null) {
      return;
    }
    ledger.remembered(m.id(), scope);
    if (!m.scope().equals(scope)) {
      findings.violation("scope isolation", "remember into " + scope + " returned " + m.scope());
    }
    own.addLast(m.id());
    if (own.size() > OWN_KEPT) {
      own.removeFirst();
    }
  }

  private void recall() {
    Scope scope = anyScope();
    int limit = 1 + random.nextInt(10);
    RecallQuery query = new RecallQuery(scope, corpus.query(random).text(), limit);
    long started = System.nanoTime();
    RecallResult result = timed(Op.RECALL, "recall", () -> service.recall(query));
    if (result == null) {
      return;
    }
    stats.outcomes.add(result.memories().isEmpty() ? "recall/empty" : "recall/hits");
    if (result.memories().size() > limit) {
      findings.violation(
          "recall limit", "recall limit " + limit + " returned " + result.memories().size());
    }
    for (RecalledMemory rm : result.memories()) {
      if (!rm.memory().scope().equals(scope)) {
        findings.violation(
            "scope isolation",
            "recall in " + scope + " returned " + rm.id() + " stored as " + rm.memory().scope());
      }
      ledger.checkScope(rm.id(), scope, "recall", findings);
      if (ledger.forgottenBefore(rm.id(), started)) {
        findings.violation(
            "forgotten recalled", "recall started after forget(" + rm.id() + ") returned it");
      }
    }
  }

  private void forget() {
    boolean mine = !own.isEmpty() && random.nextInt(10) < 7;
    MemoryId id =
        mine
            ? own.pollFirst()
            : MemoryId.of(String.format(Locale.ROOT, "bench-%08d", random.nextInt(corpus.size())));
    Boolean forgotten =
        timed(Op.FORGET, "forget", () -> service.forget(id, "soak", "soak worker " + number));
    if (forgotten == null) {
      return;
    }
    stats.outcomes.add("forget/" + forgotten);
    if (forgotten && !ledger.forgotten(id)) {
      findings.violation("forgotten twice", "two forgets of " + id + " both returned true");
    }
    if (mine) {
      if (!forgotten) {
        findings.violation("forget", "forget of live " + id + " (remembered here) returned false");
      }
      if (timedGet(id)) {
        findings.violation("forget", "get(" + id + ") found it after forget returned true");
      }
    }
  }

  /** Whether {@code get} still finds {@code id}; an exception counts and reads as "not found". */
  private boolean timedGet(MemoryId id) {
    Boolean present = call("get", () -> service.get(id).isPresent());
    return present != null && present;
  }

  private <T> T timed(Op op, String method, Supplier<T> body) {
    long t0 = System.nanoTime();
    T value = call(method, body);
    stats.time(op, System.nanoTime() - t0);
    return value;
  }

  /** Runs {@code body}; counts a documented exception, reports any other; null when it threw. */
  private <T> T call(String method, Supplier<T> body) {
    try {
      return body.get();
    } catch (MemoryException | IllegalArgumentException e) {
      stats.documentedExceptions.add(method + ": " + e.getClass().getSimpleName());
      return null;
    } catch (RuntimeException e) {
      stats.documentedExceptions.add(method + ": UNDOCUMENTED " + e.getClass().getSimpleName());
      findings.violation("undocumented exception", method + " threw " + e);
      return null;
    }
  }
}
