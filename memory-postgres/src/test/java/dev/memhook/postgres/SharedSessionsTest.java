package dev.memhook.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.memhook.api.ForgetMode;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two services over one database, each with a pool of its own as two JVMs would have, keep their
 * capture sessions in it: a session captured through one is listed and continued through the other.
 */
class SharedSessionsTest {
  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

  private HikariDataSource poolA;
  private HikariDataSource poolB;
  private String schema;
  private MemoryService a;
  private MemoryService b;

  @BeforeEach
  void open() {
    poolA = TestDatabase.newPool(4);
    poolB = TestDatabase.newPool(4);
    schema = TestDatabase.newSchema();
    a = service(poolA);
    b = service(poolB);
  }

  @AfterEach
  void close() throws Exception {
    if (a != null) {
      a.close();
      b.close();
      poolA.close();
      poolB.close();
    }
    TestDatabase.dropSchemas();
  }

  @Test
  void sessionCapturedThroughA_isListedThroughB_andBContinuesIt() {
    assertEquals(List.of(), b.capture().sessions(), "B opens before A captures anything");
    a.capture()
        .observe(prompt("s1", 0, "the build uses gradle").project("shop").cwd("/w/shop").build());
    a.capture().observe(tool("s1", 1).project("shop").cwd("/w/shop").build());
    flush(a);

    Session listed = b.capture().sessions().get(0);
    assertEquals("s1", listed.id());
    assertEquals(2, listed.observationCount());
    assertEquals("the build uses gradle", listed.firstPrompt());

    // no project or cwd: only the database tells B that the session exists
    assertEquals(
        ObserveResult.ACCEPTED,
        b.capture().observe(prompt("s1", 2, "and the tests use junit").build()));
    flush(b);
    Session continued = b.capture().session("s1").orElseThrow();
    assertEquals(3, continued.observationCount());
    assertEquals(T0, continued.startedAt());
    assertEquals(T0.plusSeconds(2), continued.lastEventAt());
    assertEquals(continued, a.capture().session("s1").orElseThrow(), "A reads what B wrote");

    Memory third = observation(b, "and the tests use junit");
    assertTrue(
        third.context().startsWith("tool Bash: "), "the turn before, captured by A: " + third);
    List<MemoryId> ids = sessionStore(poolB).observations("s1");
    assertEquals(3, ids.size());
    assertEquals(third.id(), ids.get(2));

    // and back to A, which held the session before B continued it
    a.capture()
        .observe(
            LifecycleEvent.builder(LifecycleEventType.SESSION_END, "s1")
                .timestamp(T0.plusSeconds(3))
                .build());
    flush(a);
    Session ended = b.capture().session("s1").orElseThrow();
    assertEquals(SessionStatus.COMPLETED, ended.status());
    // the session end is kept in the session, stored as no observation
    assertEquals(3, ended.observationCount(), "A counted on from B's record");
  }

  @Test
  void aConsolidatedMemoryForgottenThroughA_takesItsSourceAlong_andBFindsNeither() {
    String preference = "I prefer tabs over spaces in every Java file of this repo.";
    a.capture().observe(prompt("s1", 0, preference).project("shop").cwd("/w/shop").build());
    a.capture()
        .observe(
            LifecycleEvent.builder(LifecycleEventType.SESSION_END, "s1")
                .timestamp(T0.plusSeconds(1))
                .build());
    flush(a);
    List<Memory> all = new ArrayList<>();
    b.maintenance().export(all::add);
    Memory source =
        all.stream()
            .filter(m -> m.type() == MemoryType.OBSERVATION && m.content().equals(preference))
            .findFirst()
            .orElseThrow();
    List<Memory> made = all.stream().filter(m -> m.type() == MemoryType.PREFERENCE).toList();
    assertEquals(1, made.size(), all.toString());
    Memory memory = made.get(0);
    assertEquals(
        List.of(source.id()),
        b.maintenance().sources(memory.id()),
        "B reads the link A's capture made");

    List<ForgetRecord> records = a.forget(memory.id(), "alice", "wrong", ForgetMode.WITH_SOURCES);

    List<MemoryId> removed = List.of(memory.id(), source.id());
    assertEquals(removed, records.stream().map(ForgetRecord::id).toList());
    assertTrue(b.get(memory.id()).isEmpty());
    assertTrue(b.get(source.id()).isEmpty());
    assertEquals(
        List.of(),
        b.recall(RecallQuery.of(Scope.DEFAULT, "tabs over spaces in every Java file")).memories(),
        "B recalls neither");
    List<ForgetRecord> audit = b.maintenance().forgotten(Scope.DEFAULT);
    assertEquals(Set.copyOf(removed), Set.copyOf(audit.stream().map(ForgetRecord::id).toList()));
    audit.forEach(r -> assertEquals(removed, r.removed(), "the audit of " + r.id()));
  }

