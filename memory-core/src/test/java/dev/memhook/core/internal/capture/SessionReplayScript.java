package dev.memhook.core.internal.capture;

import dev.memhook.api.MemoryService;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import java.time.Duration;
import java.time.Instant;

/**
 * The events of {@link SessionReplayCrashTest}, the same in the child that is killed and in the run
 * without a crash: a task, a preference and a decision in one session, then its end.
 */
final class SessionReplayScript {

  /** Where the child stops to be killed. */
  enum Point {
    /** The preference's observation is stored; its session has not listed it. */
    BEFORE_APPEND,
    /** The preference's session record is written; the journal's checkpoint has not passed it. */
    AFTER_SAVE,
    /** The session end's first consolidated memory is stored; the second is not. */
    MID_CONSOLIDATION
  }

  static final String SESSION = "checkout-7";
  static final String SESSIONS = "sessions";
  static final String TASK = "Add a coupon field to the checkout page.";
  static final String PREFERENCE = "We use yarn, never npm.";
  static final String DECISION = "We decided to keep the cart in Redis.";

  /** A word of the memory consolidated second, from {@link #DECISION}, and of no earlier text. */
  static final String SECOND_CONSOLIDATED = "Redis";

  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

  private SessionReplayScript() {}

  /**
   * Observes the script's events; {@code arm} runs right before the event whose processing reaches
   * {@code point}. For {@code BEFORE_APPEND} and {@code AFTER_SAVE} that is the preference, and the
   * script ends there; for {@code MID_CONSOLIDATION}, the session's end.
   */
  static void runUpTo(MemoryService memory, Point point, Runnable arm) {
    memory.capture().observe(prompt(0, TASK));
    flush(memory);
    if (point != Point.MID_CONSOLIDATION) {
      arm.run();
      memory.capture().observe(prompt(1, PREFERENCE));
      return;
    }
    memory.capture().observe(prompt(1, PREFERENCE));
    memory.capture().observe(prompt(2, DECISION));
    flush(memory);
    arm.run();
    memory.capture().observe(end(3));
  }

  /** The whole script with no crash: every event, then the session's end when {@code ended}. */
  static void runWhole(MemoryService memory, boolean ended) {
    memory.capture().observe(prompt(0, TASK));
    flush(memory);
    memory.capture().observe(prompt(1, PREFERENCE));
    if (ended) {
      memory.capture().observe(prompt(2, DECISION));
      flush(memory);
      memory.capture().observe(end(3));
    }
    flush(memory);
  }

  static void flush(MemoryService memory) {
    if (!memory.capture().flush(Duration.ofMinutes(1))) {
      throw new AssertionError("capture did not drain in a minute: " + memory.capture().stats());
    }
  }

  private static LifecycleEvent prompt(int second, String prompt) {
    return LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, SESSION)
        .project("shop")
        .cwd("/work/shop")
        .timestamp(T0.plusSeconds(second))
        .data(EventData.prompt(prompt))
        .build();
  }

  private static LifecycleEvent end(int second) {
    return LifecycleEvent.builder(LifecycleEventType.SESSION_END, SESSION)
        .project("shop")
        .cwd("/work/shop")
        .timestamp(T0.plusSeconds(second))
        .build();
  }
}
