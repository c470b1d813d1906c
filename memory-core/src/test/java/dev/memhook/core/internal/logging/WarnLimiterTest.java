package dev.memhook.core.internal.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.testkit.Seeds;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Which events earn a WARN line, on a clock the test moves by hand. */
class WarnLimiterTest {

  private static final Duration INTERVAL = Duration.ofSeconds(30);
  private static final long INTERVAL_NANOS = INTERVAL.toNanos();

  private final AtomicLong now = new AtomicLong(1_000);
  private final WarnLimiter limiter = new WarnLimiter(INTERVAL, now::get);

  @Test
  void theFirstEvent_warns_withNothingHeldBack() {
    assertEquals(new WarnLimiter.Decision(true, 0), limiter.next());
  }

  @Test
  void eventsWithinTheInterval_areHeldBack_andTheNextWarningCountsThem() {
    limiter.next();
    now.addAndGet(1);
    assertEquals(new WarnLimiter.Decision(false, 1), limiter.next());
    now.addAndGet(INTERVAL_NANOS - 2);
    assertEquals(new WarnLimiter.Decision(false, 2), limiter.next(), "one nanosecond short");
    now.addAndGet(1);
    assertEquals(new WarnLimiter.Decision(true, 2), limiter.next(), "a full interval passed");
    assertEquals(new WarnLimiter.Decision(false, 1), limiter.next(), "the count starts again");
  }

  @Test
  void theIntervalRunsFromTheLastWarning_notFromTheLastEvent() {
    limiter.next();
    for (int i = 0; i < 10; i++) {
      now.addAndGet(INTERVAL_NANOS / 10 - 1);
      assertEquals(false, limiter.next().warn(), "event " + i + " came within the interval");
    }
    now.addAndGet(10);
    assertEquals(new WarnLimiter.Decision(true, 10), limiter.next());
  }

  @Test
  void aClockThatWrapsAround_stillWarnsOncePerInterval() {
    now.set(Long.MAX_VALUE - 5);
    assertTrue(limiter.next().warn());
    now.addAndGet(10); // wraps to a negative reading
    assertEquals(new WarnLimiter.Decision(false, 1), limiter.next());
    now.addAndGet(INTERVAL_NANOS);
    assertEquals(new WarnLimiter.Decision(true, 1), limiter.next());
  }

  @Test
  void aNonPositiveInterval_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> new WarnLimiter(Duration.ZERO, now::get));
    assertThrows(
        IllegalArgumentException.class, () -> new WarnLimiter(Duration.ofSeconds(-1), now::get));
  }

  static LongStream seeds() {
    return Seeds.seeds(20);
  }

  /**
   * Property: over any run of events, WARN lines are at least an interval apart, every event is
   * either warned or counted by exactly one later warning (or still held), and no interval holding
   * an event goes without a warning at its first event.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyEvent_isWarnedOrCountedOnce_andWarningsAreAnIntervalApart(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    now.set(random.nextLong());
    int events = 1 + random.nextInt(500);
    long warnings = 0;
    long counted = 0;
    long lastWarn = 0;
    long held = 0;
    for (int i = 0; i < events; i++) {
      now.addAndGet(random.nextLong(INTERVAL_NANOS / (1 + random.nextInt(20)) + 1));
      WarnLimiter.Decision d = limiter.next();
      boolean due = warnings == 0 || now.get() - lastWarn >= INTERVAL_NANOS;
      assertEquals(due, d.warn(), "event " + i + ", " + Seeds.replay(seed));
      if (d.warn()) {
        warnings++;
        counted += d.heldBack();
        assertEquals(held, d.heldBack(), Seeds.replay(seed));
        lastWarn = now.get();
        held = 0;
      } else {
        held++;
        assertEquals(held, d.heldBack(), Seeds.replay(seed));
      }
    }
    assertEquals(events, warnings + counted + held, Seeds.replay(seed));
  }
}
