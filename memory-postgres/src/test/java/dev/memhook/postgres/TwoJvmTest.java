package dev.memhook.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.zaxxer.hikari.HikariDataSource;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two {@link MemoryService}s in two JVMs over one PostgreSQL schema, as two application servers
 * share a memory: this JVM's service and a {@link PeerProcess} started for each test ({@link
 * PeerJvm}). What one remembers the other recalls, what one forgets the other stops recalling, and
 * neither recalls one scope's memory in another.
 *
 * <p>The store promises that an instance sees its own writes at once but another instance's only
 * within a bound, so every cross-JVM check polls until {@link #VISIBILITY_DEADLINE} and then
 * asserts; the observed delays are printed. An instance's own writes are asserted at once. A check
 * that something stays absent is only made after the same JVM has seen a later write of the other
 * (or the memory's removal), so absence cannot pass merely because the change had not arrived.
 */
class TwoJvmTest {
  /** How long a write through one JVM may take to show in the other's recall. */
  private static final Duration VISIBILITY_DEADLINE = Duration.ofSeconds(10);

  /** Pause between two polls: short beside the deadline, long enough not to flood the server. */
  private static final Duration POLL_PAUSE = Duration.ofMillis(20);

  /** Recalls after a forgotten memory is first gone that must still not return it. */
  private static final int STAYS_GONE_RECALLS = 3;

  private static final Scope X = Scope.of("tenant-x");
  private static final Scope Y = Scope.of("tenant-y");

  private HikariDataSource pool;
  private MemoryService parent;
  private PeerJvm child;

  @BeforeEach
  void open() throws Exception {
    TestDatabase.requireServer();
    pool = TestDatabase.newPool(4);
    String schema = TestDatabase.newSchema();
    // the parent creates the schema first; the child then finds it (both would take turns anyway)
    parent = PeerProcess.openService(pool, schema);
    child = PeerJvm.start(schema);
    // the first remember and recalls that find something load classes and compile code; without
    // this, the first delay a test measures would be mostly that
    Scope warmUp = Scope.of("warm-up");
    MemoryId warm = child.remember(warmUp, "warm up the recall path");
    child.recall(warmUp, "warm up the recall path");
    poll(
        () -> recall(parent, warmUp, "warm up the recall path"),
        ids -> ids.contains(warm),
        "the parent to recall the warm-up memory");
  }

  @AfterEach
  void close() throws Exception {
    try {
      if (child != null) {
        child.close();
      }
    } finally {
      try {
        if (parent != null) {
          parent.close();
        }
      } finally {
        if (pool != null) {
          pool.close();
        }
        TestDatabase.dropSchemas();
      }
    }
  }

  @Test
  void rememberedInParent_isRecalledInChild_withinTheDeadline() {
    MemoryId id =
        parent
            .remember(MemoryDraft.of(X, "the kestrel gateway certificate rotates on fridays"))
            .id();
    assertEquals(List.of(id), recall(parent, X, "kestrel certificate"), "own write, at once");

    long start = System.nanoTime();
    List<MemoryId> seen =
        poll(
            () -> child.recall(X, "kestrel certificate"),
            ids -> ids.contains(id),
            "the child to recall " + id.value());
    report("remembered in parent, recalled in child", start);

    assertEquals(List.of(id), seen);
  }

  @Test
  void forgottenInChild_isNotRecalledInParent_afterTheDeadline() {
    MemoryId forgotten =
        parent.remember(MemoryDraft.of(X, "the heron database password rotates monthly")).id();
    MemoryId kept =
        parent.remember(MemoryDraft.of(X, "the heron database backups run nightly")).id();
    assertEquals(Set.of(forgotten, kept), Set.copyOf(recall(parent, X, "heron database")));
    poll(
        () -> child.recall(X, "heron database"),
        ids -> ids.containsAll(List.of(forgotten, kept)),
        "the child to recall both memories");

    assertTrue(child.forget(forgotten), "the child forgets a memory it recalls");
    assertEquals(List.of(kept), child.recall(X, "heron database"), "own forget, at once");

    long start = System.nanoTime();
    List<MemoryId> after =
        poll(
            () -> recall(parent, X, "heron database"),
            ids -> !ids.contains(forgotten),
            "the parent to stop recalling " + forgotten.value());
    report("forgotten in child, gone from parent", start);

    assertEquals(List.of(kept), after, "the kept memory is still recalled");
    for (int i = 0; i < STAYS_GONE_RECALLS; i++) {
      assertEquals(List.of(kept), recall(parent, X, "heron database"), "recall " + (i + 1));
    }
    assertTrue(parent.get(forgotten).isEmpty(), "nor read by id");
  }

  @Test
  void memoriesOfOneScope_areNeverRecalledInAnother_acrossTheTwoJvms() {
    String text = "the osprey queue drains into the archive bucket";
    String query = "osprey queue archive";
    MemoryId inX = parent.remember(MemoryDraft.of(X, text)).id();
    MemoryId inY = child.remember(Y, text);

    long start = System.nanoTime();
    List<MemoryId> childSeesX =
        poll(
            () -> child.recall(X, query),
            ids -> ids.contains(inX),
            "the child to recall " + inX.value());
    List<MemoryId> parentSeesY =
        poll(
            () -> recall(parent, Y, query),
            ids -> ids.contains(inY),
            "the parent to recall " + inY.value());
    report("both cross-JVM writes seen", start);

    // each side has now seen the other's write, so a leak across scopes would show here
    assertEquals(List.of(inX), childSeesX);
    assertEquals(List.of(inY), child.recall(Y, query));
    assertEquals(List.of(inY), parentSeesY);
    assertEquals(List.of(inX), recall(parent, X, query));
  }

  private static List<MemoryId> recall(MemoryService service, Scope scope, String query) {
    return service
        .recall(new RecallQuery(scope, query, PeerProcess.RECALL_LIMIT))
        .memories()
        .stream()
        .map(RecalledMemory::memory)
        .map(m -> m.id())
        .toList();
  }

  /**
   * Recalls through {@code recall} until {@code done} holds for its answer, at most {@link
   * #VISIBILITY_DEADLINE}; that answer, or a failure saying what it was {@code waitingFor} and the
   * last answer.
   */
  private static List<MemoryId> poll(
      Supplier<List<MemoryId>> recall, Predicate<List<MemoryId>> done, String waitingFor) {
    long deadline = System.nanoTime() + VISIBILITY_DEADLINE.toNanos();
    while (true) {
      List<MemoryId> ids = recall.get();
      if (done.test(ids)) {
        return ids;
      }
      if (System.nanoTime() - deadline > 0) {
        fail("waited " + VISIBILITY_DEADLINE + " for " + waitingFor + "; last answer " + ids);
      }
      try {
        Thread.sleep(POLL_PAUSE.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while polling", e);
      }
    }
  }

  private static void report(String what, long startNanos) {
    System.out.printf(
        "TwoJvmTest: %s after %.1f ms (deadline %d s)%n",
        what, (System.nanoTime() - startNanos) / 1e6, VISIBILITY_DEADLINE.toSeconds());
  }
}
