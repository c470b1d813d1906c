package dev.memhook.core.internal.compress;

import static dev.memhook.core.internal.compress.CaptureFixtures.SUREFIRE_FAILURE;
import static dev.memhook.core.internal.compress.CaptureFixtures.bash;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.Compressor;
import dev.memhook.api.capture.Observation;
import dev.memhook.api.capture.ObservationKind;
import java.time.Duration;
import java.util.List;
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

/** A provider's compressor under budget, timeout and checks, falling back to the synthetic form. */
class GuardedCompressorTest {

  private static final Duration TIMEOUT = Duration.ofMillis(200);
  private static final CompressedObservation GOOD =
      new CompressedObservation(
          "Model title",
          List.of("A fact."),
          "A narrative.",
          List.of("x"),
          List.of("a.txt"),
          ObservationKind.DISCOVERY,
          0.4);

  private final Observation observation = bash("o1", "mvn test", SUREFIRE_FAILURE);
  private final CompressedObservation synthetic = new SyntheticCompressor().compress(observation);
  private final AtomicLong now = new AtomicLong(0);
  private GuardedCompressor guard;

  @AfterEach
  void close() {
    if (guard != null) {
      guard.close();
    }
  }

  private GuardedCompressor guard(Compressor provider, int perMinute) {
    guard = new GuardedCompressor(provider, TIMEOUT, perMinute, now::get);
    return guard;
  }

  @Test
  void validProviderAnswer_isUsed_andNothingFallsBack() {
    assertSame(GOOD, guard(o -> GOOD, 60).compress(observation));
    assertEquals(new Fallbacks(0, 0, 0, 0, 0), guard.fallbacks());
    assertEquals(1, guard.providerAnswers());
  }

  @Test
  void noProvider_compressesSynthetically_withoutCountingFallbacks() {
    assertEquals(synthetic, guard(null, 60).compress(observation));
    assertEquals(0, guard.fallbacks().total());
  }

  @Test
  void throwingProvider_fallsBack_countedAsError() {
    CompressedObservation c =
        guard(
                o -> {
                  throw new IllegalStateException("model overloaded");
                },
                60)
            .compress(observation);
    assertEquals(synthetic, c);
    assertEquals(new Fallbacks(1, 0, 0, 0, 0), guard.fallbacks());
  }

  @Test
  void providerSleepingPastTheTimeout_fallsBack_longBeforeItWouldAnswer_andIsInterrupted()
      throws InterruptedException {
    CountDownLatch interrupted = new CountDownLatch(1);
    AtomicReference<String> thread = new AtomicReference<>();
    Compressor slow =
        o -> {
          thread.set(Thread.currentThread().getName());
          try {
            Thread.sleep(60_000);
          } catch (InterruptedException e) {
            interrupted.countDown();
            throw e;
          }
          return GOOD;
        };
    long start = System.nanoTime();
    CompressedObservation c = guard(slow, 60).compress(observation);
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertEquals(synthetic, c);
    assertTrue(tookMillis < 5_000, "returned after " + tookMillis + " ms");
    assertEquals(new Fallbacks(0, 1, 0, 0, 0), guard.fallbacks());
    assertTrue(interrupted.await(5, TimeUnit.SECONDS), "the call was cancelled");
    assertTrue(thread.get().startsWith("memhook-compressor-"), thread.get());
  }

  @Test
  void providerHangingForever_ignoringInterrupts_neverStallsACallBeyondTheTimeout() {
    CountDownLatch never = new CountDownLatch(1);
    Compressor hung =
        o -> {
          while (never.getCount() > 0) {
            try {
              never.await();
            } catch (InterruptedException ignored) {
              // a provider that ignores interrupts
            }
          }
          return GOOD;
        };
    guard(hung, 1_000);
    long start = System.nanoTime();
    for (int i = 0; i < ProviderGuard.MAX_THREADS + 3; i++) {
      assertEquals(synthetic, guard.compress(observation));
    }
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    never.countDown();

    Fallbacks f = guard.fallbacks();
    assertEquals(ProviderGuard.MAX_THREADS, f.timeout(), "one timeout per stuck thread");
    assertEquals(3, f.busy(), "then refused at once");
    assertTrue(tookMillis < 20_000, "took " + tookMillis + " ms");
  }

  static Stream<Arguments> garbage() {
    String longTitle = "t".repeat(10_000);
    return Stream.of(
        Arguments.of("null", null),
        Arguments.of(
            "10,000-character title",
            new CompressedObservation(
                longTitle, List.of(), "", List.of(), List.of(), ObservationKind.ERROR, 0.5)),
        Arguments.of(
            "importance NaN",
            new CompressedObservation(
                "t", List.of(), "", List.of(), List.of(), ObservationKind.ERROR, Double.NaN)),
        Arguments.of(
            "importance 1.5",
            new CompressedObservation(
                "t", List.of(), "", List.of(), List.of(), ObservationKind.ERROR, 1.5)),
        Arguments.of(
            "blank title",
            new CompressedObservation(
                " ", List.of(), "", List.of(), List.of(), ObservationKind.ERROR, 0.5)),
        Arguments.of(
            "51 concepts",
            new CompressedObservation(
                "t",
                List.of(),
                "",
                Stream.generate(() -> "c").limit(51).toList(),
                List.of(),
                ObservationKind.ERROR,
                0.5)),
        Arguments.of(
            "a 501-character file",
            new CompressedObservation(
                "t",
                List.of(),
                "",
                List.of(),
                List.of("f".repeat(501)),
                ObservationKind.ERROR,
                0.5)),
        Arguments.of(
            "a 1,001-character narrative",
            new CompressedObservation(
                "t",
                List.of(),
                "n".repeat(1_001),
                List.of(),
                List.of(),
                ObservationKind.ERROR,
                0.5)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("garbage")
  void garbageAnswer_fallsBack_countedAsInvalid(String name, CompressedObservation answer) {
    assertEquals(synthetic, guard(o -> answer, 60).compress(observation));
    assertEquals(new Fallbacks(0, 0, 1, 0, 0), guard.fallbacks());
  }

  @Test
  void spentBudget_fallsBackWithoutCalling_untilTheMinuteHasRolledOn() {
    AtomicInteger calls = new AtomicInteger();
    guard(
        o -> {
          calls.incrementAndGet();
          return GOOD;
        },
        2);

    assertSame(GOOD, guard.compress(observation));
    now.addAndGet(Duration.ofSeconds(30).toNanos());
    assertSame(GOOD, guard.compress(observation));
    assertEquals(synthetic, guard.compress(observation), "third call in a minute");
    now.addAndGet(Duration.ofSeconds(29).toNanos());
    assertEquals(synthetic, guard.compress(observation), "59 s after the first call");
    now.addAndGet(Duration.ofSeconds(2).toNanos());
    assertSame(GOOD, guard.compress(observation), "the first call left the minute");

    assertEquals(3, calls.get());
    assertEquals(new Fallbacks(0, 0, 0, 2, 0), guard.fallbacks());
  }

  @Test
  void zeroCallsPerMinute_neverCallsTheProvider() {
    AtomicInteger calls = new AtomicInteger();
    guard(
        o -> {
          calls.incrementAndGet();
          return GOOD;
        },
        0);
    assertEquals(synthetic, guard.compress(observation));
    assertEquals(0, calls.get());
    assertEquals(1, guard.fallbacks().budget());
  }

  @Test
  void afterClose_compressesSynthetically_andCloseIsIdempotent() {
    guard(o -> GOOD, 60).close();
    guard.close();
    assertEquals(synthetic, guard.compress(observation));
  }
}
