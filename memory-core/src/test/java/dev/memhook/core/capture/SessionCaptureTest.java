package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.T0;
import static dev.memhook.core.capture.CaptureFixtures.all;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static dev.memhook.core.capture.CaptureFixtures.sessionEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sessions are recorded, ended or abandoned, and consolidated into durable memories. */
class SessionCaptureTest {

  private static final String PREFERENCE =
      "I prefer tabs over spaces in every Java file of this repo.";

  @TempDir Path dir;

  @Test
  void anEndedSession_isCompleted_andItsPreferenceBecomesAMemoryLinkedToItsObservation() {
    try (MemoryService memory = service(Clock.systemUTC(), CaptureOptions.defaults())) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      memory
          .capture()
          .observe(prompt("s1", 1, "What does the checkout service call when a payment fails?"));
      memory
          .capture()
          .observe(postTool("s1", 2, "Bash", "mvn -q test", "Tests run: 4, Failures: 0"));
      memory.capture().observe(sessionEnd("s1", 3));
      flush(memory);

      Session s = memory.capture().session("s1").orElseThrow();
      assertEquals(SessionStatus.COMPLETED, s.status());
      assertEquals("shop", s.project());
      assertEquals("/work/shop", s.cwd());
      // the question and the session end are kept in the session, not stored as observations
      assertEquals(2, s.observationCount());
      assertEquals(PREFERENCE, s.firstPrompt());
      assertEquals(T0, s.startedAt());
      assertNotNull(s.endedAt());
      assertNotNull(s.summary());

      List<Memory> preferences = ofType(memory, MemoryType.PREFERENCE);
      assertEquals(1, preferences.size(), all(memory).toString());
      Memory preference = preferences.get(0);
      assertTrue(preference.content().contains("tabs over spaces"), preference.content());
      Memory source =
          all(memory).stream()
              .filter(m -> m.type() == MemoryType.OBSERVATION && m.content().equals(PREFERENCE))
              .findFirst()
              .orElseThrow();
      assertTrue(
          preference.attributes().getOrDefault("memhook.sources", "").contains(source.id().value()),
          preference.attributes().toString());
      assertFalse(
          all(memory).stream()
              .anyMatch(m -> m.type() != MemoryType.OBSERVATION && m.content().contains("?")),
          "a question is never consolidated as a fact");
    }
  }

  @Test
  void theSamePreferenceInALaterSession_updatesTheMemory_insteadOfAddingOne() {
    try (MemoryService memory = service(Clock.systemUTC(), CaptureOptions.defaults())) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      memory.capture().observe(sessionEnd("s1", 1));
      memory
          .capture()
          .observe(
              prompt("s2", 10, "I prefer tabs over spaces in every Java file of this repository."));
      memory.capture().observe(sessionEnd("s2", 11));
      flush(memory);
      List<Memory> preferences = ofType(memory, MemoryType.PREFERENCE);
      List<Memory> latest = preferences.stream().filter(Memory::latest).toList();
      assertEquals(1, latest.size(), preferences.toString());
      assertEquals(2, latest.get(0).version(), "a new version supersedes the first");
    }
  }

  @Test
  void aNewVersionFromALaterSession_keepsTheSourcesOfTheVersionItSupersedes() {
    try (MemoryService memory = service(Clock.systemUTC(), CaptureOptions.defaults())) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      memory.capture().observe(sessionEnd("s1", 1));
      memory
          .capture()
          .observe(
              prompt("s2", 10, "I prefer tabs over spaces in every Java file of this repository."));
      memory.capture().observe(sessionEnd("s2", 11));
      flush(memory);

      Memory latest =
          ofType(memory, MemoryType.PREFERENCE).stream()
              .filter(Memory::latest)
              .findFirst()
              .orElseThrow();
      assertEquals(2, latest.version());
      String first = promptObservation(memory, "s1").id().value();
      String second = promptObservation(memory, "s2").id().value();
      assertEquals(first + " " + second, latest.attributes().get("memhook.sources"));
      assertFalse(latest.attributes().containsKey("memhook.sourcesTruncated"));
      assertEquals("s2", latest.attributes().get("memhook.consolidatedFrom"));
    }
  }

  @Test
  void anIdleSession_isAbandoned_andConsolidatedLikeAnEndedOne() throws Exception {
    AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-30T12:00:00Z"));
    Clock clock =
        new Clock() {
          @Override
          public ZoneId getZone() {
            return ZoneOffset.UTC;
          }

          @Override
          public Clock withZone(ZoneId zone) {
            return this;
          }

          @Override
          public Instant instant() {
            return now.get();
          }
        };
    CaptureOptions options =
        CaptureOptions.builder().sessionIdleTimeout(Duration.ofMinutes(10)).build();
    try (MemoryService memory = service(clock, options)) {
      memory.capture().observe(prompt("idle", 0, PREFERENCE));
      flush(memory);
      assertEquals(SessionStatus.ACTIVE, memory.capture().session("idle").orElseThrow().status());
      now.set(now.get().plus(Duration.ofMinutes(11)));
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (memory.capture().session("idle").orElseThrow().status() == SessionStatus.ACTIVE
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      Session s = memory.capture().session("idle").orElseThrow();
      assertEquals(SessionStatus.ABANDONED, s.status());
      assertEquals(1, ofType(memory, MemoryType.PREFERENCE).size());
    }
  }

  @Test
  void sessionRecords_surviveAReopen() {
    try (MemoryService memory = service(Clock.systemUTC(), CaptureOptions.defaults())) {
      memory.capture().observe(prompt("kept", 0, PREFERENCE));
      flush(memory);
    }
    try (MemoryService memory = service(Clock.systemUTC(), CaptureOptions.defaults())) {
      Session s = memory.capture().session("kept").orElseThrow();
      assertEquals(1, s.observationCount());
      assertEquals(PREFERENCE, s.firstPrompt());
      // a known session needs no project or cwd any more
      memory
          .capture()
          .observe(
              LifecycleEvent.builder(LifecycleEventType.SESSION_END, "kept")
                  .timestamp(T0.plusSeconds(5))
                  .build());
      flush(memory);
      assertEquals(
          SessionStatus.COMPLETED, memory.capture().session("kept").orElseThrow().status());
      assertEquals(1, ofType(memory, MemoryType.PREFERENCE).size(), all(memory).toString());
    }
  }

  private static Memory promptObservation(MemoryService memory, String session) {
    return all(memory).stream()
        .filter(m -> m.type() == MemoryType.OBSERVATION)
        .filter(m -> session.equals(m.sourceSession()) && m.content().startsWith("I prefer"))
        .findFirst()
        .orElseThrow();
  }

  private static List<Memory> ofType(MemoryService memory, MemoryType type) {
    return all(memory).stream().filter(m -> m.type() == type).toList();
  }

  private MemoryService service(Clock clock, CaptureOptions options) {
    return Memhook.builder()
        .directory(dir)
        .embedder(HashingEmbedder.create())
        .clock(clock)
        .capture(options)
        .build();
  }
}
