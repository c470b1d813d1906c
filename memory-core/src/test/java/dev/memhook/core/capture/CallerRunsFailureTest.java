package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static dev.memhook.core.capture.CaptureFixtures.sessionEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.api.capture.ShedPolicy;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.TextHits;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Under {@link ShedPolicy#CALLER_RUNS} an event is accepted once it is in the journal: a failure
 * while the caller stores it afterwards neither turns the answer into {@code SHED} nor reaches the
 * host, each event is counted once, and what failed is stored when the service next opens.
 */
class CallerRunsFailureTest {

  private static final String PREFERENCE =
      "I prefer tabs over spaces in every Java file of this repo.";

  /** What goes wrong on the caller's thread, after its event was appended to the journal. */
  enum Failure {
    /** The store's batch write throws an {@code AssertionError}. */
    STORE_WRITE_THROWS_AN_ERROR,
    /** The store's search throws a {@code NoClassDefFoundError} while the session consolidates. */
    CONSOLIDATION_HITS_A_LINKAGE_ERROR
  }

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(Failure.class)
  void aFailureAfterTheJournalAppend_answersAccepted_andEachEventIsCountedOnce(Failure failure)
      throws Exception {
    StalledStore store = new StalledStore(index(), failure);
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try (MemoryService memory = service(store)) {
      assertEquals(ObserveResult.ACCEPTED, memory.capture().observe(prompt("s1", 0, PREFERENCE)));
      assertTrue(store.entered.await(30, TimeUnit.SECONDS), "the worker stores the first event");
      // takes the queue's one place while the worker is stalled
      assertEquals(
          ObserveResult.ACCEPTED,
          memory
              .capture()
              .observe(postTool("s1", 1, "Bash", "mvn -q test", "Tests run: 4, Failures: 0")));
      AtomicReference<Thread> callerThread = new AtomicReference<>();
      Future<ObserveResult> third =
          caller.submit(
              () -> {
                callerThread.set(Thread.currentThread());
                return memory.capture().observe(sessionEnd("s1", 2));
              });
      awaitBlocked(callerThread);
      store.release.countDown();

      assertEquals(ObserveResult.ACCEPTED, third.get(30, TimeUnit.SECONDS), failure.name());
      flush(memory);
      CaptureStats stats = memory.capture().stats();
      assertEquals(3, stats.accepted(), stats.toString());
      assertEquals(0, stats.shed(), stats.toString());
      assertEquals(0, stats.pending(), stats.toString());
      if (failure == Failure.STORE_WRITE_THROWS_AN_ERROR) {
        assertEquals(1, stats.processed(), "the worker's own event: " + stats);
        assertEquals(2, stats.failed(), "the caller's batch, left in the journal: " + stats);
        assertEquals(1, observations(memory).size());
      } else {
        assertEquals(2, stats.processed(), stats.toString());
        assertEquals(1, stats.notAdmitted(), "the session end: " + stats);
        assertEquals(0, stats.failed(), stats.toString());
        assertEquals(2, observations(memory).size());
        assertEquals(
            SessionStatus.COMPLETED, memory.capture().session("s1").orElseThrow().status());
      }
    } finally {
      caller.shutdownNow();
    }

    try (MemoryService memory = service(index())) {
      flush(memory);
      long replayed = failure == Failure.STORE_WRITE_THROWS_AN_ERROR ? 2 : 0;
      assertEquals(replayed, memory.capture().stats().replayed());
      assertEquals(replayed / 2, memory.capture().stats().processed(), "the tool run");
      assertEquals(replayed / 2, memory.capture().stats().notAdmitted(), "the session end");
      assertEquals(2, observations(memory).size(), "every admitted event is stored once");
      assertEquals(SessionStatus.COMPLETED, memory.capture().session("s1").orElseThrow().status());
      if (failure == Failure.STORE_WRITE_THROWS_AN_ERROR) {
        assertEquals(
            1,
            CaptureFixtures.all(memory).stream()
                .filter(m -> m.type() == MemoryType.PREFERENCE)
                .map(Memory::content)
                .filter(c -> c.contains("tabs over spaces"))
                .count(),
            "the replayed session end consolidates the session");
      }
    }
  }

  /** Waits until the caller's thread blocks on the worker: the queue was full, so it runs. */
  private static void awaitBlocked(AtomicReference<Thread> thread) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      Thread t = thread.get();
      if (t != null && t.getState() == Thread.State.WAITING) {
        return;
      }
      Thread.sleep(5);
    }
    throw new AssertionError("the caller never waited for the stalled worker");
  }

  private MemoryStore index() {
    return LuceneMemoryStore.builder().directory(dir.resolve("index")).build();
  }

  private MemoryService service(MemoryStore store) {
    CaptureOptions options =
        CaptureOptions.builder()
            .queueCapacity(1)
            .shedPolicy(ShedPolicy.CALLER_RUNS)
            .journalDirectory(dir.resolve("journal"))
            .build();
    return Memhook.builder()
        .store(store)
        .embedder(HashingEmbedder.create())
        .capture(options)
        .build();
  }

  /**
   * A store whose first batch write waits for {@link #release}, and which then fails once as the
   * {@link Failure} says.
   */
  private static final class StalledStore extends ForwardingMemoryStore {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger writes = new AtomicInteger();
    private final AtomicBoolean searched = new AtomicBoolean();
    private final Failure failure;

    StalledStore(MemoryStore delegate, Failure failure) {
      super(delegate);
      this.failure = failure;
    }

    @Override
    public void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
      int n = writes.incrementAndGet();
      if (n == 1) {
        entered.countDown();
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      } else if (n == 2 && failure == Failure.STORE_WRITE_THROWS_AN_ERROR) {
        throw new AssertionError("injected: a store invariant broke");
      }
      super.putAll(batch, passages);
    }

    @Override
    public TextHits searchText(Scope scope, String query, int k) {
      if (failure == Failure.CONSOLIDATION_HITS_A_LINKAGE_ERROR && !searched.getAndSet(true)) {
        throw new NoClassDefFoundError("injected: a class of the store is missing");
      }
      return super.searchText(scope, query, k);
    }
  }
}
