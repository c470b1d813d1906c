package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import dev.memhook.testkit.Seeds;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Neighbouring-turn expansion on a store of hand-written sessions and candidates built by hand. */
class SessionNeighboursTest {

  private final ObservedStore store = new ObservedStore();
  private final SessionNeighbours neighbours = new SessionNeighbours(store);

  @AfterEach
  void close() {
    store.close();
  }

  /** Stores turn {@code id} of session {@code session}, said by {@code speaker} at a minute. */
  private void turn(String id, String session, String speaker, int minute) {
    store.add(
        id,
        "turn " + id,
        b ->
            b.sourceSession(session)
                .origin(Origin.user(speaker))
                .occurredAt(Instant.EPOCH.plusSeconds(60L * minute)));
  }

  /** A dialogue of two in session "chat": t1 Ann, t2 Bob, t3 Ann, ... up to {@code n}. */
  private void dialogue(int n) {
    for (int i = 1; i <= n; i++) {
      turn("t" + i, "chat", i % 2 == 1 ? "Ann" : "Bob", i);
    }
  }

  private SessionNeighbours.Expanded apply(List<Candidate> ranked, List<Candidate> seeds) {
    return neighbours.apply(
        Scope.DEFAULT,
        ranked,
        seeds,
        new RecordReader(store),
        CueBoost.Boosted.unchanged(ranked),
        Candidates.unboundedPlaces());
  }

  /**
   * The cue stage for "yesterday" asked a day after the epoch, which puts every turn of {@link
   * #dialogue} in the window, reading under {@code places}.
   */
  private CueBoost.Boosted askedYesterday(List<Candidate> ranked, Places places) {
    return CueBoost.apply(
        ranked,
        CueBoost.Cues.of("yesterday", Instant.EPOCH.plus(Duration.ofDays(1))),
        new RecordReader(store),
        50,
        places);
  }

  private static Candidate direct(String id, double fused) {
    return Candidates.of(id, fused, new SignalHit(Signal.TEXT, 1, fused));
  }

  private static List<String> ids(List<Candidate> ranked) {
    return ranked.stream().map(c -> c.id.value()).toList();
  }

