package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.all;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
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
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.SessionStore;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay completes every step an accepted event owes, at each point where a crash can cut the steps
 * apart: after the observation is stored and before its session lists it, after the session record
 * is written and before the journal's checkpoint passes the event, and during a session's
 * consolidation, after some of its memories are written. After the reopen, the session and its
 * consolidated memories are exactly those of a run without the crash.
 *
 * <p>The crash is made in this JVM: at the crash point a session store or an embedder throws a
 * {@link Crash}, an {@code Error} that capture does not catch, so the capture worker stops there
 * and nothing of the event's remaining steps runs, as in a process killed at that point. Closing
 * the service then moves the journal's checkpoint no further than the killed process could have,
 * and, its sessions kept open on close, journals nothing a killed process could not have ({@code
 * SessionEndOnCloseCrashTest} kills a process during close). {@code SessionReplayCrashTest} kills a
 * real JVM at the same points.
 */
class CrashPointReplayTest {

  private static final String SESSION = "checkout-7";
  private static final String TASK = "Add a coupon field to the checkout page.";
  private static final String PREFERENCE = "We use yarn, never npm.";
  private static final String DECISION = "We decided to keep the cart in Redis.";

  @TempDir Path clean;
  @TempDir Path crashed;

  /** Stands for the kill: thrown at the crash point, caught by no step of capture. */
  private static final class Crash extends Error {
    private static final long serialVersionUID = 1L;

    Crash(String where) {
      super("simulated crash " + where);
    }
  }

  /** Where a {@link CrashingSessionStore} crashes once armed. */
  private enum Point {
    /** Before the next append of observation ids: the observation is stored, not listed. */
    BEFORE_APPEND,
    /** After the next record is written: every session step done, the checkpoint not moved. */
    AFTER_SAVE
  }

  /** A session store over {@link MapSessionStore} data that crashes once, where it is armed to. */
  private static final class CrashingSessionStore implements SessionStore {
    private final MapSessionStore delegate;
    private final CountDownLatch crashed = new CountDownLatch(1);
    private volatile Point armed;

    CrashingSessionStore(MapSessionStore delegate) {
      this.delegate = delegate;
    }

    void crashAt(Point point) {
      armed = point;
    }

    void awaitCrash() throws InterruptedException {
      assertTrue(crashed.await(30, TimeUnit.SECONDS), "capture never reached " + armed);
    }

    private void crashIf(Point point) {
      if (armed == point) {
        armed = null;
        crashed.countDown();
        throw new Crash(point.name());
      }
    }

    @Override
    public boolean shared() {
      return delegate.shared();
    }

    @Override
    public List<String> loadAll() {
      return delegate.loadAll();
    }

    @Override
    public Optional<String> load(String sessionId) {
      return delegate.load(sessionId);
    }

    @Override
    public void save(String sessionId, Scope scope, String record) {
      delegate.save(sessionId, scope, record);
      crashIf(Point.AFTER_SAVE);
    }

    @Override
    public void appendObservations(String sessionId, List<MemoryId> ids) {
      crashIf(Point.BEFORE_APPEND);
      delegate.appendObservations(sessionId, ids);
    }

    @Override
    public List<MemoryId> observations(String sessionId) {
      return delegate.observations(sessionId);
    }

    @Override
    public void close() {
      delegate.close();
    }
  }

  /** Crashes, once armed, when asked to embed a text containing {@link #needle}. */
  private static final class CrashingEmbedder implements Embedder {
    private final Embedder delegate = HashingEmbedder.create();
    private final CountDownLatch crashed = new CountDownLatch(1);
    private volatile String needle;

    void crashEmbedding(String text) {
      needle = text;
    }

    void awaitCrash() throws InterruptedException {
      assertTrue(crashed.await(30, TimeUnit.SECONDS), "capture never embedded " + needle);
    }

    @Override
    public Embedding embed(String text) {
      String n = needle;
      if (n != null && text.contains(n)) {
        needle = null;
        crashed.countDown();
        throw new Crash("embedding " + n);
      }
      return delegate.embed(text);
    }

    @Override
    public int dimension() {
      return delegate.dimension();
    }

