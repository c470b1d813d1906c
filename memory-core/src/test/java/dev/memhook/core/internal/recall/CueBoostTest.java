package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.testkit.Seeds;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The time and preference stage: what it moves, what it leaves alone, and the bound it keeps. */
class CueBoostTest {

  /** Tuesday 30 May 2023, noon UTC. */
  private static final Instant REF = Instant.parse("2023-05-30T12:00:00Z");

  private final ObservedStore store = new ObservedStore();

  @AfterEach
  void close() {
    store.close();
  }

  /** The stage over {@code sorted} for {@code question} asked at {@link #REF}, every place open. */
  private CueBoost.Boosted boost(List<Candidate> sorted, String question) {
    return CueBoost.apply(
        sorted,
        CueBoost.Cues.of(question, REF),
        new RecordReader(store),
        50,
        Candidates.unboundedPlaces());
  }

  private void add(String id, String content, Instant at) {
    store.add(id, content, b -> b.occurredAt(at).createdAt(at));
  }

  @Test
  void aQuestionWithoutCues_keepsTheRanking_andReadsNothing() {
    add("a", "note", REF);
    List<Candidate> sorted = List.of(Candidates.of("a", 2.0), Candidates.of("b", 1.0));
    CueBoost.Boosted out = boost(sorted, "where is the config?");
    assertSame(sorted, out.ranked());
    assertEquals("", out.description());
    assertTrue(store.reads.isEmpty());
  }

  @Test
  void aMemoryInTheNamedWindow_passesAnEqualMatchOutsideIt_andTheDescriptionSaysWhy() {
    add("old", "we talked about the release", Instant.parse("2023-03-02T10:00:00Z"));
    add("recent", "we talked about the release", Instant.parse("2023-05-24T10:00:00Z"));
    List<Candidate> sorted = List.of(Candidates.of("old", 2.0), Candidates.of("recent", 1.9));
    CueBoost.Boosted out = boost(sorted, "what did we say about the release last week?");
    assertEquals(List.of(MemoryId.of("recent"), MemoryId.of("old")), ids(out.ranked()));
    assertEquals(1.9 * 1.5, out.ranked().get(0).fused, 1e-12);
    assertEquals(
        "time \"last week\": from 2023-05-22 until 2023-05-29, 1 of 2 candidates in or near it"
            + " (score up to x1.50)",
        out.description());
  }

  @Test
  void closeness_isOneInside_fallingLinearlyToZeroAtTheWindowsLengthOutside() {
    TimeWords.TimeWindow week =
        new TimeWords.TimeWindow(
            Instant.parse("2023-05-22T00:00:00Z"), Instant.parse("2023-05-29T00:00:00Z"), "w");
    assertEquals(1.0, CueBoost.closeness(week, Instant.parse("2023-05-22T00:00:00Z")));
    assertEquals(0.5, CueBoost.closeness(week, Instant.parse("2023-06-01T12:00:00Z")), 1e-9);
    assertEquals(0.5, CueBoost.closeness(week, Instant.parse("2023-05-18T12:00:00Z")), 1e-9);
    assertEquals(0.0, CueBoost.closeness(week, Instant.parse("2023-06-05T00:00:00Z")));
    TimeWords.TimeWindow before =
        new TimeWords.TimeWindow(Instant.MIN, Instant.parse("2023-05-01T00:00:00Z"), "b");
    assertEquals(1.0, CueBoost.closeness(before, Instant.EPOCH));
    assertEquals(0.0, CueBoost.closeness(before, Instant.parse("2023-05-08T00:00:00Z")));
  }

  @Test
  void aPreferenceQuestion_liftsAPersonsStatedPreference_aboveAnAgentsEqualMatch() {
    store.add(
        "agent", "Here are ten tips for guitars.", b -> b.origin(Origin.agent()).occurredAt(REF));
    store.add("user", "I prefer guitars with a slim neck.", b -> b.origin(Origin.user()));
    List<Candidate> sorted = List.of(Candidates.of("agent", 2.0), Candidates.of("user", 1.5));
    CueBoost.Boosted out = boost(sorted, "Any tips on what to look for in a guitar?");
    assertEquals(List.of(MemoryId.of("user"), MemoryId.of("agent")), ids(out.ranked()));
    assertEquals(
        "preference question: 1 of 2 candidates state a preference, habit, plan or choice (score"
            + " up to x1.50)",
        out.description());
  }

