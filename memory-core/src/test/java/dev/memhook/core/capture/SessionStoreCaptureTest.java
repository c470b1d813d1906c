package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.T0;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Capture keeps its sessions in the session store the host gives the builder. */
class SessionStoreCaptureTest {

  @TempDir Path dir;

  @Test
  void givenStore_holdsTheSessions_notTheJournalDirectory_andAReopenContinuesThem()
      throws IOException {
    MapSessionStore store = MapSessionStore.create(false);
    try (MemoryService memory = service(store)) {
      memory.capture().observe(prompt("s1", 0, "I prefer tabs over spaces"));
      memory.capture().observe(postTool("s1", 1, "Bash", "ls", "pom.xml"));
      flush(memory);
      assertEquals(List.of("s1"), List.copyOf(store.data.records.keySet()));
      assertEquals(idsOf(memory, "s1"), store.data.ids("s1"));
      assertEquals(2, store.data.ids("s1").size());
      assertEquals(
          memory.capture().session("s1").orElseThrow().scope(), store.data.scopes.get("s1"));
      assertEquals(List.of(), jsonFilesUnder(dir), "nothing beside the journal");
    }
    assertTrue(store.closed(), "the service closes the session store it was given");

    try (MemoryService memory = service(store.reopened())) {
      Session s = memory.capture().session("s1").orElseThrow();
      assertEquals(2, s.observationCount());
      assertEquals("I prefer tabs over spaces", s.firstPrompt());
      // a known session needs no project or cwd: the reopened book knows it from the store
      assertEquals(
          ObserveResult.ACCEPTED,
          memory
              .capture()
              .observe(
                  LifecycleEvent.builder(LifecycleEventType.SESSION_END, "s1")
                      .timestamp(T0.plusSeconds(5))
                      .build()));
      flush(memory);
      assertEquals(SessionStatus.COMPLETED, memory.capture().session("s1").orElseThrow().status());
      assertEquals(2, store.data.ids("s1").size(), "the session end is no observation");
    }
  }

  @Test
  void failingStore_breaksNoObserve_isCounted_andTheNextBatchWritesWhatItMissed() {
    MapSessionStore store = MapSessionStore.create(false);
    try (MemoryService memory = service(store)) {
      store.data.failing = true;
      assertEquals(
          ObserveResult.ACCEPTED, memory.capture().observe(prompt("s1", 0, "deploy on fridays")));
      assertEquals(
          ObserveResult.ACCEPTED,
          memory.capture().observe(postTool("s1", 1, "Bash", "ls", "pom.xml")));
      flush(memory);
      assertEquals(2, memory.capture().stats().processed(), "the observations are stored");
      assertTrue(
          memory.capture().stats().sessionStoreFailures() >= 1, memory.capture().stats()::toString);
      assertEquals(
          2, memory.capture().session("s1").orElseThrow().observationCount(), "held in memory");
      assertTrue(store.data.records.isEmpty());
      assertTrue(store.data.ids("s1").isEmpty());

      store.data.failing = false;
      memory.capture().observe(postTool("s1", 2, "Bash", "git status", "clean"));
      flush(memory);
      assertEquals(3, store.data.ids("s1").size(), "the missed ids are appended, in order");
      assertEquals(idsOf(memory, "s1"), store.data.ids("s1"));
    }
    try (MemoryService memory = service(store.reopened())) {
      assertEquals(
          3, memory.capture().session("s1").orElseThrow().observationCount(), "and the record");
    }
  }

  @Test
  void twoServicesOverOneSharedStore_listAndContinueEachOthersSessions() {
    MapSessionStore.Data sessions = new MapSessionStore.Data();
    try (MemoryStore memories = LuceneMemoryStore.inMemory();
        MemoryService a = sharedService(memories, new MapSessionStore(sessions, true));
        MemoryService b = sharedService(memories, new MapSessionStore(sessions, true))) {
      a.capture().observe(prompt("s1", 0, "the build uses gradle"));
      flush(a);
      assertEquals(List.of("s1"), b.capture().sessions().stream().map(Session::id).toList());

      // no project or cwd: B knows the session only from the store
      LifecycleEvent next =
          LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, "s1")
              .timestamp(T0.plusSeconds(1))
              .data(EventData.prompt("and the tests use junit"))
              .build();
      assertEquals(ObserveResult.ACCEPTED, b.capture().observe(next));
      flush(b);

      assertEquals(2, b.capture().session("s1").orElseThrow().observationCount());
      assertEquals(
          2, a.capture().session("s1").orElseThrow().observationCount(), "A reads B's record");
      assertEquals("the build uses gradle", a.capture().session("s1").orElseThrow().firstPrompt());
      Memory second =
          observations(b).stream()
              .filter(m -> m.content().equals("and the tests use junit"))
              .findFirst()
              .orElseThrow();
      assertEquals("user: the build uses gradle", second.context(), "A's turn is its context");
      assertEquals(2, sessions.ids("s1").size());
    }
  }

  @Test
  void sessionStore_withCaptureOff_failsTheBuild_andIsLeftToTheHost() {
    MapSessionStore store = MapSessionStore.create(false);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                Memhook.builder()
                    .inMemory()
                    .embedder(HashingEmbedder.create())
                    .noCapture()
                    .sessionStore(store)
                    .build());
    assertTrue(e.getMessage().contains("noCapture()"), e.getMessage());
    assertFalse(store.closed());
    Memhook.Builder twice = Memhook.builder().sessionStore(store);
    assertThrows(IllegalStateException.class, () -> twice.sessionStore(store));
  }

  private MemoryService service(MapSessionStore store) {
    return Memhook.builder()
        .directory(dir)
        .embedder(HashingEmbedder.create())
        .sessionStore(store)
        .build();
  }

  private static MemoryService sharedService(MemoryStore memories, MapSessionStore sessions) {
    return Memhook.builder()
        .store(
            new ForwardingMemoryStore(memories) {
              @Override
              public void close() {
                // shared by both services; the test closes it
              }
            })
        .embedder(HashingEmbedder.create())
        .sessionStore(sessions)
        .build();
  }

  /** The service's observations of {@code session}, oldest first. */
  private static List<MemoryId> idsOf(MemoryService memory, String session) {
    return observations(memory).stream()
        .filter(m -> session.equals(m.sourceSession()))
        .sorted(Comparator.comparing(Memory::occurredAt))
        .map(Memory::id)
        .toList();
  }

  private static List<Path> jsonFilesUnder(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.toString().endsWith(".json")).toList();
    }
  }
}
