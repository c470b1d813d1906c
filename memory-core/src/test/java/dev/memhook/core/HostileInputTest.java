package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Thousands of hostile inputs per public entry point that takes text ({@code remember}, {@code
 * update}, {@code recall}, {@code forget}): each gets a clear error ({@link
 * IllegalArgumentException}, naming what is wrong) or a bounded result, the service keeps working,
 * and the memories stored before the barrage read back unchanged and are still recalled.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileInputTest {

  private static final int CASES = 2_000;
  private static final int HUGE_ONE_IN = 700;
  private static final Scope BASE = Scope.of("base");
  private static final Scope PLAY = Scope.of("play");
  private static final List<Scope> SCOPES =
      List.of(PLAY, Scope.of("play", "x"), Scope.of("PLAY"), Scope.of("play."));

  private MemoryService memory;
  private final List<Memory> baseline = new ArrayList<>();
  private final List<MemoryId> playIds = new ArrayList<>();

  @BeforeAll
  void storeTheBaseline() {
    memory = Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
    for (int i = 0; i < 20; i++) {
      baseline.add(
          memory.remember(
              MemoryDraft.builder(BASE, "Baseline fact " + i + ": the token is basetok" + i + ".")
                  .attributes(Map.of("n", String.valueOf(i)))
                  .build()));
    }
    for (int i = 0; i < 20; i++) {
      playIds.add(memory.remember(MemoryDraft.of(PLAY, "Play memory " + i)).id());
    }
  }

  @AfterAll
  void theBaseline_isUnchanged_andTheServiceStillWorks() {
    try {
      for (Memory m : baseline) {
        assertEquals(m, memory.get(m.id()).orElseThrow(() -> new AssertionError("lost " + m.id())));
        String token = m.content().replaceAll(".*(basetok\\d+).*", "$1");
        RecallResult r = memory.recall(RecallQuery.of(BASE, "which fact has " + token));
        assertTrue(
            r.memories().stream().anyMatch(x -> x.memory().id().equals(m.id())),
            "no longer recalled: " + m.id());
      }
      Memory fresh = memory.remember(MemoryDraft.of(PLAY, "still writable"));
      assertEquals(fresh, memory.get(fresh.id()).orElseThrow());
    } finally {
      memory.close();
    }
  }

  /**
   * One seed for the whole class: its tests share one service, so a failure replays only if every
   * test that ran before it draws the same inputs again.
   */
  private static final long SEED = Seeds.seed();

  static LongStream seeds() {
    return LongStream.of(SEED);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void remember_ofHostileDrafts_isRefusedClearly_orStoresWhatGetReads(long seed) {
    HostileText text = new HostileText(seed);
    Random r = text.random();
    int stored = 0;
    for (int i = 0; i < CASES; i++) {
      Memory m =
          clearErrorOr(
              seed,
              () ->
                  memory.remember(
                      MemoryDraft.builder(scope(r), text.any(HUGE_ONE_IN))
                          .title(text.any(HUGE_ONE_IN))
                          .summary(r.nextBoolean() ? "" : text.any(HUGE_ONE_IN))
                          .context(r.nextBoolean() ? HostileText.nestedBrackets(10_000) : "")
                          .concepts(List.of(text.any(HUGE_ONE_IN)))
                          .files(List.of(text.any(HUGE_ONE_IN)))
                          .sourceSession(r.nextBoolean() ? null : text.any(HUGE_ONE_IN))
                          .attributes(Map.of(text.any(HUGE_ONE_IN), text.any(HUGE_ONE_IN)))
                          .build()));
      if (m != null) {
        stored++;
        Memory read = memory.get(m.id()).orElseThrow();
        assertEquals(m, read, () -> MemoryDifference.of(m, read) + "; " + Seeds.replay(seed));
        playIds.add(m.id());
      }
    }
    assertTrue(stored > 0 && stored < CASES, "stored " + stored + " of " + CASES);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void update_withHostileIdsAndDrafts_isRefusedClearly_orWritesAReadableVersion(long seed) {
    HostileText text = new HostileText(seed);
    Random r = text.random();
    int updated = 0;
    for (int i = 0; i < CASES; i++) {
      Memory next =
          clearErrorOr(
              seed,
              () -> {
                MemoryId id =
                    r.nextInt(3) == 0
                        ? MemoryId.of(text.any(HUGE_ONE_IN))
                        : playIds.get(r.nextInt(playIds.size()));
                return memory.update(id, MemoryDraft.of(scope(r), text.any(HUGE_ONE_IN)));
              });
      if (next != null) {
        updated++;
        Memory read = memory.get(next.id()).orElseThrow();
        assertEquals(next, read, () -> MemoryDifference.of(next, read) + "; " + Seeds.replay(seed));
        playIds.add(next.id());
      }
    }
    assertTrue(updated > 0, "nothing was updated: the test proves nothing");
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void recall_ofHostileText_returnsABoundedResultOfItsScope(long seed) {
    HostileText text = new HostileText(seed);
    Random r = text.random();
    for (int i = 0; i < CASES; i++) {
      Scope scope = r.nextInt(4) == 0 ? BASE : scope(r);
      int limit = 1 + r.nextInt(RecallQuery.MAX_LIMIT);
      String query =
          r.nextInt(50) == 0 ? HostileText.nestedBrackets(10_000) : text.any(HUGE_ONE_IN);
      RecallResult result =
          clearErrorOr(seed, () -> memory.recall(new RecallQuery(scope, query, limit)));
      if (result == null) {
        fail("recall must answer any text, " + Seeds.replay(seed));
      }
      assertTrue(result.memories().size() <= limit, Seeds.replay(seed));
      for (RecalledMemory m : result.memories()) {
        assertEquals(scope, m.memory().scope(), Seeds.replay(seed));
      }
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void forget_withHostileIdsActorsAndReasons_isRefusedClearly_orForgetsOnlyItsTarget(long seed) {
    HostileText text = new HostileText(seed);
    Random r = text.random();
    for (int i = 0; i < CASES; i++) {
      clearErrorOr(
          seed,
          () -> {
            MemoryId id =
                r.nextInt(2) == 0
                    ? MemoryId.of(text.any(HUGE_ONE_IN))
                    : playIds.get(r.nextInt(playIds.size()));
            return memory.forget(id, text.any(HUGE_ONE_IN), text.any(HUGE_ONE_IN));
          });
    }
  }

  private static Scope scope(Random r) {
    return SCOPES.get(r.nextInt(SCOPES.size()));
  }

  /**
   * What {@code call} returns, or null if it threw an {@link IllegalArgumentException} with a
   * message of bounded length; anything else thrown fails the test.
   */
  private static <T> T clearErrorOr(long seed, Supplier<T> call) {
    try {
      return call.get();
    } catch (IllegalArgumentException e) {
      String message = String.valueOf(e.getMessage());
      if (message.isBlank() || message.length() > 1_000) {
        fail("unclear error (" + message.length() + " chars), " + Seeds.replay(seed), e);
      }
      return null;
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      throw new AssertionError("not a clear error: " + e + ", " + Seeds.replay(seed), e);
    }
  }
}