    @Override
    public String modelId() {
      return delegate.modelId();
    }

    @Override
    public void close() {}
  }

  /**
   * What a run leaves of the session: the observations its store lists (their ids, and their
   * contents, in order), its record, and the consolidated memories (type, content, and the contents
   * of their sources).
   */
  private record Outcome(
      List<MemoryId> listedIds,
      List<String> listed,
      int observationCount,
      SessionStatus status,
      String summary,
      List<String> consolidated,
      int observationsStored) {}

  @Test
  void anObservationStoredBeforeItsSessionListedIt_joinsItsSessionOnReplay() throws Exception {
    Outcome expected = twoPromptsWithoutACrash();

    MapSessionStore sessions = MapSessionStore.create(false);
    CrashingSessionStore crashing = new CrashingSessionStore(sessions);
    try (MemoryService memory = service(crashed, crashing, HashingEmbedder.create())) {
      memory.capture().observe(prompt(SESSION, 0, TASK));
      flush(memory);
      crashing.crashAt(Point.BEFORE_APPEND);
      memory.capture().observe(prompt(SESSION, 1, PREFERENCE));
      crashing.awaitCrash();
    }
    assertEquals(1, sessions.data.ids(SESSION).size(), "the crash left the second one unlisted");

    Outcome replayed = reopenAndConsolidate(sessions);
    assertEquals(List.of(TASK, PREFERENCE), replayed.listed());
    assertEquals(2, replayed.observationCount());
    assertTrue(replayed.summary().contains("2 observations"), replayed.summary());
    assertEquals(
        List.of("PREFERENCE " + PREFERENCE + " <- " + PREFERENCE), replayed.consolidated());
    assertEquals(expected, replayed);
  }

  @Test
  void aReplayCutShortByASecondCrash_isReplayedAgain_andDuplicatesNothing() throws Exception {
    Outcome expected = twoPromptsWithoutACrash();

    MapSessionStore sessions = MapSessionStore.create(false);
    CrashingSessionStore crashing = new CrashingSessionStore(sessions);
    try (MemoryService memory = service(crashed, crashing, HashingEmbedder.create())) {
      memory.capture().observe(prompt(SESSION, 0, TASK));
      flush(memory);
      crashing.crashAt(Point.BEFORE_APPEND);
      memory.capture().observe(prompt(SESSION, 1, PREFERENCE));
      crashing.awaitCrash();
    }
    // the replay of the second prompt crashes at the same point
    CrashingSessionStore again = new CrashingSessionStore(sessions.reopened());
    again.crashAt(Point.BEFORE_APPEND);
    try (MemoryService memory = service(crashed, again, HashingEmbedder.create())) {
      again.awaitCrash();
    }
    assertEquals(1, sessions.data.ids(SESSION).size());

    assertEquals(expected, reopenAndConsolidate(sessions));
  }

  @Test
  void aSessionWrittenBeforeTheCheckpointMoved_isReplayedWithoutCountingTwice() throws Exception {
    Outcome expected = twoPromptsWithoutACrash();

    MapSessionStore sessions = MapSessionStore.create(false);
    CrashingSessionStore crashing = new CrashingSessionStore(sessions);
    try (MemoryService memory = service(crashed, crashing, HashingEmbedder.create())) {
      memory.capture().observe(prompt(SESSION, 0, TASK));
      flush(memory);
      crashing.crashAt(Point.AFTER_SAVE);
      memory.capture().observe(prompt(SESSION, 1, PREFERENCE));
      crashing.awaitCrash();
    }
    assertEquals(2, sessions.data.ids(SESSION).size(), "every session step was done");

    Outcome replayed = reopenAndConsolidate(sessions);
    assertEquals(List.of(TASK, PREFERENCE), replayed.listed());
    assertEquals(2, replayed.observationCount());
    assertEquals(expected, replayed);
  }

