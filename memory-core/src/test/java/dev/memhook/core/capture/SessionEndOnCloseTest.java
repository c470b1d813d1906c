package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.T0;
import static dev.memhook.core.capture.CaptureFixtures.all;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static dev.memhook.core.capture.CaptureFixtures.sessionEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ModelReply;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing the service ends the sessions it holds open and consolidates them, so a host that runs
 * one conversation per process gets durable memories without calling {@code consolidate}: a hooked
 * conversation and an observed session without its end event alike, on disk and in memory, once,
 * within {@code closeTimeout}; what a close cut short is finished by the next open.
 */
class SessionEndOnCloseTest {

  private static final String PREFERENCE =
      "I prefer tabs over spaces in every Java file of this repo.";
  private static final String DECISION =
      "We decided to keep money as long cents in the shop, never as double.";

  @TempDir Path dir;

  @Test
  void closingTheService_endsAHookedConversation_andItsDistilledMemoryIsThereAfterReopen()
      throws Exception {
    String session;
    try (MemoryService memory = service(CaptureOptions.defaults())) {
      FakeChatService chat = FakeChatService.create();
      chat.scriptReplies(ModelReply.text("I will indent with tabs from now on."));
      try (MemoryHook hook =
          memory.hookInto(
              chat, HookOptions.builder().recallTimeout(Duration.ofSeconds(10)).build())) {
        chat.sendUser(PREFERENCE).toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
      session = "chat-" + chat.messages().get(0).id();
      // no flush, no consolidate: closing is all the host does
    }

    try (MemoryService memory = service(CaptureOptions.defaults())) {
      Session s = memory.capture().session(session).orElseThrow();
      assertEquals(SessionStatus.CLOSED, s.status());
      assertNotNull(s.endedAt());
      assertNotNull(s.summary());
      List<Memory> distilled = distilled(memory);
      assertEquals(1, distilled.size(), all(memory).toString());
      Memory preference = distilled.get(0);
      assertEquals(MemoryType.PREFERENCE, preference.type());
      assertTrue(preference.content().contains("tabs over spaces"), preference.content());
      assertEquals(session, preference.attributes().get("memhook.consolidatedFrom"));
    }
  }

  @Test
  void anObservedSessionWithoutItsSessionEnd_isEndedAndConsolidatedAtClose() {
    RecordingConsolidator consolidator = new RecordingConsolidator();
    try (MemoryService memory = service(withConsolidator(consolidator))) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      memory.capture().observe(prompt("s1", 1, DECISION));
      flush(memory);
      assertEquals(SessionStatus.ACTIVE, memory.capture().session("s1").orElseThrow().status());
      assertEquals(List.of(), consolidator.calls, "nothing ends the session before close");
    }
    assertEquals(List.of("s1 CLOSED"), consolidator.calls);

    try (MemoryService memory = service(CaptureOptions.defaults())) {
      Session s = memory.capture().session("s1").orElseThrow();
      assertEquals(SessionStatus.CLOSED, s.status());
      assertEquals(2, s.observationCount());
      assertEquals(
          List.of(RecordingConsolidator.CONTENT),
          distilled(memory).stream().map(Memory::content).toList());
    }
  }

  @Test
  void aSessionItsEndEventCompleted_isNotEndedAgainOnClose() {
    RecordingConsolidator consolidator = new RecordingConsolidator();
    Instant endedAt;
    try (MemoryService memory = service(withConsolidator(consolidator))) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      memory.capture().observe(sessionEnd("s1", 1));
      flush(memory);
      endedAt = memory.capture().session("s1").orElseThrow().endedAt();
    }
    assertEquals(List.of("s1 COMPLETED"), consolidator.calls);

