package dev.memhook.core.internal.compress;

import static dev.memhook.core.internal.compress.CaptureFixtures.prompt;
import static dev.memhook.core.internal.compress.CaptureFixtures.session;
import static dev.memhook.core.internal.compress.CaptureFixtures.stored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.api.capture.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A provider's consolidator under budget, timeout and checks, falling back to the heuristics. */
class GuardedConsolidatorTest {

  private static final Duration TIMEOUT = Duration.ofMillis(200);

  private final Session session = session();
  private final List<Memory> observations =
      List.of(
          stored(prompt("p1", "I prefer tabs over spaces in every Java file.")),
          stored(prompt("p2", "The staging database runs on port 5433.")));
  private final List<Consolidation> heuristic =
      new HeuristicConsolidator().consolidate(session, observations);
  private final Consolidation good =
      new Consolidation(
          MemoryType.PREFERENCE,
          "Tabs",
          "The user indents Java with tabs.",
          List.of("java"),
          List.of(),
          0.7,
          List.of(MemoryId.of("p1")));
  private final AtomicLong now = new AtomicLong(0);
  private final List<String> told = Collections.synchronizedList(new ArrayList<>());
  private GuardedConsolidator guard;

  @AfterEach
  void close() {
    if (guard != null) {
      guard.close();
    }
  }

  private GuardedConsolidator guard(Consolidator provider, int perMinute) {
    guard =
        new GuardedConsolidator(
            provider, TIMEOUT, perMinute, now::get, (s, reason) -> told.add(s.id() + ":" + reason));
    return guard;
  }

  @Test
  void theHeuristicsAlone_findSomethingInTheseObservations() {
    assertEquals(
        List.of(MemoryType.PREFERENCE, MemoryType.FACT),
        heuristic.stream().map(Consolidation::type).toList());
  }

  @Test
  void validProviderAnswer_isUsed_andNothingFallsBack() {
    assertEquals(
        List.of(good), guard((s, o) -> List.of(good), 10).consolidate(session, observations));
    assertEquals(new Fallbacks(0, 0, 0, 0, 0), guard.fallbacks());
    assertEquals(1, guard.providerAnswers());
    assertEquals(List.of(), told);
  }

  @Test
  void noProvider_consolidatesHeuristically_withoutCountingFallbacks() {
    assertEquals(heuristic, guard(null, 10).consolidate(session, observations));
    assertEquals(0, guard.fallbacks().total());
    assertEquals("heuristic", guard.name());
  }

  @Test
  void throwingProvider_fallsBack_countedAsError_andTold() {
    Consolidator throwing =
        (s, o) -> {
          throw new IllegalStateException("model overloaded");
        };
    assertEquals(heuristic, guard(throwing, 10).consolidate(session, observations));
    assertEquals(new Fallbacks(1, 0, 0, 0, 0), guard.fallbacks());
    assertEquals(List.of(session.id() + ":error"), told);
  }

  @Test
  void providerThatChangesTheObservations_failsOnItsOwnCopy_andTheHeuristicsSeeThemAll() {
    List<Memory> given = new ArrayList<>(observations);
    Consolidator clearing =
        (s, o) -> {
          o.clear();
          return List.of();
        };
    assertEquals(heuristic, guard(clearing, 10).consolidate(session, given));
    assertEquals(observations, given);
    assertEquals(1, guard.fallbacks().error());
  }

  @Test
  void providerSleepingPastTheTimeout_fallsBack_longBeforeItWouldAnswer_andIsInterrupted()
      throws InterruptedException {
    CountDownLatch interrupted = new CountDownLatch(1);
    AtomicReference<String> thread = new AtomicReference<>();
    Consolidator slow =
        (s, o) -> {
          thread.set(Thread.currentThread().getName());
          try {
            Thread.sleep(60_000);
          } catch (InterruptedException e) {
            interrupted.countDown();
            throw e;
          }
          return List.of(good);
        };
    long start = System.nanoTime();
    List<Consolidation> found = guard(slow, 10).consolidate(session, observations);
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertEquals(heuristic, found);
    assertTrue(tookMillis < 5_000, "returned after " + tookMillis + " ms");
    assertEquals(new Fallbacks(0, 1, 0, 0, 0), guard.fallbacks());
    assertTrue(interrupted.await(5, TimeUnit.SECONDS), "the call was cancelled");
    assertTrue(thread.get().startsWith("memhook-consolidator-"), thread.get());
    assertEquals(List.of(session.id() + ":timeout"), told);
  }