  @Test
  void hostileSessionText_isStoredFaithfully_orRefused_andNothingStoredIsLost() {
    PostgresSessionStore store = sessionStore(poolA);
    String big = "x".repeat(1024 * 1024) + "\uD83D\uDE00 \\u0000 '\"; DROP TABLE x; --";
    store.save("s1", Scope.of("capture"), big);
    assertEquals(big, store.load("s1").orElseThrow(), "1 MB, an emoji and SQL, exactly");
    assertEquals(big, sessionStore(poolB).load("s1").orElseThrow());

    IllegalArgumentException nul =
        assertThrows(
            IllegalArgumentException.class,
            () -> store.save("s1", Scope.of("capture"), "a\u0000b"));
    assertTrue(nul.getMessage().contains("U+0000"), nul.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> store.save("s1", Scope.of("capture"), "broken \uD800 text"));
    assertThrows(
        IllegalArgumentException.class, () -> store.save("s\u0000", Scope.of("capture"), "{}"));
    assertThrows(
        IllegalArgumentException.class,
        () -> store.appendObservations("s\uDC00", List.of(MemoryId.of("o1"))));
    assertEquals(big, store.load("s1").orElseThrow(), "the refused writes changed nothing");
    assertEquals(List.of(big), store.loadAll());
    assertTrue(store.load("s\u0000").isEmpty());

    store.appendObservations("s1", List.of(MemoryId.of("o1"), MemoryId.of("o2")));
    store.appendObservations("s1", List.of(MemoryId.of("o1"), MemoryId.of("o3")));
    assertEquals(
        List.of(MemoryId.of("o1"), MemoryId.of("o2"), MemoryId.of("o3")),
        store.observations("s1"),
        "a repeated id is kept once, in its first place");
  }

  @Test
  void hostileEventText_reachesTheOtherInstance_asTheFirstOneHoldsIt() {
    String project = "shop\u0000\uD83D\uDE00\uD800";
    String prompt = "p\u0000 " + "y".repeat(1024 * 1024);
    a.capture().observe(prompt("s\u0000x", 0, prompt).project(project).cwd("/w").build());
    a.capture().observe(prompt("s2", 0, prompt).project(project).cwd("/w").build());
    flush(a);
    assertTrue(a.capture().stats().sessionStoreFailures() >= 1, "s\\u0000x was refused");
    assertTrue(a.capture().session("s\u0000x").isPresent(), "and is kept in A's memory");

    Session held = a.capture().session("s2").orElseThrow();
    Session seen = b.capture().session("s2").orElseThrow();
    assertEquals(held, seen);
    assertEquals(500, seen.firstPrompt().length(), "cut to the record's limit");
    assertTrue(seen.project().startsWith("shop"), seen.project());
    assertEquals(List.of("s2"), b.capture().sessions().stream().map(Session::id).toList());
  }

  @Test
  void aSchemaFromBeforeSessions_isMigratedToHoldThem() throws Exception {
    try (Connection c = poolA.getConnection();
        Statement s = c.createStatement()) {
      // back to version 2, as that version left it: before sessions and passages
      s.execute("ALTER TABLE \"" + schema + "\".memhook_memory DROP COLUMN passages");
      s.execute("DROP TABLE \"" + schema + "\".memhook_session_observation");
      s.execute("DROP TABLE \"" + schema + "\".memhook_session");
      s.execute("DELETE FROM \"" + schema + "\".memhook_schema WHERE version > 2");
    }
    PostgresMemoryStore reopened =
        PostgresMemoryStore.builder().dataSource(poolA).schema(schema).build();
    reopened.sessionStore().save("s1", Scope.of("capture"), "{}");
    assertEquals(List.of("{}"), reopened.sessionStore().loadAll());
    reopened.close();
  }

  private MemoryService service(HikariDataSource pool) {
    PostgresMemoryStore store =
        PostgresMemoryStore.builder().dataSource(pool).schema(schema).build();
    return Memhook.builder()
        .store(store)
        .sessionStore(store.sessionStore())
        .embedder(HashingEmbedder.create())
        .build();
  }

  private PostgresSessionStore sessionStore(HikariDataSource pool) {
    return PostgresMemoryStore.builder().dataSource(pool).schema(schema).build().sessionStore();
  }

  private static LifecycleEvent.Builder prompt(String session, int second, String text) {
    return LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, session)
        .timestamp(T0.plusSeconds(second))
        .data(EventData.prompt(text));
  }

  private static LifecycleEvent.Builder tool(String session, int second) {
    return LifecycleEvent.builder(LifecycleEventType.POST_TOOL_USE, session)
        .timestamp(T0.plusSeconds(second))
        .data(EventData.tool("Bash", "gradle test", "BUILD SUCCESSFUL"));
  }

  private static void flush(MemoryService memory) {
    assertTrue(memory.capture().flush(Duration.ofMinutes(1)), memory.capture().stats()::toString);
  }

  private static Memory observation(MemoryService memory, String content) {
    List<Memory> all = new ArrayList<>();
    memory.maintenance().export(all::add);
    return all.stream().filter(m -> m.content().equals(content)).findFirst().orElseThrow();
  }
}