    try (MemoryService memory = service(withConsolidator(consolidator))) {
      Session s = memory.capture().session("s1").orElseThrow();
      assertEquals(SessionStatus.COMPLETED, s.status());
      assertEquals(endedAt, s.endedAt());
      assertEquals(1, distilled(memory).size());
    }
    assertEquals(List.of("s1 COMPLETED"), consolidator.calls, "ended once");
  }

  @Test
  void anInMemoryService_endsAndConsolidatesItsSessionsOnClose_too() {
    RecordingConsolidator consolidator = new RecordingConsolidator();
    MemoryService memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .capture(withConsolidator(consolidator))
            .build();
    memory.capture().observe(prompt("s1", 0, PREFERENCE));
    memory.capture().observe(prompt("s2", 1, DECISION));
    memory.close();
    assertEquals(List.of("s1 CLOSED", "s2 CLOSED"), consolidator.calls.stream().sorted().toList());
  }

  @Test
  void keepSessionsOpenOnClose_leavesTheSessionActive_forItsEndEventOrTheIdleTimeout() {
    RecordingConsolidator consolidator = new RecordingConsolidator();
    CaptureOptions keep =
        CaptureOptions.builder().consolidator(consolidator).keepSessionsOpenOnClose().build();
    try (MemoryService memory = service(keep)) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
    }
    try (MemoryService memory = service(keep)) {
      Session s = memory.capture().session("s1").orElseThrow();
      assertEquals(SessionStatus.ACTIVE, s.status());
      assertNull(s.endedAt());
      assertEquals(List.of(), distilled(memory));
    }
    assertEquals(List.of(), consolidator.calls);
  }

  @Test
  void aSessionThatSpeaksAfterItWasEndedOnClose_beginsANewSegment_endedAtTheNextClose() {
    RecordingConsolidator consolidator = new RecordingConsolidator();
    try (MemoryService memory = service(withConsolidator(consolidator))) {
      memory.capture().observe(prompt("s1", 0, DECISION));
    }
    Instant firstEnd;
    try (MemoryService memory = service(withConsolidator(consolidator))) {
      firstEnd = memory.capture().session("s1").orElseThrow().endedAt();
      // a later lifetime: the session is known, so its events need no project or cwd
      memory
          .capture()
          .observe(
              LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, "s1")
                  .timestamp(T0.plusSeconds(60))
                  .data(EventData.prompt(PREFERENCE))
                  .build());
      flush(memory);
      Session resumed = memory.capture().session("s1").orElseThrow();
      assertEquals(SessionStatus.ACTIVE, resumed.status());
      assertNull(resumed.endedAt());
      assertEquals(2, resumed.observationCount(), "nothing of either segment is lost");
    }
    assertEquals(List.of("s1 CLOSED", "s1 CLOSED"), consolidator.calls);

    try (MemoryService memory = service(CaptureOptions.defaults())) {
      Session s = memory.capture().session("s1").orElseThrow();
      assertEquals(SessionStatus.CLOSED, s.status());
      assertTrue(s.endedAt().isAfter(firstEnd), s.endedAt() + " after " + firstEnd);
      assertEquals(
          List.of(RecordingConsolidator.CONTENT),
          distilled(memory).stream().map(Memory::content).toList(),
          "the second segment's preference is consolidated");
    }
  }

  @Test
  void aToolStartStillHeldAtClose_isStoredOnItsOwn_whenCloseEndsItsSession() {
    try (MemoryService memory = service(CaptureOptions.defaults())) {
      memory
          .capture()
          .observe(
              LifecycleEvent.builder(LifecycleEventType.PRE_TOOL_USE, "s1")
                  .project("shop")
                  .cwd("/work/shop")
                  .timestamp(T0)
                  .data(EventData.tool("Bash", "mvn -q verify", null))
                  .build());
      flush(memory);
      assertEquals(List.of(), observations(memory), "held until its run ends");
    }
    try (MemoryService memory = service(CaptureOptions.defaults())) {
      assertEquals(SessionStatus.CLOSED, memory.capture().session("s1").orElseThrow().status());
      List<Memory> stored = observations(memory);
      assertEquals(1, stored.size(), stored.toString());
      assertEquals("PreToolUse", stored.get(0).attributes().get("memhook.hookType"));
    }
  }

  @Test
  void closeIsBoundedWhenTheConsolidatorHangs_andTheNextOpenEndsTheSessionOnce() throws Exception {
    HangingConsolidator hanging = new HangingConsolidator();
    try {
      MemoryService memory =
          service(
              CaptureOptions.builder()
                  .consolidator(hanging)
                  .consolidatorTimeout(Duration.ofMinutes(10))
                  .closeTimeout(Duration.ofSeconds(2))
                  .build());
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      flush(memory);
      // without the bound, close would wait for the consolidator's ten-minute timeout
      assertTimeoutPreemptively(Duration.ofSeconds(20), memory::close);
      assertTrue(hanging.entered.await(0, TimeUnit.SECONDS), "close asked the consolidator");
    } finally {
      hanging.release.countDown();
    }

    RecordingConsolidator answering = new RecordingConsolidator();
    try (MemoryService memory = service(withConsolidator(answering))) {
      flush(memory);
      Session s = memory.capture().session("s1").orElseThrow();
      assertEquals(SessionStatus.CLOSED, s.status());
      // what the cut-short close had in hand (the heuristic fallback's proposal) was dropped
      List<Memory> distilled = distilled(memory);
      assertEquals(
          List.of(RecordingConsolidator.CONTENT),
          distilled.stream().map(Memory::content).toList(),
          all(memory).toString());
      assertEquals(1, distilled.get(0).version());
    }
    try (MemoryService memory = service(withConsolidator(answering))) {
      flush(memory);
    }
    assertEquals(List.of("s1 CLOSED"), answering.calls, "the end was finished once");
  }

  /** A provider that never answers and ignores interrupts, until released. */
  private static final class HangingConsolidator implements Consolidator {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public List<Consolidation> consolidate(Session session, List<Memory> observations) {
      entered.countDown();
      while (true) {
        try {
          release.await();
          return List.of();
        } catch (InterruptedException ignored) {
          // a provider stuck in a call that ignores interrupts
        }
      }
    }
  }

  private static CaptureOptions withConsolidator(Consolidator consolidator) {
    return CaptureOptions.builder().consolidator(consolidator).build();
  }

  /** The latest memories consolidation wrote. */
  private static List<Memory> distilled(MemoryService memory) {
    return all(memory).stream()
        .filter(m -> m.type() != MemoryType.OBSERVATION && m.latest())
        .toList();
  }

  private MemoryService service(CaptureOptions options) {
    return Memhook.builder()
        .directory(dir)
        .embedder(HashingEmbedder.create())
        .capture(options)
        .build();
  }
}
