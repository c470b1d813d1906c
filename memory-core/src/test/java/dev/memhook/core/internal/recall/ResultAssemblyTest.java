package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Result assembly: chunked record reads, skipped records, the session cap and LIMIT drops. */
class ResultAssemblyTest {

  private final ObservedStore store = new ObservedStore();

  @AfterEach
  void close() {
    store.close();
  }

  private static ResultAssembly assembly(RecallOptions options) {
    return new ResultAssembly(options, RecallEngine.MAX_LISTED_TAIL_DROPS);
  }

  /** Candidates with these ids, in this order, with fused scores falling from 0.5 by 0.01. */
  private static List<Candidate> gated(List<String> ids) {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      out.add(
          Candidates.of(
              ids.get(i), 0.5 - i * 0.01, new SignalHit(Signal.TEXT, i + 1, 10 - i * 0.1)));
    }
    return out;
  }

  private static List<String> numbered(int from, int to) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add("m" + i);
    }
    return out;
  }

  private static List<String> ids(List<RecalledMemory> kept) {
    return kept.stream().map(m -> m.id().value()).toList();
  }

  private static List<String> ids(List<DroppedCandidate> dropped, DroppedCandidate.Rule rule) {
    return dropped.stream().filter(d -> d.rule() == rule).map(d -> d.id().value()).toList();
  }

  @Test
  void theSessionCap_dropsEachCandidateOverIt_withSessionCap_andTheNextTakesItsPlace() {
    store.add("a", "a", b -> b.sourceSession("s1"));
    store.add("b", "b", b -> b.sourceSession("s1"));
    store.add("c", "c", b -> b.sourceSession("s1"));
    store.add("d", "d", b -> b.sourceSession("s2"));
    store.add("e", "e");
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<RecalledMemory> kept =
        assembly(RecallOptions.builder().maxPerSession(2).build())
            .assemble(
                new RecallQuery(Scope.DEFAULT, "q", 4),
                gated(List.of("a", "b", "c", "d", "e")),
                4,
                new RecordReader(store),
                Exclusion.none(),
                new ArrayList<>(),
                dropped);
    assertEquals(List.of("a", "b", "d", "e"), ids(kept));
    assertEquals(
        List.of(
            new DroppedCandidate(
                MemoryId.of("c"),
                DroppedCandidate.Rule.SESSION_CAP,
                "session s1 already has 2",
                List.of(new SignalHit(Signal.TEXT, 3, 9.8)))),
        dropped);
  }

  @Test
  void anExcludedSessionsMemories_takeNoPlaceNorCountTowardsTheCap_andComeBackAsExcluded() {
    store.add("own1", "own 1", b -> b.sourceSession("mine"));
    store.add("a", "a", b -> b.sourceSession("s1"));
    store.add("own2", "own 2", b -> b.sourceSession("mine"));
    store.add("b", "b", b -> b.sourceSession("s1"));
    store.add("c", "c");
    store.add("d", "d");
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<RecalledMemory> excluded = new ArrayList<>();
    List<RecalledMemory> kept =
        assembly(RecallOptions.builder().maxPerSession(2).build())
            .assemble(
                new RecallQuery(Scope.DEFAULT, "q", 3),
                gated(List.of("own1", "a", "own2", "b", "c", "d")),
                3,
                new RecordReader(store),
                Exclusion.sourceSession("mine"),
                excluded,
                dropped);

    assertEquals(List.of("a", "b", "c"), ids(kept), "three places, none taken by the own session");
    assertEquals(List.of("own1", "own2"), ids(excluded));
    assertEquals(0.5, excluded.get(0).score(), 1e-9, "its fused score");
    assertEquals(List.of(new SignalHit(Signal.TEXT, 1, 10)), excluded.get(0).signals());
    assertEquals(List.of("d"), ids(dropped, DroppedCandidate.Rule.LIMIT));
    assertEquals(List.of(), ids(dropped, DroppedCandidate.Rule.SESSION_CAP));
  }

  @Test
  void theKeptMemories_carryTheirFusedScoreAndSignalHits() {
    Memory a = store.add("a", "a");
    List<Candidate> gated = gated(List.of("a"));
    List<RecalledMemory> kept =
        assembly(RecallOptions.defaults())
            .assemble(
                new RecallQuery(Scope.DEFAULT, "q", 1),
                gated,
                1,
                new RecordReader(store),
                Exclusion.none(),
                new ArrayList<>(),
                new ArrayList<>());
    assertEquals(
        List.of(new RecalledMemory(a, 0.5, List.of(new SignalHit(Signal.TEXT, 1, 10)))), kept);
  }

  @Test
  void candidatesNotReached_areDroppedByLimit_atMostTwenty_withTheirFusedScoreAndTheLimit() {
    for (String id : numbered(0, 30)) {
      store.add(id, "note " + id);
    }
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<RecalledMemory> kept =
        assembly(RecallOptions.defaults())
            .assemble(
                new RecallQuery(Scope.DEFAULT, "q", 5),
                gated(numbered(0, 30)),
                5,
                new RecordReader(store),
                Exclusion.none(),
                new ArrayList<>(),
                dropped);
    assertEquals(numbered(0, 5), ids(kept));
    assertEquals(numbered(5, 25), ids(dropped, DroppedCandidate.Rule.LIMIT));
    assertEquals(20, dropped.size());
    assertEquals("fused 0.4500 ranked below the limit of 5", dropped.get(0).detail());
  }

  @Test
  void recordsForgottenSupersededOrInAnotherScope_areSkipped_withoutADrop_andAssemblyReadsOn() {
    store.add("old", "old version");
    store.supersede("old", "new");
    store.add("elsewhere", "other scope", b -> b.scope(Scope.of("other")));
    store.add("a", "a");
    store.add("b", "b");
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<RecalledMemory> kept =
        assembly(RecallOptions.defaults())
            .assemble(
                new RecallQuery(Scope.DEFAULT, "q", 2),
                gated(List.of("forgotten", "old", "elsewhere", "a", "b")),
                2,
                new RecordReader(store),
                Exclusion.none(),
                new ArrayList<>(),
                dropped);
    assertEquals(List.of("a", "b"), ids(kept));
    assertTrue(dropped.isEmpty(), dropped.toString());
    // two places and a margin of two, then the one place left and what remains of the candidates
    assertEquals(
        List.of(
            List.of(
                MemoryId.of("forgotten"),
                MemoryId.of("old"),
                MemoryId.of("elsewhere"),
                MemoryId.of("a")),
            List.of(MemoryId.of("b"))),
        store.reads);
  }

  @Test
  void eachRead_isThePlacesLeftPlusAMargin_ofTwoOrAQuarterOfThePlaces() {
    for (int i = 0; i < 19; i++) {
      String session = i < 6 ? "busy" : null;
      store.add("m" + i, "note " + i, b -> b.sourceSession(session));
    }
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<RecalledMemory> kept =
        assembly(RecallOptions.builder().maxPerSession(1).build())
            .assemble(
                new RecallQuery(Scope.DEFAULT, "q", 8),
                gated(numbered(0, 19)),
                8,
                new RecordReader(store),
                Exclusion.none(),
                new ArrayList<>(),
                dropped);
    // m0..m5 share a session capped at 1: the first read of 8 + 2 keeps five, the second of 3 + 2
    // fills the last three places
    assertEquals(List.of(10, 5), store.reads.stream().map(List::size).toList());
    assertEquals(List.of("m0", "m6", "m7", "m8", "m9", "m10", "m11", "m12"), ids(kept));
    assertEquals(numbered(1, 6), ids(dropped, DroppedCandidate.Rule.SESSION_CAP));
    assertEquals(numbered(13, 19), ids(dropped, DroppedCandidate.Rule.LIMIT));

    store.clearCalls();
    assembly(RecallOptions.defaults())
        .assemble(
            new RecallQuery(Scope.DEFAULT, "q", 12),
            gated(numbered(0, 19)),
            12,
            new RecordReader(store),
            Exclusion.none(),
            new ArrayList<>(),
            new ArrayList<>());
    assertEquals(List.of(15), store.reads.stream().map(List::size).toList());
  }

  @Test
  void recordsReadBefore_areNotReadAgain() {
    for (String id : numbered(0, 6)) {
      store.add(id, "note " + id);
    }
    List<Candidate> gated = gated(numbered(0, 6));
    RecordReader records = new RecordReader(store);
    records.read(gated.subList(0, 2));
    store.clearCalls();
    assembly(RecallOptions.defaults())
        .assemble(
            new RecallQuery(Scope.DEFAULT, "q", 3),
            gated,
            3,
            records,
            Exclusion.none(),
            new ArrayList<>(),
            new ArrayList<>());
    assertEquals(
        List.of(List.of(MemoryId.of("m2"), MemoryId.of("m3"), MemoryId.of("m4"))), store.reads);
  }

  static LongStream seeds() {
    return Seeds.seeds(20);
  }

  /**
   * Reading in chunks decides what is read, never what is kept or dropped: the result is that of
   * one walk down the gated candidates, and no record is read twice.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void assembly_keepsWhatOneWalkDownTheCandidatesKeeps_readingEachRecordOnce(long seed) {
    Random random = new Random(seed);
    int count = 1 + random.nextInt(60);
    int cap = 1 + random.nextInt(3);
    int wanted = 1 + random.nextInt(30);
    Map<String, Memory> stored = new HashMap<>();
    for (String id : numbered(0, count)) {
      if (random.nextInt(6) > 0) { // the rest are forgotten: candidates the store no longer has
        String session = random.nextInt(3) == 0 ? null : "s" + random.nextInt(5);
        stored.put(id, store.add(id, "note " + id, b -> b.sourceSession(session)));
      }
    }
    List<Candidate> gated = gated(numbered(0, count));
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<RecalledMemory> kept =
        assembly(RecallOptions.builder().maxPerSession(cap).build())
            .assemble(
                new RecallQuery(Scope.DEFAULT, "q", wanted),
                gated,
                wanted,
                new RecordReader(store),
                Exclusion.none(),
                new ArrayList<>(),
                dropped);

    List<String> expectedKept = new ArrayList<>();
    List<String> expectedDropped = new ArrayList<>();
    Map<String, Integer> perSession = new HashMap<>();
    int next = 0;
    for (; next < count && expectedKept.size() < wanted; next++) {
      Memory m = stored.get("m" + next);
      if (m == null) {
        continue;
      }
      if (m.sourceSession() != null && perSession.merge(m.sourceSession(), 1, Integer::sum) > cap) {
        expectedDropped.add("SESSION_CAP m" + next);
        continue;
      }
      expectedKept.add("m" + next);
    }
    for (int listed = 0; next < count && listed < 20; next++, listed++) {
      expectedDropped.add("LIMIT m" + next);
    }
    String replay = Seeds.replay(seed);
    assertEquals(expectedKept, ids(kept), replay);
    assertEquals(
        expectedDropped,
        dropped.stream().map(d -> d.rule() + " " + d.id().value()).toList(),
        replay);
    List<MemoryId> read = store.idsRead();
    assertEquals(
        read.size(), new HashSet<>(read).size(), replay + ": read twice in " + store.reads);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void fourDecimals_printsWhatPercentPointFourFPrints(long seed) {
    Random random = new Random(seed);
    String replay = Seeds.replay(seed);
    for (int i = 0; i < 2_000; i++) {
      // fused scores, ties at the fifth decimal, and scaled extremes
      double v =
          switch (i % 4) {
            case 0 -> random.nextDouble();
            case 1 -> Math.round(random.nextDouble() * 100_000) / 100_000.0 + 0.00005;
            case 2 -> random.nextGaussian() * Math.pow(10, random.nextInt(12) - 6);
            default -> random.nextInt(2_000) / 1_000.0;
          };
      assertEquals(
          String.format(Locale.ROOT, "%.4f", v), ResultAssembly.fourDecimals(v), replay + ": " + v);
    }
    for (double v :
        new double[] {0, -0.0, -0.00004, 1, 0.00005, 0.99995, 123456.78905, Double.NaN}) {
      assertEquals(String.format(Locale.ROOT, "%.4f", v), ResultAssembly.fourDecimals(v));
    }
  }
}
