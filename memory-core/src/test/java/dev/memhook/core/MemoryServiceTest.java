package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Origin;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.Seeds;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MemoryServiceTest {

  private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
  private MemoryService memory;

  @BeforeEach
  void setUp() {
    memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .build();
  }

  @AfterEach
  void tearDown() {
    memory.close();
  }

  @Test
  void remember_sanitizesBeforeStoring_andDerivesTitleAndSummary() {
    Memory m =
        memory.remember(
            MemoryDraft.of(
                Scope.DEFAULT,
                "Deploy key is password=hunter2. <private>my home address</private> Use the blue pipeline."));
    Memory stored = memory.get(m.id()).orElseThrow();
    assertFalse(stored.content().contains("hunter2"));
    assertFalse(stored.content().contains("home address"));
    assertTrue(
        stored.content().contains("[redacted:secret]") && stored.content().contains("[private]"),
        stored.content());
    assertFalse(stored.summary().contains("hunter2"));
    assertFalse(stored.title().isEmpty());
    assertEquals(NOW, stored.createdAt());
    assertEquals(NOW, stored.occurredAt());
    assertEquals(1, stored.version());
    assertTrue(stored.latest());
  }

  @Test
  void remember_contentThatSanitizesToNothing_isRejected_andNothingIsStored() {
    LuceneMemoryStore store = LuceneMemoryStore.inMemory();
    try (MemoryService svc =
        Memhook.builder().store(store).embedder(HashingEmbedder.create()).build()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> svc.remember(MemoryDraft.of(Scope.DEFAULT, " <private>salary</private> ")));
      assertTrue(e.getMessage().contains("empty after sanitizing"), e.getMessage());
      assertEquals(0, store.count(Scope.DEFAULT));
    }
  }

  @Test
  void remember_contentOverTheLimit_isRejectedWhole_andNothingIsStored() {
    LuceneMemoryStore store = LuceneMemoryStore.inMemory();
    try (MemoryService svc =
        Memhook.builder().store(store).embedder(HashingEmbedder.create()).build()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  svc.remember(
                      MemoryDraft.of(Scope.DEFAULT, "x".repeat(MemoryDraft.MAX_CONTENT + 1))));
      assertTrue(e.getMessage().contains("at most " + MemoryDraft.MAX_CONTENT), e.getMessage());
      assertEquals(0, store.count(Scope.DEFAULT));
    }
  }

  @Test
  void aDraftOfBlankContent_cannotBeMade() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> MemoryDraft.of(Scope.DEFAULT, "   "));
    assertTrue(e.getMessage().contains("content must not be blank"), e.getMessage());
  }

  @Test
  void update_writesTheNextVersion_andOnlyTheLatestIsRecalled() {
    Memory v1 =
        memory.remember(MemoryDraft.of(Scope.DEFAULT, "The gateway timeout is 30 seconds."));
    Memory v2 =
        memory.update(v1.id(), MemoryDraft.of(Scope.DEFAULT, "The gateway timeout is 60 seconds."));
    assertEquals(2, v2.version());
    assertEquals(v1.id(), v2.supersedes());
    assertFalse(memory.get(v1.id()).orElseThrow().latest());
    assertEquals(
        List.of(v2.id()),
        memory.recall(RecallQuery.of(Scope.DEFAULT, "gateway timeout seconds")).ids());
    IllegalArgumentException stale =
        assertThrows(
            IllegalArgumentException.class,
            () -> memory.update(v1.id(), MemoryDraft.of(Scope.DEFAULT, "again")));
    assertTrue(stale.getMessage().contains("not the latest"), stale.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> memory.update(v2.id(), MemoryDraft.of(Scope.of("elsewhere"), "moved")));
  }

  @Test
  void forget_removesTheWholeVersionChain_andLeavesAuditRecords() {
    Memory v1 =
        memory.remember(MemoryDraft.of(Scope.DEFAULT, "The gateway timeout is 30 seconds."));
    Memory v2 =
        memory.update(v1.id(), MemoryDraft.of(Scope.DEFAULT, "The gateway timeout is 60 seconds."));
    assertTrue(memory.forget(v2.id(), "alice", "wrong"));
    assertTrue(memory.get(v1.id()).isEmpty());
    assertTrue(memory.get(v2.id()).isEmpty());
    assertTrue(
        memory.recall(RecallQuery.of(Scope.DEFAULT, "gateway timeout")).memories().isEmpty());
    // both forgotten at the same instant: oldest first says nothing about their order; each
    // record lists both ids, the one asked for first
    List<MemoryId> removed = List.of(v2.id(), v1.id());
    assertEquals(
        Set.of(
            new ForgetRecord(v2.id(), Scope.DEFAULT, "alice", "wrong", NOW, removed),
            new ForgetRecord(v1.id(), Scope.DEFAULT, "alice", "wrong", NOW, removed)),
        Set.copyOf(memory.maintenance().forgotten(Scope.DEFAULT)));
    assertEquals(2, memory.maintenance().forgotten(Scope.DEFAULT).size());
    assertFalse(memory.forget(v2.id()), "nothing left to forget");
  }

  @Test
  void recall_onAQueryThatMatchesNothing_isEmpty_andExplainsWhatTheGateDropped() {
    memory.remember(MemoryDraft.of(Scope.DEFAULT, "The gateway timeout is 30 seconds."));
    memory.remember(MemoryDraft.of(Scope.DEFAULT, "Flutter builds ship weekly."));
    RecallResult result = memory.recall(RecallQuery.of(Scope.DEFAULT, "favourite pizza topping"));
    assertTrue(result.memories().isEmpty(), result.explain());
    assertTrue(
        result.dropped().stream().allMatch(d -> d.rule() == DroppedCandidate.Rule.RELEVANCE_GATE),
        result.explain());
    assertEquals(
        2, result.dropped().size(), "vector search returns every memory; the gate drops both");
  }

  @Test
  void recall_explainsEachSignal() {
    Memory m = memory.remember(MemoryDraft.of(Scope.DEFAULT, "The gateway timeout is 30 seconds."));
    RecallResult result = memory.recall(RecallQuery.of(Scope.DEFAULT, "gateway timeout"));
    assertEquals(List.of(m.id()), result.ids());
    Set<Signal> signals =
        result.memories().get(0).signals().stream()
            .map(h -> h.signal())
            .collect(Collectors.toSet());
    assertEquals(Set.of(Signal.TEXT, Signal.VECTOR), signals);
    assertTrue(result.explain().contains("text #1"), result.explain());
  }

  @Test
  void recall_graphSignal_findsAMemoryThatSharesConceptsWithATopHit() {
    Memory seed =
        memory.remember(
            MemoryDraft.builder(Scope.DEFAULT, "JWT tokens expire after fifteen minutes.")
                .concepts(List.of("auth", "jwt"))
                .build());
    Memory linked =
        memory.remember(
            MemoryDraft.builder(Scope.DEFAULT, "Refresh happens in the mobile client on resume.")
                .concepts(List.of("auth", "jwt"))
                .build());
    RecallResult result = memory.recall(RecallQuery.of(Scope.DEFAULT, "when do jwt tokens expire"));
    assertEquals(Set.of(seed.id(), linked.id()), Set.copyOf(result.ids()), result.explain());
    var linkedHit =
        result.memories().stream()
            .filter(m -> m.id().equals(linked.id()))
            .findFirst()
            .orElseThrow();
    assertTrue(
        linkedHit.signals().stream().anyMatch(h -> h.signal() == Signal.GRAPH && h.score() == 2.0),
        result.explain());
  }

  static LongStream seeds() {
    return Seeds.seeds(10);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void recall_capsResultsPerSourceSession_property(long seed) {
    Random r = new Random(seed);
    int cap = 1 + r.nextInt(3);
    try (MemoryService svc =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .recallOptions(RecallOptions.builder().maxPerSession(cap).build())
            .build()) {
      Map<String, Integer> stored = new HashMap<>();
      for (int i = 0; i < 30; i++) {
        String session = "s" + r.nextInt(4);
        stored.merge(session, 1, Integer::sum);
        svc.remember(
            MemoryDraft.builder(
                    Scope.DEFAULT, "release notes item " + i + " about the release train")
                .sourceSession(session)
                .build());
      }
      RecallResult result = svc.recall(new RecallQuery(Scope.DEFAULT, "release train notes", 10));
      Map<String, Long> perSession =
          result.memories().stream()
              .collect(
                  Collectors.groupingBy(m -> m.memory().sourceSession(), Collectors.counting()));
      perSession.forEach(
          (s, n) -> assertTrue(n <= cap, Seeds.replay(seed) + ": session " + s + " has " + n));
      int reachable = stored.values().stream().mapToInt(n -> Math.min(cap, n)).sum();
      assertEquals(
          Math.min(10, reachable),
          result.memories().size(),
          "every memory matches, so the cap alone leaves some out; "
              + Seeds.replay(seed)
              + "\n"
              + result.explain());
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void recall_neverCrossesScopes_property(long seed) {
    Random r = new Random(seed);
    Scope[] scopes = {
      Scope.of("t" + r.nextInt(100)), Scope.of("u" + r.nextInt(100), "p"), Scope.of("v")
    };
    try (MemoryService svc =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build()) {
      String[] words = {
        "kafka", "redis", "deploy", "timeout", "jwt", "pizza", "flutter", "gateway"
      };
      for (int i = 0; i < 40; i++) {
        svc.remember(
            MemoryDraft.of(
                scopes[r.nextInt(3)],
                words[r.nextInt(words.length)]
                    + " "
                    + words[r.nextInt(words.length)]
                    + " note "
                    + i));
      }
      for (int q = 0; q < 10; q++) {
        Scope scope = scopes[r.nextInt(3)];
        String text = words[r.nextInt(words.length)] + " " + words[r.nextInt(words.length)];
        for (var m : svc.recall(new RecallQuery(scope, text, 20)).memories()) {
          assertEquals(scope, m.memory().scope(), Seeds.replay(seed) + ", query " + text);
        }
      }
    }
  }

  @Test
  void builder_withoutAStore_failsWithTheRemedy() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> Memhook.builder().build());
    assertTrue(e.getMessage().contains("inMemory()"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> Memhook.builder().inMemory().inMemory());
    assertThrows(IllegalArgumentException.class, () -> RecallOptions.builder().maxPerSession(0));
    assertThrows(IllegalArgumentException.class, () -> RecallOptions.builder().weights(0, 0, 1));
  }

  @Test
  void builder_withoutAnEmbedder_fallsBackToTheHashingEmbedder_whenNoProviderIsOnTheClassPath() {
    try (MemoryService svc = Memhook.builder().inMemory().build()) {
      assertTrue(svc.toString().contains("memhook-hashing-v1"), svc.toString());
    }
  }

  @Test
  void originName_isSearchable() {
    Memory m =
        memory.remember(
            MemoryDraft.builder(Scope.DEFAULT, "I adopted a puppy last week.")
                .origin(Origin.user("Caroline"))
                .build());
    assertEquals(
        List.of(m.id()), memory.recall(RecallQuery.of(Scope.DEFAULT, "Caroline puppy")).ids());
  }

  @Test
  void memoryIds_areRandomAndValid() {
    MemoryId a = MemoryId.random();
    MemoryId b = MemoryId.random();
    assertFalse(a.equals(b));
    assertTrue(a.value().matches("mem_[0-9a-z]{26}"), a.value());
  }

  @Test
  void aMemoryOfEitherEndOfTime_isStoredAndRecalled_andARecallAsOfEitherEndAnswers() {
    Memory oldest =
        memory.remember(
            MemoryDraft.builder(Scope.DEFAULT, "The oldest note: the wedding was in the chapel.")
                .occurredAt(Instant.MIN)
                .build());
    Memory newest =
        memory.remember(
            MemoryDraft.builder(Scope.DEFAULT, "The newest note: the wedding moved to the barn.")
                .occurredAt(Instant.MAX)
                .build());
    assertEquals(oldest, memory.get(oldest.id()).orElseThrow());
    assertEquals(newest, memory.get(newest.id()).orElseThrow());
    // neither memory is of last week, counted from now or from no day at all: one ranking
    RecallQuery query = RecallQuery.of(Scope.DEFAULT, "the wedding note of last week");
    List<MemoryId> now = ids(memory.recall(query));
    assertFalse(now.isEmpty());
    for (Instant asOf : List.of(Instant.MIN, Instant.MAX)) {
      assertEquals(now, ids(memory.recall(query.withAsOf(asOf))), "as of " + asOf);
    }
  }

  private static List<MemoryId> ids(RecallResult r) {
    return r.memories().stream().map(m -> m.memory().id()).toList();
  }
}
