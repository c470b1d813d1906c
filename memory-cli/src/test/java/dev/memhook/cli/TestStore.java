package dev.memhook.cli;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * A store with known memories, made with the hashing embedder and a clock that moves one minute per
 * write, so that times and ordering are fixed.
 */
final class TestStore {
  static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  static final Scope ALICE = Scope.of("acme", "alice");
  static final Scope BOB = Scope.of("acme", "bob");

  /** The memories seeded, in the order written. */
  record Seeded(Memory tabs, Memory timeoutV1, Memory timeoutV2, Memory bobBug, Memory forgotten) {
    List<Memory> all() {
      return List.of(tabs, timeoutV1, timeoutV2, bobBug, forgotten);
    }
  }

  private TestStore() {}

  static Seeded seed(Path dir) {
    StepClock clock = new StepClock();
    try (MemoryService memory =
        Memhook.builder()
            .directory(dir)
            .embedder(HashingEmbedder.create())
            .clock(clock)
            .noCapture()
            .build()) {
      Memory tabs =
          memory.remember(
              MemoryDraft.builder(ALICE, "Alice prefers tabs over spaces in every Java file.")
                  .type(MemoryType.PREFERENCE)
                  .title("Alice prefers tabs")
                  .sourceSession("session-1")
                  .concepts(List.of("formatting"))
                  .build());
      Memory v1 =
          memory.remember(
              MemoryDraft.builder(ALICE, "The gateway timeout is 30 seconds.")
                  .type(MemoryType.FACT)
                  .title("Gateway timeout")
                  .sourceSession("session-1")
                  .origin(Origin.agent())
                  .build());
      Memory v2 =
          memory.update(
              v1.id(),
              MemoryDraft.builder(ALICE, "The gateway timeout is 45 seconds since the outage.")
                  .type(MemoryType.FACT)
                  .title("Gateway timeout")
                  .sourceSession("session-2")
                  .origin(Origin.agent())
                  .build());
      Memory bug =
          memory.remember(
              MemoryDraft.builder(BOB, "AuthMiddleware rejected tokens because of clock skew.")
                  .type(MemoryType.BUG)
                  .title("Token rejection bug")
                  .origin(Origin.tool("pytest"))
                  .files(List.of("src/auth/AuthMiddleware.java"))
                  .build());
      Memory gone =
          memory.remember(MemoryDraft.builder(BOB, "A memory that was forgotten.").build());
      memory.forget(gone.id(), "ops", "asked by bob");
      return new Seeded(tabs, v1, v2, bug, gone);
    }
  }

  /** A memory a session's consolidation made, and the observation it was made from. */
  record Consolidated(Memory memory, Memory source) {}

  /**
   * Captures one session into {@code scope} of the store in {@code dir}, a prompt stating a
   * preference and the session's end, and returns the preference its consolidation made with its
   * source observation.
   */
  static Consolidated consolidate(Path dir, Scope scope, String session, String preference) {
    try (MemoryService memory =
        Memhook.builder()
            .directory(dir)
            .embedder(HashingEmbedder.create())
            .capture(CaptureOptions.builder().scope(scope).build())
            .build()) {
      memory
          .capture()
          .observe(
              LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, session)
                  .project("shop")
                  .cwd("/work/shop")
                  .timestamp(T0)
                  .data(EventData.prompt(preference))
                  .build());
      memory
          .capture()
          .observe(
              LifecycleEvent.builder(LifecycleEventType.SESSION_END, session)
                  .project("shop")
                  .cwd("/work/shop")
                  .timestamp(T0.plusSeconds(1))
                  .build());
      if (!memory.capture().flush(Duration.ofMinutes(1))) {
        throw new AssertionError("capture did not drain: " + memory.capture().stats());
      }
      List<Memory> made = new ArrayList<>();
      memory
          .maintenance()
          .export(
              m -> {
                if (m.type() == MemoryType.PREFERENCE && session.equals(m.sourceSession())) {
                  made.add(m);
                }
              });
      if (made.size() != 1) {
        throw new AssertionError("expected one consolidated preference, got " + made);
      }
      List<MemoryId> sources = memory.maintenance().sources(made.get(0).id());
      if (sources.size() != 1) {
        throw new AssertionError("expected one source, got " + sources);
      }
      return new Consolidated(made.get(0), memory.get(sources.get(0)).orElseThrow());
    }
  }

  /** A clock that moves one minute each time it is read. */
  static final class StepClock extends Clock {
    private Instant now = T0;

    @Override
    public synchronized Instant instant() {
      Instant t = now;
      now = now.plus(Duration.ofMinutes(1));
      return t;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
