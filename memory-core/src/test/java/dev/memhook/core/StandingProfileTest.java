package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.StandingProfile;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MemoryService#standing}: a scope's latest standing memories, by type rank, then
 * importance, then newest first, cut to a budget counted on the summary entries the model reads,
 * with what was left out counted; never an observation, a bug, a superseded version or another
 * scope's memory.
 */
class StandingProfileTest {

  private static final Scope PROJECT = Scope.of("shop");
  private static final Scope OTHER = Scope.of("bank");

  private MemoryService memory;

  @BeforeEach
  void open() {
    memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .clock(new StepClock())
            .noCapture()
            .build();
  }

  @AfterEach
  void close() {
    memory.close();
  }

  @Test
  void standing_ordersByTypeRank_thenImportance_thenNewest() {
    Memory factOld = remember(PROJECT, MemoryType.FACT, 0.5, "The staging database is Postgres.");
    Memory workflow = remember(PROJECT, MemoryType.WORKFLOW, 0.5, "Release by tagging main.");
    Memory factNew = remember(PROJECT, MemoryType.FACT, 0.5, "CI runs on GitHub Actions.");
    Memory pattern = remember(PROJECT, MemoryType.PATTERN, 0.5, "Services end in Service.");
    Memory factImportant = remember(PROJECT, MemoryType.FACT, 0.9, "Prod is in eu-west-1.");
    Memory architecture = remember(PROJECT, MemoryType.ARCHITECTURE, 0.5, "Events go via Kafka.");
    Memory decision = remember(PROJECT, MemoryType.DECISION, 0.5, "We chose Koin over Hilt.");
    Memory preference = remember(PROJECT, MemoryType.PREFERENCE, 0.1, "Use pnpm, never npm.");

    StandingProfile profile = memory.standing(PROJECT, 10_000);

    assertEquals(
        ids(preference, decision, architecture, pattern, workflow, factImportant, factNew, factOld),
        ids(profile.memories()));
    assertEquals(0, profile.omitted());
    assertEquals(PROJECT, profile.scope());
  }

  @Test
  void standing_leavesOutObservationsBugsAndOtherScopes_andCountsHostRememberedMemories() {
    Memory preference = remember(PROJECT, MemoryType.PREFERENCE, 0.5, "Tabs, not spaces.");
    remember(PROJECT, MemoryType.OBSERVATION, 1.0, "Ran the tests: 42 passed.");
    remember(PROJECT, MemoryType.BUG, 1.0, "The login form crashed on empty input; fixed.");
    remember(OTHER, MemoryType.PREFERENCE, 1.0, "Spaces, not tabs.");

    StandingProfile profile = memory.standing(PROJECT, 10_000);

    assertEquals(List.of(preference.id()), ids(profile.memories()));
    assertEquals(0, profile.omitted());
    assertEquals(
        List.of(),
        memory.standing(Scope.of("shop", "web"), 10_000).memories(),
        "scopes do not nest");
  }

  @Test
  void standing_holdsTheNewestVersionOnly_afterAnUpdate() {
    Memory v1 = remember(PROJECT, MemoryType.PREFERENCE, 0.5, "Use npm.");
    Memory v2 =
        memory.update(
            v1.id(),
            MemoryDraft.builder(PROJECT, "Use pnpm, never npm.")
                .type(MemoryType.PREFERENCE)
                .summary("Use pnpm, never npm.")
                .build());

    StandingProfile profile = memory.standing(PROJECT, 10_000);

    assertEquals(List.of(v2.id()), ids(profile.memories()));
    assertEquals(0, profile.omitted());
  }

  @Test
  void standing_countsCharactersOnTheSummaryEntries_andPassesOverWhatDoesNotFit() {
    Memory shortPreference = remember(PROJECT, MemoryType.PREFERENCE, 0.9, "Use pnpm.");
    Memory longPreference = remember(PROJECT, MemoryType.PREFERENCE, 0.5, "x".repeat(400));
    Memory shortFact = remember(PROJECT, MemoryType.FACT, 0.5, "CI is GitHub Actions.");
    int budget = entry(shortPreference) + entry(shortFact) + 10;

    StandingProfile profile = memory.standing(PROJECT, budget);

    assertEquals(ids(shortPreference, shortFact), ids(profile.memories()));
    assertEquals(entry(shortPreference) + entry(shortFact), profile.characters());
    assertEquals(1, profile.omitted(), "the long preference was passed over");
    assertTrue(entry(longPreference) > budget);
    StandingProfile tiny = memory.standing(PROJECT, entry(shortPreference) - 1);
    assertEquals(List.of(), tiny.memories());
    assertEquals(0, tiny.characters());
    assertEquals(3, tiny.omitted());
  }

  @Test
  void standing_holdsAtMostMaxMemories_andCountsTheRest() {
    for (int i = 0; i < StandingProfile.MAX_MEMORIES + 5; i++) {
      remember(PROJECT, MemoryType.FACT, 0.5, "Fact number " + i + ".");
    }

    StandingProfile profile = memory.standing(PROJECT, StandingProfile.MAX_CHARS);

    assertEquals(StandingProfile.MAX_MEMORIES, profile.memories().size());
    assertEquals(5, profile.omitted());
    assertEquals("Fact number 29.", profile.memories().get(0).summary(), "newest first");
  }

  @Test
  void standing_throughAScopedView_isTheScopesProfile() {
    Memory preference = remember(PROJECT, MemoryType.PREFERENCE, 0.5, "Tabs, not spaces.");
    remember(OTHER, MemoryType.PREFERENCE, 0.5, "Spaces, not tabs.");

    assertEquals(memory.standing(PROJECT, 500), memory.scoped(PROJECT).standing(500));
    assertEquals(List.of(preference.id()), ids(memory.scoped(PROJECT).standing(500).memories()));
  }

  @Test
  void standing_rejectsANullScope_aBudgetOutOfRange_andAClosedService() {
    assertThrows(NullPointerException.class, () -> memory.standing(null, 100));
    IllegalArgumentException zero =
        assertThrows(IllegalArgumentException.class, () -> memory.standing(PROJECT, 0));
    assertTrue(zero.getMessage().contains("maxChars"), zero.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> memory.standing(PROJECT, StandingProfile.MAX_CHARS + 1));
    assertThrows(IllegalArgumentException.class, () -> memory.scoped(PROJECT).standing(-1));
    memory.close();
    assertThrows(IllegalStateException.class, () -> memory.standing(PROJECT, 100));
  }

  /** Remembers a memory of {@code type} whose summary is its content. */
  private Memory remember(Scope scope, MemoryType type, double importance, String text) {
    return memory.remember(
        MemoryDraft.builder(scope, text).type(type).summary(text).importance(importance).build());
  }

  /**
   * What {@code m} costs a profile: its entry {@code {"id":"…","summary":"…"}} (plain ASCII, no
   * escapes) and the comma beside it.
   */
  private static int entry(Memory m) {
    return ("{\"id\":\"" + m.id().value() + "\",\"summary\":\"" + m.summary() + "\"}").length() + 1;
  }

  private static List<MemoryId> ids(Memory... memories) {
    return List.of(memories).stream().map(Memory::id).toList();
  }

  private static List<MemoryId> ids(List<Memory> memories) {
    return memories.stream().map(Memory::id).toList();
  }

  /** A clock that moves one second each time it is read, so later memories are newer. */
  private static final class StepClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Override
    public synchronized Instant instant() {
      Instant t = now;
      now = now.plus(Duration.ofSeconds(1));
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