  @Test
  void aQuestionAboutTheAsker_liftsWhatAPersonTold_aboveAnAgentsBetterMatch_andSaysWhy() {
    store.add(
        "agent",
        "Wedding venues: barns, vineyards and beaches all work for a wedding.",
        b -> b.origin(Origin.agent()));
    store.add("user", "I went to my cousin's wedding last spring.", b -> b.origin(Origin.user()));
    store.add("tool", "weddings.csv: 3 rows", b -> b.origin(Origin.tool("csv")));
    List<Candidate> sorted =
        List.of(
            Candidates.of("agent", 2.0), Candidates.of("tool", 1.9), Candidates.of("user", 1.5));
    CueBoost.Boosted out = boost(sorted, "How many weddings have I attended?");
    assertEquals(
        List.of(MemoryId.of("user"), MemoryId.of("agent"), MemoryId.of("tool")), ids(out.ranked()));
    assertEquals(1.5 * 1.5, out.ranked().get(0).fused, 1e-12);
    assertEquals(2.0, out.ranked().get(1).fused, 1e-12);
    assertEquals(
        "question about the asker: 1 of 3 candidates are a person's own words (score up to x1.50)",
        out.description());
  }

  @Test
  void aQuestionAboutTheAsker_neverLiftsAPersonsWordsPastAMatchLeadingByMoreThanItsFactor() {
    store.add("agent", "Wedding venues and their costs.", b -> b.origin(Origin.agent()));
    store.add("user", "I like weddings.", b -> b.origin(Origin.user()));
    List<Candidate> sorted = List.of(Candidates.of("agent", 1.6), Candidates.of("user", 1.0));
    CueBoost.Boosted out = boost(sorted, "how many weddings did I go to");
    assertEquals(List.of(MemoryId.of("agent"), MemoryId.of("user")), ids(out.ranked()));
  }

  @Test
  void
      aQuestionAboutWhatTheAssistantSaid_liftsAnAgentsWords_aboveTheAskersBetterMatch_andSaysWhy() {
    store.add(
        "user",
        "I want to use tea tree oil on my scalp, is that safe?",
        b -> b.origin(Origin.user()));
    store.add(
        "agent",
        "Dilute tea tree oil: about 12 drops per ounce of carrier oil.",
        b -> b.origin(Origin.agent()));
    store.add("tool", "oils.csv: tea tree, lavender", b -> b.origin(Origin.tool("csv")));
    List<Candidate> sorted =
        List.of(
            Candidates.of("user", 2.0), Candidates.of("tool", 1.9), Candidates.of("agent", 1.5));
    CueBoost.Boosted out = boost(sorted, "What ratio did you recommend for tea tree oil?");
    assertEquals(
        List.of(MemoryId.of("agent"), MemoryId.of("user"), MemoryId.of("tool")), ids(out.ranked()));
    assertEquals(1.5 * 1.5, out.ranked().get(0).fused, 1e-12);
    assertEquals(2.0, out.ranked().get(1).fused, 1e-12);
    assertEquals(
        "question about what the assistant said: 1 of 3 candidates are an agent's words (score up"
            + " to x1.50)",
        out.description());
  }

  @Test
  void aHowToQuestion_orOneAddressingTheAssistant_keepsTheRanking_andReadsNothing() {
    store.add("tool", "make e2e: needs a kind cluster", b -> b.origin(Origin.tool("bash")));
    store.add("user", "I ran the e2e tests once.", b -> b.origin(Origin.user()));
    List<Candidate> sorted = List.of(Candidates.of("tool", 2.0), Candidates.of("user", 1.9));
    for (String question :
        List.of("How do I run the e2e tests locally?", "Can you run my e2e tests?")) {
      CueBoost.Boosted out = boost(sorted, question);
      assertSame(sorted, out.ranked(), question);
      assertEquals("", out.description(), question);
    }
    assertTrue(store.reads.isEmpty());
  }

  @Test
  void onlyTheFirstDepthCandidates_areReadAndBoosted() {
    add("a", "x", REF);
    add("b", "x", REF);
    add("c", "x", REF);
    List<Candidate> sorted =
        List.of(Candidates.of("a", 3.0), Candidates.of("b", 2.0), Candidates.of("c", 1.0));
    CueBoost.Boosted out =
        CueBoost.apply(
            sorted,
            CueBoost.Cues.of("yesterday", REF.plus(Duration.ofDays(1))),
            new RecordReader(store),
            2,
            Candidates.unboundedPlaces());
    assertEquals(List.of(List.of(MemoryId.of("a"), MemoryId.of("b"))), store.reads);
    assertEquals(1.0, out.ranked().get(2).fused);
  }

