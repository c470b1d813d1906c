package dev.memhook.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.Session;
import dev.memhook.api.spi.SessionStore;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash after capture stored an observation in PostgreSQL and before its session there listed it
 * is repaired by the capture journal's replay, through the session store: the session lists and
 * counts the observation once, and its consolidation sees it. The crash is made in this JVM: the
 * session store throws an {@code Error} capture does not catch where the append would be, so the
 * capture worker stops there as a killed process would.
 */
class SessionReplayTest {
  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  private static final String TASK = "Add a coupon field to the checkout page.";
  private static final String PREFERENCE = "We use yarn, never npm.";

  @TempDir Path journal;

  private HikariDataSource pool;
  private String schema;

  @BeforeEach
  void open() {
    pool = TestDatabase.newPool(4);
    schema = TestDatabase.newSchema();
  }

  @AfterEach
  void close() throws Exception {
    if (pool != null) {
      pool.close();
    }
    TestDatabase.dropSchemas();
  }

  /** Throws, once armed, where the next observation ids would be appended. */
  private static final class CrashBeforeAppend implements SessionStore {
    private final SessionStore delegate;
    private final CountDownLatch crashed = new CountDownLatch(1);
    private volatile boolean armed;

    CrashBeforeAppend(SessionStore delegate) {
      this.delegate = delegate;
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
    }

    @Override
    public void appendObservations(String sessionId, List<MemoryId> ids) {
      if (armed) {
        armed = false;
        crashed.countDown();
        throw new AssertionError("simulated crash before the append");
      }
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

  @Test
  void anObservationStoredBeforeItsSessionListedIt_isListedCountedAndConsolidatedOnReplay()
      throws Exception {
    PostgresMemoryStore first = store();
    CrashBeforeAppend crashing = new CrashBeforeAppend(first.sessionStore());
    try (MemoryService memory = service(first, crashing)) {
      memory.capture().observe(prompt(0, TASK));
      flush(memory);
      crashing.armed = true;
      memory.capture().observe(prompt(1, PREFERENCE));
      assertTrue(crashing.crashed.await(1, TimeUnit.MINUTES), "capture never appended");
    }
    try (PostgresMemoryStore look = store()) {
      assertEquals(1, look.sessionStore().observations("s1").size(), "the second is unlisted");
    }

    PostgresMemoryStore second = store();
    try (MemoryService memory = service(second, second.sessionStore())) {
      flush(memory);
      memory.capture().consolidate("s1");
      List<Memory> all = new ArrayList<>();
      memory.maintenance().export(all::add);
      List<MemoryId> listed = second.sessionStore().observations("s1");
      assertEquals(
          List.of(TASK, PREFERENCE),
          listed.stream().map(id -> memory.get(id).orElseThrow().content()).toList());
      Session s = memory.capture().session("s1").orElseThrow();
      assertEquals(2, s.observationCount());
      assertTrue(s.summary().contains("2 observations"), s.summary());
      Memory preference =
          all.stream().filter(m -> m.type() == MemoryType.PREFERENCE).findFirst().orElseThrow();
      assertEquals(PREFERENCE, preference.content());
      assertEquals(listed.get(1).value(), preference.attributes().get("memhook.sources"));
      assertEquals(2, all.stream().filter(m -> m.type() == MemoryType.OBSERVATION).count());
    }
  }

  private PostgresMemoryStore store() {
    return PostgresMemoryStore.builder().dataSource(pool).schema(schema).build();
  }

  private MemoryService service(PostgresMemoryStore store, SessionStore sessions) {
    return Memhook.builder()
        .store(store)
        .sessionStore(sessions)
        .embedder(HashingEmbedder.create())
        .capture(CaptureOptions.builder().journalDirectory(journal).build())
        .build();
  }

  private static LifecycleEvent prompt(int second, String text) {
    return LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, "s1")
        .project("shop")
        .cwd("/w/shop")
        .timestamp(T0.plusSeconds(second))
        .data(EventData.prompt(text))
        .build();
  }

  private static void flush(MemoryService memory) {
    assertTrue(memory.capture().flush(Duration.ofMinutes(1)), memory.capture().stats()::toString);
  }
}
