package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.memhook.api.MemoryId;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The session spread of a counting question, over hand-written sessions and candidates. */
class SessionSpreadTest {

  private static final double D = SessionSpread.DISCOUNT;

  private final ObservedStore store = new ObservedStore();

  @AfterEach
  void close() {
    store.close();
  }

  /** Stores memory {@code id} told in source session {@code session} (none when null). */
  private void told(String id, String session) {
    store.add(id, "memory " + id, b -> b.sourceSession(session));
  }

  private SessionSpread.Spread spread(List<Candidate> ranked, Places places) {
    return SessionSpread.apply(ranked, true, new RecordReader(store), 50, places);
  }

  private static List<String> ids(List<Candidate> ranked) {
    return ranked.stream().map(c -> c.id.value()).toList();
  }

  private static double score(List<Candidate> ranked, String id) {
    return ranked.stream().filter(c -> c.id.value().equals(id)).findFirst().orElseThrow().fused;
  }

  @Test
  void aQuestionThatDoesNotCount_keepsTheRanking_readsNothing_andSaysNothing() {
    told("a1", "a");
    told("a2", "a");
    List<Candidate> ranked = List.of(Candidates.of("a1", 1.0), Candidates.of("a2", 0.9));
    SessionSpread.Spread out =
        SessionSpread.apply(
            ranked, false, new RecordReader(store), 50, Candidates.unboundedPlaces());
    assertSame(ranked, out.ranked());
    assertEquals(1.0, out.ranked().get(0).fused);
    assertEquals(0.9, out.ranked().get(1).fused);
    assertEquals("", out.description());
    assertTrue(store.reads.isEmpty());
  }

  @Test
  void anotherSessionsMention_passesASessionsSecondTurnThatMatchedAboutAsWell_andItIsSaid() {
    told("a1", "a");
    told("a2", "a");
    told("b1", "b");
    SessionSpread.Spread out =
        spread(
            List.of(Candidates.of("a1", 1.0), Candidates.of("a2", 0.95), Candidates.of("b1", 0.9)),
            Candidates.unboundedPlaces());
    assertEquals(List.of("a1", "b1", "a2"), ids(out.ranked()));
    assertEquals(1.0, score(out.ranked(), "a1"));
    assertEquals(0.9, score(out.ranked(), "b1"));
    assertEquals(0.95 * D, score(out.ranked(), "a2"), 1e-12);
    assertEquals(
        "counting question: 1 of 3 candidates follow another of their session (score x0.90 for"
            + " each)",
        out.description());
  }

  @Test
  void eachFurtherTurnOfASession_givesWayByOneMoreFactor() {
    told("a1", "a");
    told("a2", "a");
    told("a3", "a");
    List<Candidate> out =
        spread(
                List.of(
                    Candidates.of("a1", 1.0), Candidates.of("a2", 0.8), Candidates.of("a3", 0.6)),
                Candidates.unboundedPlaces())
            .ranked();
    assertEquals(List.of("a1", "a2", "a3"), ids(out));
    assertEquals(0.8 * D, score(out, "a2"), 1e-12);
    assertEquals(0.6 * D * D, score(out, "a3"), 1e-12);
  }

  @Test
  void aLaterTurnThatMatchedClearlyBetter_keepsItsLead() {
    told("a1", "a");
    told("a2", "a");
    told("b1", "b");
    List<Candidate> out =
        spread(
                List.of(
                    Candidates.of("a1", 1.0), Candidates.of("a2", 0.99), Candidates.of("b1", 0.5)),
                Candidates.unboundedPlaces())
            .ranked();
    assertEquals(List.of("a1", "a2", "b1"), ids(out));
  }

  @Test
  void memoriesWithoutASession_areNeverDiscounted_andCountForNone() {
    told("x1", null);
    told("x2", null);
    told("a1", "a");
    List<Candidate> out =
        spread(
                List.of(
                    Candidates.of("x1", 1.0), Candidates.of("x2", 0.9), Candidates.of("a1", 0.8)),
                Candidates.unboundedPlaces())
            .ranked();
    assertEquals(List.of("x1", "x2", "a1"), ids(out));
    assertEquals(0.9, score(out, "x2"));
    assertEquals(0.8, score(out, "a1"));
  }

  @Test
  void aMemoryAssemblyWouldNotReturn_doesNotCountForItsSession() {
    told("a1", "a");
    told("a2", "a");
    Places leavesOutA1 =
        new Places(
            Integer.MAX_VALUE,
            Integer.MAX_VALUE,
            c -> true,
            m -> !m.id().equals(MemoryId.of("a1")));
    List<Candidate> out =
        spread(List.of(Candidates.of("a1", 1.0), Candidates.of("a2", 0.9)), leavesOutA1).ranked();
    assertEquals(0.9, score(out, "a2"), "a2 is its session's first memory the result can hold");
  }

  @Test
  void readingStops_onceNoFurtherCandidateCanTakeAPlace() {
    List<Candidate> ranked = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String id = "m" + (10 + i);
      told(id, "s" + i);
      ranked.add(Candidates.of(id, 40 - i));
    }
    Places two = new Places(2, Integer.MAX_VALUE, c -> true, m -> true);
    SessionSpread.Spread out = spread(ranked, two);
    assertEquals(List.of("m10", "m11"), ids(out.ranked()).subList(0, 2));
    assertEquals(4, store.idsRead().size(), "one chunk of four: " + store.idsRead());
    assertTrue(out.description().contains("0 of 2 candidates"), out.description());
  }

  /**
   * What bounding the reads promises: the result's places, filled as assembly fills them, hold the
   * same memories at the same scores as when the stage reads every candidate under the same rules.
   */
  @Test
  void boundedReads_fillTheResultsPlacesAsReadingEverythingWould() {
    long seed = Seeds.seed();
    Random setup = new Random(seed);
    List<String> all = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      String id = "m" + i;
      int session = setup.nextInt(6);
      told(id, session == 5 ? null : "s" + session);
      all.add(id);
    }
    qt().withFixedSeed(seed)
        .withExamples(300)
        .forAll(longs().all())
        .checkAssert(
            exampleSeed -> {
              Random r = new Random(exampleSeed);
              List<String> shuffled = new ArrayList<>(all);
              Collections.shuffle(shuffled, r);
              double[] scores = Candidates.drawnScores(r, 1 + r.nextInt(60));
              Places places = Candidates.drawnPlaces(r, all);
              Places everything =
                  new Places(
                      Integer.MAX_VALUE,
                      places.maxPerSession(),
                      places.passesGate(),
                      places.returnable());
              int depth = 1 + r.nextInt(60);
              assertEquals(
                  Candidates.placesFilled(
                      spread(shuffled, scores, depth, everything), places, store),
                  Candidates.placesFilled(spread(shuffled, scores, depth, places), places, store),
                  Seeds.replay(seed) + ", example " + exampleSeed);
            });
  }

  /**
   * The stage over the first {@code scores.length} of {@code ids}, sorted, read to {@code depth}.
   */
  private List<Candidate> spread(List<String> ids, double[] scores, int depth, Places places) {
    List<Candidate> sorted = new ArrayList<>();
    for (int i = 0; i < scores.length; i++) {
      sorted.add(Candidates.of(ids.get(i), scores[i]));
    }
    sorted.sort(Comparator.<Candidate>comparingDouble(c -> -c.fused).thenComparing(c -> c.id));
    return SessionSpread.apply(sorted, true, new RecordReader(store), depth, places).ranked();
  }
}