  /**
   * The rule the stage keeps: a candidate whose fused score was more than {@link
   * CueBoost#maxFactor} times another's still ranks above it, whatever the cues and the memories.
   */
  @Test
  void aCandidateLeadingByMoreThanTheMaximumFactor_isNeverOvertaken() {
    long seed = Seeds.seed();
    Random setup = new Random(seed);
    int n = 30;
    storeDrawn(setup, n, 400, false);
    String[] questions = {
      "what did I do last week? any tips?",
      "in May",
      "yesterday",
      "any suggestions for the team?",
      "three weeks ago, which tool did we choose?",
      "before April 2023",
      "how many books have I read?",
      "in May, which library did you recommend?",
      "where is it"
    };
    qt().withFixedSeed(seed)
        .withExamples(300)
        .forAll(longs().all(), integers().between(1, n), integers().between(1, n))
        .checkAssert(
            (scoreSeed, size, depth) -> {
              Random r = new Random(scoreSeed);
              List<Candidate> sorted = new ArrayList<>();
              Map<MemoryId, Double> before = new HashMap<>();
              for (int i = 0; i < size; i++) {
                double f = 0.01 + r.nextDouble() * 10;
                sorted.add(Candidates.of("m" + i, f));
                before.put(MemoryId.of("m" + i), f);
              }
              sorted.sort(
                  java.util.Comparator.<Candidate>comparingDouble(c -> -c.fused)
                      .thenComparing(c -> c.id));
              String question = questions[r.nextInt(questions.length)];
              List<MemoryId> after =
                  ids(
                      CueBoost.apply(
                              sorted,
                              CueBoost.Cues.of(question, REF),
                              new RecordReader(store),
                              depth,
                              Candidates.unboundedPlaces())
                          .ranked());
              for (int i = 0; i < after.size(); i++) {
                for (int j = 0; j < i; j++) {
                  // j ranks above i after the stage: i must not have led j by more than the factor
                  double lead = before.get(after.get(i)) / before.get(after.get(j));
                  assertTrue(
                      lead <= CueBoost.maxFactor(),
                      after.get(i)
                          + " led "
                          + after.get(j)
                          + " by x"
                          + lead
                          + " and fell below it for \""
                          + question
                          + "\", "
                          + Seeds.replay(seed));
                }
              }
            });
  }

  @Test
  void theEngine_countsTimeWordsFromTheQuerysAsOf_elseFromItsClock() {
    add("march", "release train notes", Instant.parse("2023-03-10T10:00:00Z"));
    add("may", "release train notes", Instant.parse("2023-05-10T10:00:00Z"));
    RecallOptions options = RecallOptions.builder().weights(1, 0, 0).noRelevanceGate().build();
    RecallEngine engine =
        new RecallEngine(
            store, store.embedder, options, Clock.fixed(REF, ZoneOffset.UTC), Runnable::run);
    RecallResult byClock =
        engine.recall(RecallQuery.of(Scope.DEFAULT, "release train notes in May"));
    assertEquals(List.of(MemoryId.of("may"), MemoryId.of("march")), byClock.ids());
    assertTrue(
        byClock.fusion().contains("time \"in May\": from 2023-05-01 until 2023-05-30"),
        byClock.fusion());
    RecallResult asked =
        engine.recall(
            RecallQuery.of(Scope.DEFAULT, "release train notes last month")
                .withAsOf(Instant.parse("2023-04-02T00:00:00Z")));
    assertEquals(List.of(MemoryId.of("march"), MemoryId.of("may")), asked.ids());
    assertTrue(asked.explain().contains("time \"last month\": from 2023-03-01 until 2023-04-01"));
  }

