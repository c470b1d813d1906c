package dev.memhook.benchmarks.soak;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What the soak knows to be true about memories, independently of the service: the scope each one
 * was stored in, and when a forget of it returned. Checks compare what the service shows against
 * this, never against the service's own records.
 *
 * <p>Preloaded memories have the corpus's ids ({@code bench-%08d}); their scope follows from the
 * index (whole sessions of {@link #SESSION} memories take turns over the scopes, so every scope
 * holds every topic and a foreign scope always has near matches). Memories remembered during the
 * soak are entered when {@code remember} returns; a check of an id not entered yet (a hook injected
 * it between the store's write and the worker's entry) is kept and settled at the end. Thread-safe.
 */
final class MemoryLedger {

  /** Memories per corpus session, as in {@code SyntheticCorpus}. */
  static final int SESSION = 20;

  /**
   * Scope names that differ only in case, a trailing character or one level of nesting, so a filter
   * that matched by prefix or ignoring case would leak between them.
   */
  private static final List<String> TRICKY =
      List.of("acme", "acme/alice", "ACME", "acme.", "acme/bob", "globex", "globex/alice", "acme-");

  private final List<Scope> scopes;
  private final int preloaded;
  private final Map<MemoryId, Scope> remembered = new ConcurrentHashMap<>();
  private final Map<MemoryId, Long> forgottenAt = new ConcurrentHashMap<>();
  private final Queue<Pending> pending = new ConcurrentLinkedQueue<>();

  private record Pending(MemoryId id, Scope shownIn, String where) {}

  MemoryLedger(List<Scope> scopes, int preloaded) {
    this.scopes = List.copyOf(scopes);
    this.preloaded = preloaded;
  }

  /** The first {@code n} soak scopes: the tricky names first, then {@code tenant-K}. */
  static List<Scope> scopes(int n) {
    List<Scope> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(new Scope(i < TRICKY.size() ? TRICKY.get(i) : "tenant-" + i));
    }
    return out;
  }

  List<Scope> scopes() {
    return scopes;
  }

  /** The scope of preloaded item {@code index}. */
  Scope scopeOfItem(int index) {
    return scopes.get((index / SESSION) % scopes.size());
  }

  /** The preloaded index of {@code id}, or -1 if it is not a preloaded id. */
  int itemIndex(MemoryId id) {
    String v = id.value();
    if (!v.startsWith("bench-")) {
      return -1;
    }
    try {
      int i = Integer.parseInt(v.substring("bench-".length()));
      return i < preloaded ? i : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The true scope of {@code id}, or null if it is not known (yet). */
  Scope truth(MemoryId id) {
    int index = itemIndex(id);
    return index >= 0 ? scopeOfItem(index) : remembered.get(id);
  }

  /** Enters a memory {@code remember} stored. */
  void remembered(MemoryId id, Scope scope) {
    remembered.put(id, scope);
  }

  /**
   * Enters that a forget of {@code id} returned true now.
   *
   * @return false if a forget of it had already returned true: the memory was forgotten twice
   */
  boolean forgotten(MemoryId id) {
    return forgottenAt.putIfAbsent(id, System.nanoTime()) == null;
  }

  /** Whether a forget of {@code id} returned before {@code nanos} (a {@link System#nanoTime()}). */
  boolean forgottenBefore(MemoryId id, long nanos) {
    Long at = forgottenAt.get(id);
    return at != null && at - nanos < 0;
  }

  /**
   * Checks that {@code id}, shown in {@code scope} by {@code where}, belongs to it; an id the
   * ledger does not know yet is checked by {@link #settle}.
   */
  void checkScope(MemoryId id, Scope scope, String where, Findings findings) {
    Scope truth = truth(id);
    if (truth == null) {
      pending.add(new Pending(id, scope, where));
    } else if (!truth.equals(scope)) {
      findings.violation(
          "scope isolation", where + " in scope " + scope + " showed " + id + " of scope " + truth);
    }
  }

  /** Settles the checks of ids unknown when they were made; an id still unknown is a violation. */
  void settle(Findings findings) {
    Pending p;
    while ((p = pending.poll()) != null) {
      Scope truth = truth(p.id());
      if (truth == null) {
        findings.violation(
            "unknown id", p.where() + " in scope " + p.shownIn() + " showed unknown " + p.id());
      } else if (!truth.equals(p.shownIn())) {
        findings.violation(
            "scope isolation",
            p.where() + " in scope " + p.shownIn() + " showed " + p.id() + " of scope " + truth);
      }
    }
  }
}