  @Test
  void providerHangingForever_ignoringInterrupts_neverStallsACallBeyondTheTimeout() {
    CountDownLatch never = new CountDownLatch(1);
    Consolidator hung =
        (s, o) -> {
          while (never.getCount() > 0) {
            try {
              never.await();
            } catch (InterruptedException ignored) {
              // a provider that ignores interrupts
            }
          }
          return List.of(good);
        };
    guard(hung, 1_000);
    long start = System.nanoTime();
    for (int i = 0; i < ProviderGuard.MAX_THREADS + 3; i++) {
      assertEquals(heuristic, guard.consolidate(session, observations));
    }
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    never.countDown();

    Fallbacks f = guard.fallbacks();
    assertEquals(ProviderGuard.MAX_THREADS, f.timeout(), "one timeout per stuck thread");
    assertEquals(3, f.busy(), "then refused at once");
    assertTrue(tookMillis < 20_000, "took " + tookMillis + " ms");
  }

  static Stream<Arguments> garbage() {
    List<MemoryId> p1 = List.of(MemoryId.of("p1"));
    List<Consolidation> withNull = new ArrayList<>();
    withNull.add(null);
    return Stream.of(
        Arguments.of("null", null),
        Arguments.of("a null consolidation", withNull),
        Arguments.of("blank content", List.of(of("Tabs", " ", 0.5, List.of(), p1))),
        Arguments.of(
            "a 201-character title", List.of(of("t".repeat(201), "c", 0.5, List.of(), p1))),
        Arguments.of(
            "100,001 characters of content",
            List.of(of("t", "c".repeat(100_001), 0.5, List.of(), p1))),
        Arguments.of("importance NaN", List.of(of("t", "c", Double.NaN, List.of(), p1))),
        Arguments.of("importance 1.5", List.of(of("t", "c", 1.5, List.of(), p1))),
        Arguments.of("no sources", List.of(of("t", "c", 0.5, List.of(), List.of()))),
        Arguments.of(
            "a source that is not an observation of the session",
            List.of(of("t", "c", 0.5, List.of(), List.of(MemoryId.of("elsewhere"))))),
        Arguments.of(
            "51 concepts",
            List.of(of("t", "c", 0.5, Stream.generate(() -> "c").limit(51).toList(), p1))),
        Arguments.of(
            "101 consolidations",
            Stream.generate(() -> of("t", "c", 0.5, List.of(), p1)).limit(101).toList()));
  }

  private static Consolidation of(
      String title, String content, double importance, List<String> concepts, List<MemoryId> src) {
    return new Consolidation(MemoryType.FACT, title, content, concepts, List.of(), importance, src);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("garbage")
  void garbageAnswer_fallsBack_countedAsInvalid(String name, List<Consolidation> answer) {
    assertEquals(heuristic, guard((s, o) -> answer, 10).consolidate(session, observations));
    assertEquals(new Fallbacks(0, 0, 1, 0, 0), guard.fallbacks());
    assertEquals(List.of(session.id() + ":invalid"), told);
  }

  @Test
  void spentBudget_fallsBackWithoutCalling_untilTheMinuteHasRolledOn() {
    AtomicInteger calls = new AtomicInteger();
    guard(
        (s, o) -> {
          calls.incrementAndGet();
          return List.of(good);
        },
        1);

    assertEquals(List.of(good), guard.consolidate(session, observations));
    now.addAndGet(Duration.ofSeconds(59).toNanos());
    assertEquals(heuristic, guard.consolidate(session, observations), "second call in a minute");
    now.addAndGet(Duration.ofSeconds(2).toNanos());
    assertEquals(List.of(good), guard.consolidate(session, observations), "a minute later");

    assertEquals(2, calls.get());
    assertEquals(new Fallbacks(0, 0, 0, 1, 0), guard.fallbacks());
  }

  @Test
  void closeDuringAHungCall_endsTheCallersWaitAtOnce_withTheHeuristics_andCountsNoFallback()
      throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    Consolidator hung =
        (s, o) -> {
          entered.countDown();
          while (never.getCount() > 0) {
            try {
              never.await();
            } catch (InterruptedException ignored) {
              // a provider that ignores interrupts
            }
          }
          return List.of(good);
        };
    guard =
        new GuardedConsolidator(
            hung, Duration.ofMinutes(10), 10, now::get, (s, reason) -> told.add(reason));
    try {
      CompletableFuture<List<Consolidation>> waiting =
          CompletableFuture.supplyAsync(() -> guard.consolidate(session, observations));
      assertTrue(entered.await(30, TimeUnit.SECONDS), "the provider was called");
      guard.close();
      // without the cancel, the caller would wait out the ten-minute timeout
      assertEquals(heuristic, waiting.get(30, TimeUnit.SECONDS));
      assertEquals(0, guard.fallbacks().total());
      assertEquals(List.of(), told);
    } finally {
      never.countDown();
    }
  }

  @Test
  void afterClose_consolidatesHeuristically_andCloseIsIdempotent() {
    guard((s, o) -> List.of(good), 10).close();
    guard.close();
    assertEquals(heuristic, guard.consolidate(session, observations));
    assertEquals(0, guard.fallbacks().total());
  }
}