  @Test
  void aCueQuestion_readsOnlyTheCandidatesThatCanStillTakeAPlace() {
    List<Candidate> sorted = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      add("m" + i, "x", REF);
      sorted.add(Candidates.of("m" + i, 20.0 - i)); // 20, 19, ..., 1
    }
    CueBoost.Boosted out =
        CueBoost.apply(
            sorted,
            CueBoost.Cues.of("yesterday", REF.plus(Duration.ofDays(1))),
            new RecordReader(store),
            50,
            new Places(3, Integer.MAX_VALUE, c -> true, m -> true));
    // the places: 3 read with a margin of 2; the third holder scored 18, and at x1.5 every
    // candidate down to 12 can still reach it: 4 more
    assertEquals(List.of(ids("m", 0, 5), ids("m", 5, 9)), store.reads);
    assertEquals(20.0 * 1.5, out.ranked().get(0).fused, 1e-12);
    assertEquals(11.0, fusedOf(out, "m9"), 1e-12); // passed over: no record read, score kept
    assertTrue(out.description().contains(", 9 of 9 candidates in or near it"), out.description());
  }

  @Test
  void aCandidateThatWouldNotTakeAPlace_isNoHolder_soTheStageReadsOn() {
    List<Candidate> sorted = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      String session = i < 4 ? "same" : "s" + i;
      if (i != 2) { // m2's record is gone
        store.add("m" + i, "x", b -> b.occurredAt(REF).sourceSession(session));
      }
      sorted.add(Candidates.of("m" + i, 100.0 - i));
    }
    // m0 fails the gate, m1 is excluded, m2 is gone, and "same" takes one place (m3)
    Set<MemoryId> gated = Set.of(MemoryId.of("m0"));
    Set<MemoryId> excluded = Set.of(MemoryId.of("m1"));
    CueBoost.apply(
        sorted,
        CueBoost.Cues.of("yesterday", REF.plus(Duration.ofDays(1))),
        new RecordReader(store),
        50,
        new Places(2, 1, c -> !gated.contains(c.id), m -> !excluded.contains(m.id())));
    // first chunk m0..m3 holds one place (m3), the next m4..m6 the second (m4, at 96): then the
    // rest, all within x1.5 of it
    assertEquals(List.of(ids("m", 0, 4), ids("m", 4, 7), ids("m", 7, 12)), store.reads);
  }

  @Test
  void aCandidateOverItsSessionsCap_isNoHolder_soTheLastPlaceIsHeldLower() {
    List<Candidate> sorted = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      String session = i < 8 ? "same" : "s" + i;
      store.add("m" + i, "x", b -> b.occurredAt(REF).sourceSession(session));
      sorted.add(Candidates.of("m" + i, 100.0 - i));
    }
    CueBoost.apply(
        sorted,
        CueBoost.Cues.of("yesterday", REF.plus(Duration.ofDays(1))),
        new RecordReader(store),
        50,
        new Places(2, 1, c -> true, m -> true));
    // "same" takes one place (m0); m1 to m7 are over its cap, so the chunks read on until m8
    // holds the second place at 92, and then the rest within x1.5 of it
    assertEquals(
        List.of(ids("m", 0, 4), ids("m", 4, 7), ids("m", 7, 10), ids("m", 10, 12)), store.reads);
  }

  /**
   * What the bound promises: the places of the result, filled as assembly fills them, hold the same
   * memories at the same scores as when every candidate up to the depth is looked at.
   */
  @Test
  void theBoundedStage_fillsTheResultsPlacesAsLookingAtEveryCandidateWould() {
    long seed = Seeds.seed();
    Random setup = new Random(seed);
    int stored = 40;
    int n = stored + 4; // the last four are never stored: their records are gone
    storeDrawn(setup, stored, 60, true);
    String[] questions = {
      "what did I do last week? any tips?", "yesterday", "any suggestions?", "three weeks ago"
    };
    qt().withFixedSeed(seed)
        .withExamples(400)
        .forAll(longs().all(), integers().between(1, n), integers().between(1, n))
        .checkAssert(
            (exampleSeed, size, depth) -> {
              Random r = new Random(exampleSeed);
              double[] scores = new double[size];
              for (int i = 0; i < size; i++) {
                // one decimal often, so that ties with the last place's holder come up
                double f = 0.1 + r.nextDouble() * 10;
                scores[i] = r.nextBoolean() ? Math.round(f * 10) / 10.0 : f;
              }
              Set<MemoryId> failsGate = new HashSet<>();
              Set<MemoryId> excluded = new HashSet<>();
              for (int i = 0; i < n; i++) {
                if (r.nextInt(5) == 0) {
                  failsGate.add(MemoryId.of("m" + i));
                }
                if (r.nextInt(8) == 0) {
                  excluded.add(MemoryId.of("m" + i));
                }
              }
              int count = 1 + r.nextInt(12);
              int perSession = r.nextBoolean() ? Integer.MAX_VALUE : 1 + r.nextInt(3);
              Places places =
                  new Places(
                      count,
                      perSession,
                      c -> !failsGate.contains(c.id),
                      m -> !excluded.contains(m.id()));
              CueBoost.Cues cues = CueBoost.Cues.of(questions[r.nextInt(questions.length)], REF);
              store.clearCalls();
              CueBoost.Boosted all =
                  CueBoost.apply(
                      sortedCandidates(scores),
                      cues,
                      new RecordReader(store),
                      depth,
                      Candidates.unboundedPlaces());
              int readByAll = readCount();
              store.clearCalls();
              CueBoost.Boosted bounded =
                  CueBoost.apply(
                      sortedCandidates(scores), cues, new RecordReader(store), depth, places);
              String replay = Seeds.replay(seed) + ", example " + exampleSeed;
              assertEquals(
                  Candidates.placesFilled(all.ranked(), places, store),
                  Candidates.placesFilled(bounded.ranked(), places, store),
                  replay);
              assertTrue(readCount() <= readByAll, replay);
            });
  }

  @Test
  void catchUp_raisesACandidateThatWasPassedOver_once_andNoOtherOne() {
    add("a", "x", REF);
    add("b", "x", REF);
    add("c", "x", REF);
    add("far", "x", REF);
    List<Candidate> sorted =
        new ArrayList<>(
            List.of(
                Candidates.of("a", 10.0),
                Candidates.of("b", 9.0),
                Candidates.of("c", 1.0),
                Candidates.of("far", 0.5)));
    CueBoost.Boosted out =
        CueBoost.apply(
            sorted,
            CueBoost.Cues.of("yesterday", REF.plus(Duration.ofDays(1))),
            new RecordReader(store),
            3,
            new Places(1, Integer.MAX_VALUE, c -> true, m -> true));
    Candidate a = candidate(out, "a");
    Candidate c = candidate(out, "c");
    Candidate far = candidate(out, "far");
    out.catchUp(a, store.get(MemoryId.of("a")).orElseThrow()); // looked at already
    out.catchUp(c, store.get(MemoryId.of("c")).orElseThrow());
    out.catchUp(c, store.get(MemoryId.of("c")).orElseThrow()); // once
    out.catchUp(far, store.get(MemoryId.of("far")).orElseThrow()); // below the depth
    assertEquals(15.0, a.fused, 1e-12);
    assertEquals(1.5, c.fused, 1e-12);
    assertEquals(0.5, far.fused, 1e-12);
  }

  /** Candidates m0, m1, ... with {@code scores}, best first as fusion sorts them. */
  private static List<Candidate> sortedCandidates(double[] scores) {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < scores.length; i++) {
      out.add(Candidates.of("m" + i, scores[i]));
    }
    out.sort(
        java.util.Comparator.<Candidate>comparingDouble(c -> -c.fused).thenComparing(c -> c.id));
    return out;
  }

  /**
   * Stores m0 to m{@code count - 1}: contents, types and speakers drawn by {@code setup}, each told
   * within {@code days} before {@link #REF}; in one of five sessions or none when {@code sessions}.
   */
  private void storeDrawn(Random setup, int count, int days, boolean sessions) {
    String[] contents = {
      "I prefer short meetings.",
      "We decided on Postgres.",
      "my sister visited",
      "The build is green.",
      "Here is a summary of the options."
    };
    MemoryType[] types = {MemoryType.OBSERVATION, MemoryType.FACT, MemoryType.PREFERENCE};
    for (int i = 0; i < count; i++) {
      Instant at = REF.minus(Duration.ofHours(setup.nextInt(24 * days)));
      String content = contents[setup.nextInt(contents.length)];
      MemoryType type = types[setup.nextInt(types.length)];
      Origin origin = setup.nextBoolean() ? Origin.user() : Origin.agent();
      String session = !sessions || setup.nextInt(4) == 0 ? null : "s" + setup.nextInt(5);
      store.add(
          "m" + i,
          content,
          b -> b.occurredAt(at).createdAt(at).type(type).origin(origin).sourceSession(session));
    }
  }

  private int readCount() {
    return store.reads.stream().mapToInt(List::size).sum();
  }

  private static List<MemoryId> ids(String prefix, int from, int to) {
    List<MemoryId> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(MemoryId.of(prefix + i));
    }
    return out;
  }

  private static Candidate candidate(CueBoost.Boosted out, String id) {
    return out.ranked().stream().filter(c -> c.id.value().equals(id)).findFirst().orElseThrow();
  }

  private static double fusedOf(CueBoost.Boosted out, String id) {
    return candidate(out, id).fused;
  }

  private static List<MemoryId> ids(List<Candidate> candidates) {
    return candidates.stream().map(c -> c.id).toList();
  }
}