  private static Candidate find(List<Candidate> ranked, String id) {
    return ranked.stream().filter(c -> c.id.value().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void theSeedsSpeakersNearestTurnsJoin_belowTheSeed_theOtherSpeakersDoNot() {
    dialogue(7);
    Candidate seed = direct("t3", 1.0);
    Candidate other = direct("x", 0.5);
    store.add("x", "no session");
    SessionNeighbours.Expanded out = apply(List.of(seed, other), List.of(seed, other));
    assertEquals(List.of("t3", "x", "t1", "t5"), ids(out.ranked()));
    Candidate before = find(out.ranked(), "t1");
    assertEquals(SessionNeighbours.LIFT, before.fused, 1e-12);
    assertEquals(
        new SignalHit(Signal.NEIGHBOUR, 1, SessionNeighbours.LIFT),
        before.hits.get(Signal.NEIGHBOUR));
    assertEquals(
        List.of(List.of(MemoryId.of("t3"), MemoryId.of("x"))),
        store.windowRequests,
        "one store call for every seed");
    assertTrue(
        out.description().contains("2 memories told next to 1 seeds by the same speaker (2 new)"),
        out.description());
  }

  @Test
  void aNeighbourRisesByTheLift_pastWeakHits_butNeverToItsSeed_norPastAStrongHit() {
    dialogue(5);
    Candidate seed = direct("t3", 1.0);
    Candidate t1 = direct("t1", 0.9); // 0.9 + 0.3 would pass the seed: stops just below it
    Candidate strong = direct("strong", 0.55); // half the best or more: keeps its place
    Candidate weak = direct("weak", 0.45); // below half the best: a neighbour may pass it
    Candidate t5 = direct("t5", 0.3); // 0.3 + 0.3 = 0.6 passes the weak hit, not the strong one
    store.add("strong", "strong");
    store.add("weak", "weak");
    SessionNeighbours.Expanded out =
        apply(new ArrayList<>(List.of(seed, t1, strong, weak, t5)), List.of(seed));
    assertEquals(List.of("t3", "t1", "strong", "t5", "weak"), ids(out.ranked()));
    assertEquals(Math.nextDown(1.0), find(out.ranked(), "t1").fused);
    assertEquals(Math.nextDown(0.55), find(out.ranked(), "t5").fused);
  }

  @Test
  void neighboursStoppedAtOneScore_keepTheOrderTheirWholeLiftsWouldGive_notTheirIds() {
    dialogue(5);
    Candidate seed = direct("t3", 1.0);
    Candidate strong = direct("strong", 0.55); // half the best or more: no neighbour passes it
    // 0.3 + 0.3 and 0.4 + 0.3 would both pass the strong hit, so both stop just below it: t5's
    // whole lift is the larger, and it comes first although "t1" sorts before "t5"
    Candidate t1 = direct("t1", 0.3);
    Candidate t5 = direct("t5", 0.4);
    store.add("strong", "strong");
    SessionNeighbours.Expanded out =
        apply(new ArrayList<>(List.of(seed, strong, t5, t1)), List.of(seed));
    assertEquals(List.of("t3", "strong", "t5", "t1"), ids(out.ranked()));
    assertEquals(Math.nextDown(0.55), find(out.ranked(), "t1").fused);
    assertEquals(Math.nextDown(0.55), find(out.ranked(), "t5").fused);
  }

  @Test
  void bothSidesOfASeedLiftedAlike_comeTheTurnToldBeforeTheSeedFirst_notByTheirIds() {
    turn("zz", "chat", "Ann", 1);
    turn("yy", "chat", "Bob", 2);
    turn("seed", "chat", "Ann", 3);
    turn("xx", "chat", "Bob", 4);
    turn("aa", "chat", "Ann", 5);
    Candidate seed = direct("seed", 1.0);
    SessionNeighbours.Expanded out = apply(new ArrayList<>(List.of(seed)), List.of(seed));
    // neither was a candidate: each joins at the same lift, and "aa" would sort before "zz"
    assertEquals(List.of("seed", "zz", "aa"), ids(out.ranked()));
    assertEquals(find(out.ranked(), "zz").fused, find(out.ranked(), "aa").fused);
  }

  @Test
  void aNeighbourTheCueStagePassedOver_isLiftedFromTheScoreTheCuesWouldHaveGivenIt() {
    dialogue(5);
    store.add("a", "a");
    store.add("b", "b");
    store.add("c", "c");
    List<Candidate> ranked =
        new ArrayList<>(
            List.of(
                direct("t3", 1.0),
                direct("a", 0.9),
                direct("b", 0.8),
                direct("c", 0.7),
                direct("t5", 0.1)));
    // every memory is in the window: the cues multiply by 1.5; one place, held by t3 at 1.0, and
    // t5 (0.1 x 1.5 < 1.0) cannot reach it, so the cue stage passes it over unread
    CueBoost.Boosted cued =
        askedYesterday(ranked, new Places(1, Integer.MAX_VALUE, c -> true, m -> true));
    assertEquals(0.1, find(cued.ranked(), "t5").fused, 1e-12);
    Candidate seed = find(cued.ranked(), "t3");
    SessionNeighbours.Expanded out =
        neighbours.apply(
            Scope.DEFAULT,
            cued.ranked(),
            List.of(seed),
            new RecordReader(store),
            cued,
            Candidates.unboundedPlaces());
    // lifted from 0.1 x 1.5, by 0.3 of the seed's 1.5
    assertEquals(0.1 * 1.5 + SessionNeighbours.LIFT * 1.5, find(out.ranked(), "t5").fused, 1e-12);
  }

  @Test
  void aSideNoLiftCouldTakeToTheLastPlace_isNotRead() {
    dialogue(5);
    store.add("p1", "p1");
    store.add("p2", "p2");
    store.clearCalls();
    Candidate seed = direct("t3", 1.0);
    List<Candidate> ranked = new ArrayList<>(List.of(seed, direct("p1", 0.9), direct("p2", 0.8)));
    // two places, the last held at 0.9: t1 and t5, not candidates, could reach only 0.3 (of the
    // seed's 1.0)
    SessionNeighbours.Expanded out =
        neighbours.apply(
            Scope.DEFAULT,
            ranked,
            List.of(seed),
            new RecordReader(store),
            CueBoost.Boosted.unchanged(ranked),
            new Places(2, Integer.MAX_VALUE, c -> true, m -> true));
    assertEquals(List.of("t3", "p1", "p2"), ids(out.ranked()));
    assertEquals("", out.description());
    assertEquals(
        List.of(List.of(MemoryId.of("t3"), MemoryId.of("p1"), MemoryId.of("p2"))),
        store.reads,
        "the places' holders are read, and no memory of the seed's sides");
  }

  @Test
  void aSideIsRead_whenTheCuesCouldStillRaiseAPassedOverMemoryOfItIntoThePlaces() {
    dialogue(5); // in the window the question names
    Instant far = Instant.EPOCH.plus(Duration.ofDays(300));
    for (String id : List.of("p1", "p2", "p3", "p4")) {
      store.add(id, id, b -> b.occurredAt(far).createdAt(far));
    }
    List<Candidate> ranked =
        new ArrayList<>(
            List.of(
                direct("t3", 1.0),
                direct("p1", 0.7),
                direct("p2", 0.65),
                direct("p3", 0.62),
                direct("p4", 0.6),
                direct("t5", 0.2)));
    Places two = new Places(2, Integer.MAX_VALUE, c -> true, m -> true);
    // t5 x 1.5 = 0.3 cannot reach p1's 0.7 by the cues alone: passed over, unread
    CueBoost.Boosted cued = askedYesterday(ranked, two);
    Candidate seed = find(cued.ranked(), "t3");
    SessionNeighbours.Expanded out =
        neighbours.apply(
            Scope.DEFAULT, cued.ranked(), List.of(seed), new RecordReader(store), cued, two);
    // with the cues' 1.5 and 0.3 of the seed's 1.5, t5 reaches 0.75 and passes p1
    assertEquals(List.of("t3", "t5", "p1"), ids(out.ranked()).subList(0, 3));
    assertEquals(0.2 * 1.5 + SessionNeighbours.LIFT * 1.5, find(out.ranked(), "t5").fused, 1e-12);
  }

  /**
   * What bounding the reads promises: after the time and preference stage and this one, the places
   * of the result, filled as assembly fills them, hold the same memories at the same scores as when
   * both stages read every candidate and every side.
   */
  @Test
  void boundedReads_fillTheResultsPlacesAsReadingEverythingWould() {
    long seed = Seeds.seed();
    Random setup = new Random(seed);
    int sessions = 4;
    int turns = 12;
    List<String> all = new ArrayList<>();
    for (int s = 0; s < sessions; s++) {
      for (int t = 0; t < turns; t++) {
        String id = "s" + s + "t" + t;
        String content =
            setup.nextInt(3) == 0 ? "I prefer the quiet option." : "turn " + id + " notes";
        int minute = s * 10_000 + t;
        String speaker = t % 2 == 0 ? "Ann" : "Bob";
        String session = "s" + s;
        store.add(
            id,
            content,
            b ->
                b.sourceSession(session)
                    .origin(Origin.user(speaker))
                    .occurredAt(Instant.EPOCH.plus(Duration.ofDays(minute / 10_000 * 40)))
                    .createdAt(Instant.EPOCH.plusSeconds(60L * minute)));
        all.add(id);
      }
    }
    Instant asOf = Instant.EPOCH.plus(Duration.ofDays(81));
    String[] questions = {"yesterday", "any tips?", "what notes", "last week, any suggestions?"};
    qt().withFixedSeed(seed)
        .withExamples(300)
        .forAll(longs().all())
        .checkAssert(
            exampleSeed -> {
              Random r = new Random(exampleSeed);
              List<String> shuffled = new ArrayList<>(all);
              java.util.Collections.shuffle(shuffled, r);
              double[] scores = Candidates.drawnScores(r, 3 + r.nextInt(30));
              Places places = Candidates.drawnPlaces(r, all);
              CueBoost.Cues cues = CueBoost.Cues.of(questions[r.nextInt(questions.length)], asOf);
              int seedCount = 1 + r.nextInt(5);
              List<String> everything =
                  bothStages(
                      shuffled,
                      scores,
                      cues,
                      seedCount,
                      places.passesGate(),
                      Candidates.unboundedPlaces());
              List<String> bounded =
                  bothStages(shuffled, scores, cues, seedCount, places.passesGate(), places);
              assertEquals(
                  Candidates.placesFilled(rankedOf(everything), places, store),
                  Candidates.placesFilled(rankedOf(bounded), places, store),
                  Seeds.replay(seed) + ", example " + exampleSeed);
            });
  }

  /**
   * The ranking after the cue stage and this one, reading under {@code places}, as {@code id=fused}
   * strings: candidates the first {@code scores.length} of {@code ids}, seeds the first {@code
   * seedCount} of them the gate passes.
   */
  private List<String> bothStages(
      List<String> ids,
      double[] scores,
      CueBoost.Cues cues,
      int seedCount,
      java.util.function.Predicate<Candidate> passesGate,
      Places places) {
    List<Candidate> sorted = new ArrayList<>();
    for (int i = 0; i < scores.length; i++) {
      sorted.add(direct(ids.get(i), scores[i]));
    }
    sorted.sort(
        java.util.Comparator.<Candidate>comparingDouble(c -> -c.fused).thenComparing(c -> c.id));
    List<Candidate> seeds = new ArrayList<>();
    for (Candidate c : sorted) {
      if (seeds.size() < seedCount && passesGate.test(c)) {
        seeds.add(c);
      }
    }
    RecordReader records = new RecordReader(store);
    CueBoost.Boosted cued = CueBoost.apply(sorted, cues, records, 50, places);
    List<Candidate> out =
        neighbours.apply(Scope.DEFAULT, cued.ranked(), seeds, records, cued, places).ranked();
    List<String> rendered = new ArrayList<>();
    for (Candidate c : out) {
      rendered.add(c.id.value() + " " + c.fused);
    }
    return rendered;
  }

  private static List<Candidate> rankedOf(List<String> rendered) {
    List<Candidate> out = new ArrayList<>();
    for (String line : rendered) {
      String[] parts = line.split(" ");
      out.add(Candidates.of(parts[0], Double.parseDouble(parts[1])));
    }
    return out;
  }

  @Test
  void theLift_isAShareOfTheSeedsScore() {
    dialogue(5);
    Candidate seed = direct("t3", 1.0);
    Candidate weak = direct("weak", 0.45);
    Candidate t5 = direct("t5", 0.1);
    store.add("weak", "weak");
    SessionNeighbours.Expanded out = apply(new ArrayList<>(List.of(seed, weak, t5)), List.of(seed));
    assertEquals(List.of("t3", "weak", "t5", "t1"), ids(out.ranked()));
    assertEquals(0.1 + SessionNeighbours.LIFT, find(out.ranked(), "t5").fused, 1e-12);
  }

  @Test
  void aNeighbourAboveItsSeedAlready_keepsItsScore() {
    dialogue(3);
    Candidate t1 = direct("t1", 2.0);
    Candidate seed = direct("t3", 1.0);
    SessionNeighbours.Expanded out = apply(new ArrayList<>(List.of(t1, seed)), List.of(seed));
    assertEquals(List.of("t1", "t3"), ids(out.ranked()));
    assertEquals(2.0, find(out.ranked(), "t1").fused);
  }

  @Test
  void theSameSpeakersNextTurn_isTheNearestOneOfTheirs_adjacentOrTwoAway() {
    turn("a1", "chat", "Ann", 1);
    turn("a2", "chat", "Ann", 2); // Ann says two things in a row
    turn("b3", "chat", "Bob", 3);
    turn("a4", "chat", "Ann", 4);
    turn("a5", "chat", "Ann", 5);
    Candidate seed = direct("a2", 1.0);
    SessionNeighbours.Expanded out = apply(List.of(seed), List.of(seed));
    assertEquals(List.of("a2", "a1", "a4"), ids(out.ranked()));
  }

  @Test
  void onlyTheBestThreeSeeds_inTheRankingsCurrentOrder_lendTheirNeighbours() {
    for (String session : List.of("a", "b", "c", "d")) {
      turn(session + "1", session, "Ann", 1);
      turn(session + "2", session, "Bob", 2);
      turn(session + "3", session, "Ann", 3);
    }
    Candidate a = direct("a3", 0.9);
    Candidate b = direct("b3", 1.0); // ranked first now, though given second
    Candidate c = direct("c3", 0.8);
    Candidate d = direct("d3", 0.7);
    SessionNeighbours.Expanded out = apply(List.of(b, a, c, d), List.of(a, b, c, d));
    assertEquals(List.of("b3", "a3", "c3", "d3", "b1", "a1", "c1"), ids(out.ranked()));
    assertEquals(
        List.of(List.of(MemoryId.of("b3"), MemoryId.of("a3"), MemoryId.of("c3"))),
        store.windowRequests);
  }

  @Test
  void withoutSeeds_orWithoutSessions_theRankingIsLeftAsItWas_andNothingIsSaid() {
    store.add("s", "no session");
    List<Candidate> ranked = List.of(direct("s", 1.0));
    SessionNeighbours.Expanded none = apply(ranked, List.of());
    assertSame(ranked, none.ranked());
    assertEquals("", none.description());
    assertTrue(store.windowRequests.isEmpty(), "no seeds, no store call");
    SessionNeighbours.Expanded noSession = apply(ranked, ranked);
    assertSame(ranked, noSession.ranked());
    assertEquals("", noSession.description());
  }

  static LongStream seeds() {
    return Seeds.seeds(20);
  }

  /**
   * The stage's rules on random rankings of a random dialogue: no memory is lifted to or above the
   * seed that brought it, nor above a candidate that scored at least PROTECTED of the best and more
   * than it, and a candidate that led another by more than LIFT times the best fused score still
   * leads it.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void neighboursStayBelowTheirSeeds_andStrongHits_andALeadOfMoreThanTheLiftHolds(long seed) {
    Random random = new Random(seed);
    int turns = 4 + random.nextInt(20);
    for (int i = 1; i <= turns; i++) {
      turn("t" + i, "chat", random.nextBoolean() ? "Ann" : "Bob", i);
    }
    List<Candidate> ranked = new ArrayList<>();
    for (int i = 1; i <= turns; i++) {
      if (random.nextInt(3) > 0) {
        ranked.add(direct("t" + i, 0.01 + random.nextDouble()));
      }
    }
    if (ranked.isEmpty()) {
      ranked.add(direct("t1", 1.0));
    }
    ranked.sort((a, b) -> Double.compare(b.fused, a.fused));
    List<Candidate> seeds = ranked.subList(0, Math.min(ranked.size(), 1 + random.nextInt(5)));
    Map<String, Double> before = new HashMap<>();
    ranked.forEach(c -> before.put(c.id.value(), c.fused));
    Map<String, Double> seedScores = new HashMap<>(before);
    double best = ranked.get(0).fused;

    List<Candidate> out = apply(new ArrayList<>(ranked), List.copyOf(seeds)).ranked();

    for (int i = 0; i < out.size(); i++) {
      Candidate c = out.get(i);
      SignalHit told = c.hits.get(Signal.NEIGHBOUR);
      if (told != null) {
        Candidate bringer = ranked.get(told.rank() - 1);
        assertTrue(
            seeds.indexOf(bringer) >= 0 && seeds.indexOf(bringer) < SessionNeighbours.SEEDS,
            Seeds.replay(seed) + ": " + c.id + " was lifted by " + bringer.id);
        assertTrue(
            out.indexOf(bringer) < i
                || before.getOrDefault(c.id.value(), 0.0) >= seedScores.get(bringer.id.value()),
            Seeds.replay(seed) + ": " + c.id + " rose to or above its seed " + bringer.id);
      }
      for (int j = i + 1; j < out.size(); j++) {
        Candidate below = out.get(j);
        double belowBefore = before.getOrDefault(below.id.value(), 0.0);
        double lead = belowBefore - before.getOrDefault(c.id.value(), 0.0);
        assertTrue(
            lead <= 0 || belowBefore < SessionNeighbours.PROTECTED * best,
            Seeds.replay(seed) + ": " + c.id + " passed " + below.id + ", a strong hit");
        assertTrue(
            lead <= SessionNeighbours.LIFT * best + 1e-12,
            Seeds.replay(seed)
                + ": "
                + below.id
                + " led "
                + c.id
                + " by "
                + lead
                + " and fell below it");
      }
    }
  }
}