  @Test
  void aSessionEndCutShortBetweenItsConsolidatedMemories_isConsolidatedOnReplay() throws Exception {
    Outcome expected;
    MapSessionStore cleanSessions = MapSessionStore.create(false);
    try (MemoryService memory = service(clean, cleanSessions, HashingEmbedder.create())) {
      threePrompts(memory);
      memory.capture().observe(sessionEnd(SESSION, 3));
      flush(memory);
      assertEquals(2, memory.capture().stats().consolidated());
      expected = outcome(memory, cleanSessions);
    }

    MapSessionStore sessions = MapSessionStore.create(false);
    CrashingEmbedder embedder = new CrashingEmbedder();
    try (MemoryService memory = service(crashed, sessions, embedder)) {
      threePrompts(memory);
      embedder.crashEmbedding("Redis");
      memory.capture().observe(sessionEnd(SESSION, 3));
      embedder.awaitCrash();
    }

    try (MemoryService memory = service(crashed, sessions.reopened(), HashingEmbedder.create())) {
      flush(memory);
      assertEquals(
          1,
          memory.capture().stats().consolidated(),
          "only the memory the crash kept from the store");
      Outcome replayed = outcome(memory, sessions);
      assertEquals(SessionStatus.COMPLETED, replayed.status());
      // the three prompts; the session end is kept in the session, stored as no observation
      assertEquals(3, replayed.observationCount());
      assertTrue(replayed.summary().contains("3 observations"), replayed.summary());
      assertEquals(
          List.of(
              "DECISION " + DECISION + " <- " + DECISION,
              "PREFERENCE " + PREFERENCE + " <- " + PREFERENCE),
          replayed.consolidated());
      assertEquals(expected, replayed);
    }
  }

  /** The first two prompts and a consolidation, in a service that does not crash. */
  private Outcome twoPromptsWithoutACrash() {
    MapSessionStore sessions = MapSessionStore.create(false);
    try (MemoryService memory = service(clean, sessions, HashingEmbedder.create())) {
      memory.capture().observe(prompt(SESSION, 0, TASK));
      flush(memory);
      memory.capture().observe(prompt(SESSION, 1, PREFERENCE));
      flush(memory);
      memory.capture().consolidate(SESSION);
      return outcome(memory, sessions);
    }
  }

  private static void threePrompts(MemoryService memory) {
    memory.capture().observe(prompt(SESSION, 0, TASK));
    memory.capture().observe(prompt(SESSION, 1, PREFERENCE));
    memory.capture().observe(prompt(SESSION, 2, DECISION));
    flush(memory);
  }

  /** Reopens the crashed directory over the same session data, replays and consolidates. */
  private Outcome reopenAndConsolidate(MapSessionStore sessions) {
    try (MemoryService memory = service(crashed, sessions.reopened(), HashingEmbedder.create())) {
      flush(memory);
      memory.capture().consolidate(SESSION);
      return outcome(memory, sessions);
    }
  }

  private static Outcome outcome(MemoryService memory, MapSessionStore sessions) {
    Session s = memory.capture().session(SESSION).orElseThrow();
    List<MemoryId> ids = sessions.data.ids(SESSION);
    List<String> consolidated =
        all(memory).stream()
            .filter(m -> m.type() != MemoryType.OBSERVATION)
            .map(
                m -> m.type() + " " + m.content() + " <- " + String.join(" | ", sources(memory, m)))
            .sorted()
            .toList();
    return new Outcome(
        ids,
        contents(memory, ids),
        s.observationCount(),
        s.status(),
        s.summary(),
        consolidated,
        observations(memory).size());
  }

  private static List<String> sources(MemoryService memory, Memory consolidated) {
    String sources = consolidated.attributes().getOrDefault("memhook.sources", "");
    return contents(
        memory,
        Stream.of(sources.split(" ")).filter(id -> !id.isBlank()).map(MemoryId::of).toList());
  }

  private static List<String> contents(MemoryService memory, List<MemoryId> ids) {
    return ids.stream().map(id -> memory.get(id).map(Memory::content).orElse("?" + id)).toList();
  }

  private static MemoryService service(Path dir, SessionStore sessions, Embedder embedder) {
    return Memhook.builder()
        .directory(dir)
        .embedder(embedder)
        .sessionStore(sessions)
        .capture(CaptureOptions.builder().keepSessionsOpenOnClose().build())
        .build();
  }
}
