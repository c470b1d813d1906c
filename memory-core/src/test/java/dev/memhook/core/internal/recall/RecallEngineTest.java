package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.spi.MemoryStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The engine running the stages in order: what reaches each stage and what the result holds. */
class RecallEngineTest {

  private static final RecallOptions TEXT_ONLY =
      RecallOptions.builder().weights(1, 0, 0).noRelevanceGate().build();

  private final ObservedStore store = new ObservedStore();

  @AfterEach
  void close() {
    store.close();
  }

  private RecallEngine engine(RecallOptions options) {
    return new RecallEngine(store, store.embedder, options);
  }

  private void addNotes(int count) {
    for (int i = 0; i < count; i++) {
      store.add("m" + i, "release train note " + i);
    }
  }

  /** Stores turn {@code id} of session "trip", said by {@code speaker} at minute {@code at}. */
  private void turn(String id, String speaker, int at, String content) {
    store.add(
        id,
        content,
        b ->
            b.sourceSession("trip")
                .origin(dev.memhook.api.Origin.user(speaker))
                .occurredAt(java.time.Instant.EPOCH.plusSeconds(60L * at)));
  }

  /**
   * Session "trip": Ann tells of a booking (t1) and what followed (t3), Bob reacts (t2, t4); and
   * one unrelated memory.
   */
  private void lighthouseTrip() {
    turn("t1", "Ann", 1, "we finally booked the lighthouse cabin on the coast");
    turn("t2", "Bob", 2, "oh nice, how long are you staying?");
    turn("t3", "Ann", 3, "a whole week, and my sister flies in on the second day");
    turn("t4", "Bob", 4, "sounds relaxing");
    store.add("other", "the quarterly budget review moved to thursday");
  }

  @Test
  void theSameSpeakersNextTurn_comesBelowTheHitItWasToldAfter_throughTheGate_andIsExplained() {
    lighthouseTrip();
    RecallResult result =
        engine(RecallOptions.builder().build())
            .recall(RecallQuery.of(Scope.DEFAULT, "lighthouse cabin booked"));
    assertEquals(MemoryId.of("t1"), result.ids().get(0), result.explain());
    int next = result.ids().indexOf(MemoryId.of("t3"));
    assertTrue(next > 0, result.explain());
    RecalledMemory told = result.memories().get(next);
    assertEquals(
        1,
        told.signals().stream()
            .filter(h -> h.signal() == Signal.NEIGHBOUR)
            .findFirst()
            .orElseThrow()
            .rank(),
        "its seed's rank: " + result.explain());
    assertTrue(
        result.fusion().contains("neighbouring turns: ")
            && result.explain().contains("neighbour #1"),
        result.explain());
    assertTrue(
        engine(RecallOptions.builder().weights(1, 0.75, 0).build())
            .recall(RecallQuery.of(Scope.DEFAULT, "lighthouse cabin booked"))
            .memories()
            .stream()
            .noneMatch(m -> m.signals().stream().anyMatch(h -> h.signal() == Signal.NEIGHBOUR)),
        "graph weight 0 turns expansion from the seeds off, neighbours too");
  }

  @Test
  void aCountingQuestion_liftsNoNeighbouringTurn_whereTheSameTopicAskedOtherwiseDoes() {
    lighthouseTrip();
    RecallEngine engine = engine(RecallOptions.builder().build());

    RecallResult once = engine.recall(RecallQuery.of(Scope.DEFAULT, "lighthouse cabin booked"));
    RecallResult counted =
        engine.recall(
            RecallQuery.of(Scope.DEFAULT, "how many times was the lighthouse cabin booked?"));

    assertTrue(once.ids().contains(MemoryId.of("t3")), once.explain());
    assertEquals(MemoryId.of("t1"), counted.ids().get(0), counted.explain());
    assertFalse(counted.ids().contains(MemoryId.of("t3")), counted.explain());
    assertFalse(counted.fusion().contains("neighbouring turns"), counted.fusion());
    assertTrue(counted.fusion().contains("counting question: "), counted.fusion());
  }

  @Test
  void theResult_statesEachListsPeak_theRuleAndTheWeights_forAnExactAndANaturalQuery() {
    addNotes(3);
    RecallResult exact =
        engine(RecallOptions.builder().noRelevanceGate().build())
            .recall(RecallQuery.of(Scope.DEFAULT, "release train ReleaseTrain"));
    String number = "\\d+\\.\\d\\d";
    assertTrue(
        exact
            .fusion()
            .matches(
                "standardised scores; peaks text "
                    + number
                    + ", vector "
                    + number
                    + "; query shape exact \\(identifier, path, SHA, error code or flag\\):"
                    + " weights text "
                    + number
                    + ", vector "
                    + number
                    + ", graph 0\\.50"),
        exact.fusion());
    assertTrue(exact.explain().startsWith("fusion: " + exact.fusion() + "\n"), exact.explain());
    RecallResult natural =
        engine(
                RecallOptions.builder()
                    .fusion(dev.memhook.api.FusionMethod.RECIPROCAL_RANKS)
                    .noRelevanceGate()
                    .build())
            .recall(RecallQuery.of(Scope.DEFAULT, "release train"));
    assertTrue(
        natural
            .fusion()
            .matches(
                "reciprocal ranks \\(k 20\\); peaks text "
                    + number
                    + ", vector "
                    + number
                    + "; natural language: weights text "
                    + number
                    + ", vector "
                    + number
                    + ", graph 0\\.50"),
        natural.fusion());
  }

  @Test
  void aBlankQuery_returnsNothing_withoutAskingTheStore() {
    addNotes(3);
    assertEquals(
        RecallResult.empty(),
        engine(RecallOptions.defaults()).recall(RecallQuery.of(Scope.DEFAULT, " \n")));
    assertTrue(
        store.textSearches.isEmpty() && store.vectorDepths.isEmpty() && store.reads.isEmpty());
  }

  @Test
  void aLongQuery_isCutBeforeItIsSearched() {
    addNotes(3);
    String query = "release train ".repeat(RecallEngine.MAX_QUERY_CHARS / 10);
    engine(TEXT_ONLY).recall(RecallQuery.of(Scope.DEFAULT, query));
    assertEquals(List.of(query.substring(0, RecallEngine.MAX_QUERY_CHARS)), store.textSearches);
  }

  @Test
  void eachSignal_isSearchedAtLeastAsDeepAsTheLimit() {
    addNotes(3);
    engine(RecallOptions.builder().candidatesPerSignal(5).build())
        .recall(new RecallQuery(Scope.DEFAULT, "release train", 8));
    assertEquals(List.of(8), store.textDepths);
    assertEquals(List.of(8), store.vectorDepths);
  }

  @Test
  void aQueryWithoutEvidence_returnsNothing_listsAtMostTwentyDrops_andReadsNoRecord() {
    addNotes(30);
    // graph off: its seeds would be read before the gate
    RecallResult result =
        engine(RecallOptions.builder().weights(1, 0.3, 0).evidenceFloors(1.01, 1.01).build())
            .recall(new RecallQuery(Scope.DEFAULT, "release train", 10));
    assertTrue(result.memories().isEmpty(), result.explain());
    assertEquals(RecallEngine.MAX_LISTED_TAIL_DROPS, result.dropped().size());
    for (DroppedCandidate d : result.dropped()) {
      assertEquals(DroppedCandidate.Rule.RELEVANCE_GATE, d.rule());
      assertTrue(
          d.detail().startsWith("no candidate reached the evidence floors: best cosine "),
          d.detail());
    }
    assertTrue(store.reads.isEmpty(), store.reads.toString());
  }

  @Test
  void theReranker_seesItsTop_andTheResultIsCutToTheLimitAfterwards() {
    addNotes(20);
    List<List<MemoryId>> given = new ArrayList<>();
    RecallOptions options =
        TEXT_ONLY.toBuilder()
            .reranker(
                (query, candidates) -> {
                  given.add(candidates.stream().map(m -> m.id()).toList());
                  List<RecalledMemory> reversed = new ArrayList<>(candidates);
                  Collections.reverse(reversed);
                  return reversed;
                },
                10)
            .build();
    RecallResult result =
        engine(options).recall(new RecallQuery(Scope.DEFAULT, "release train", 3));
    assertEquals(1, given.size());
    assertEquals(10, given.get(0).size());
    List<MemoryId> top = given.get(0);
    assertEquals(List.of(top.get(9), top.get(8), top.get(7)), result.ids());
  }

  @Test
  void theGraphSeeds_readForExpansion_areNotReadAgainForTheResult() {
    store.add("seed", "jwt tokens expire after an hour", b -> b.concepts(List.of("auth")));
    store.add("related", "login sessions last a day", b -> b.concepts(List.of("auth")));
    RecallResult result =
        engine(RecallOptions.builder().weights(1, 0, 0.5).noRelevanceGate().build())
            .recall(new RecallQuery(Scope.DEFAULT, "jwt tokens", 5));
    assertEquals(List.of(MemoryId.of("seed"), MemoryId.of("related")), result.ids());
    assertEquals(Signal.GRAPH, result.memories().get(1).signals().get(0).signal());
    List<MemoryId> read = store.idsRead();
    assertEquals(new HashSet<>(read).size(), read.size(), store.reads.toString());
  }

  private static final String QUESTION =
      "how do we rotate the staging database password each month";

  /**
   * A hook's own message, captured just before its recall, matches itself perfectly. Left in until
   * assembly it was the query's evidence, so a candidate that only clears a candidate floor (one
   * shared word) came through for a question nothing else in the store answers.
   */
  @Test
  void anExcludedEcho_isNotTheQuerysEvidence_soAWeakCandidateStaysOut() {
    store.add("echo", QUESTION, b -> b.sourceSession("mine"));
    store.add("weak", "the staging database moved to a bigger host", b -> b.sourceSession("old"));
    addNotes(20);
    RecallOptions textOnly = RecallOptions.builder().weights(1, 0, 0).build();
    RecallResult open =
        engine(textOnly).recall(new RecallQuery(Scope.DEFAULT, QUESTION + " staging", 5));
    assertEquals(List.of(MemoryId.of("echo"), MemoryId.of("weak")), open.ids(), open.explain());

    Exclusion.Result screened =
        engine(textOnly).recall(new RecallQuery(Scope.DEFAULT, QUESTION + " staging", 5), mine());
    assertEquals(List.of(), screened.result().ids(), screened.result().explain());
    assertEquals(
        List.of(MemoryId.of("echo")),
        screened.excluded().stream().map(r -> r.memory().id()).toList());
    assertTrue(
        screened.result().dropped().stream()
            .anyMatch(
                d ->
                    d.id().equals(MemoryId.of("weak"))
                        && d.rule() == DroppedCandidate.Rule.RELEVANCE_GATE),
        screened.result().explain());
  }

  /** A host outside the hook (a coding agent's prompt hook) names its session on the query. */
  @Test
  void aQueryNamingItsSession_leavesThatSessionOut_asTheHooksExclusionDoes() {
    store.add("echo", QUESTION, b -> b.sourceSession("mine"));
    store.add("weak", "the staging database moved to a bigger host", b -> b.sourceSession("old"));
    addNotes(20);
    RecallOptions textOnly = RecallOptions.builder().weights(1, 0, 0).build();
    RecallQuery query = new RecallQuery(Scope.DEFAULT, QUESTION + " staging", 5);

    RecallResult named = engine(textOnly).recall(query.excludingSession("mine"));
    assertEquals(List.of(), named.ids(), named.explain());
    assertTrue(
        named.dropped().stream()
            .anyMatch(
                d ->
                    d.id().equals(MemoryId.of("weak"))
                        && d.rule() == DroppedCandidate.Rule.RELEVANCE_GATE),
        named.explain());
    // another session's name leaves the echo in, and with it the weak candidate
    RecallResult other = engine(textOnly).recall(query.excludingSession("someone-else"));
    assertEquals(List.of(MemoryId.of("echo"), MemoryId.of("weak")), other.ids(), other.explain());
  }

  @Test
  void anExcludedEcho_seedsNoGraphExpansion() {
    store.add("echo", "jwt tokens expire", b -> b.sourceSession("mine").concepts(List.of("auth")));
    store.add("related", "login sessions last a day", b -> b.concepts(List.of("auth")));
    RecallOptions graph = RecallOptions.builder().weights(1, 0, 0.5).noRelevanceGate().build();
    assertEquals(
        List.of(MemoryId.of("echo"), MemoryId.of("related")),
        engine(graph).recall(new RecallQuery(Scope.DEFAULT, "jwt tokens", 5)).ids());
    store.clearCalls();
    Exclusion.Result screened =
        engine(graph).recall(new RecallQuery(Scope.DEFAULT, "jwt tokens", 5), mine());
    assertEquals(List.of(), screened.result().ids(), screened.result().explain());
    assertTrue(store.relatedSearches.isEmpty(), store.relatedSearches.toString());
  }

  @Test
  void anExcludedMemory_isReportedOnce_evenWhenGraphExpansionFusesAgain() {
    store.add("echo", "jwt tokens expire", b -> b.sourceSession("mine").concepts(List.of("auth")));
    store.add("seed", "jwt tokens rotate weekly", b -> b.concepts(List.of("auth")));
    store.add("related", "login sessions last a day", b -> b.concepts(List.of("auth")));
    RecallOptions graph = RecallOptions.builder().weights(1, 0, 0.5).noRelevanceGate().build();
    Exclusion.Result screened =
        engine(graph).recall(new RecallQuery(Scope.DEFAULT, "jwt tokens", 5), mine());
    assertEquals(
        List.of(MemoryId.of("seed"), MemoryId.of("related")),
        screened.result().ids(),
        screened.result().explain());
    assertEquals(
        List.of(MemoryId.of("echo")),
        screened.excluded().stream().map(r -> r.memory().id()).toList());
  }

  private static Exclusion mine() {
    return Exclusion.sourceSession("mine");
  }

  @Test
  void recordsReadWhileTheVectorSideRuns_changeNoResult_andAreNotReadAgain() throws Exception {
    addNotes(30);
    RecallQuery query = RecallQuery.of(Scope.DEFAULT, "release train note 7");
    RecallResult oneAfterTheOther = engine(RecallOptions.builder().build()).recall(query);
    store.clearCalls();
    MemoryStore waitingVectors = new VectorsAwaitingARead(store);
    RecallResult beside;
    try (VectorSideThreads threads = new VectorSideThreads(1)) {
      beside =
          new RecallEngine(
                  waitingVectors,
                  store.embedder,
                  RecallOptions.builder().build(),
                  Clock.systemUTC(),
                  threads)
              .recall(query);
    }

    assertEquals(oneAfterTheOther.ids(), beside.ids(), beside.explain());
    assertEquals(
        ResultAssembly.firstRead(RecallQuery.DEFAULT_LIMIT),
        store.reads.get(0).size(),
        "the first text hits, as many as assembly reads first: " + store.reads);
    List<MemoryId> everyRead = store.reads.stream().flatMap(List::stream).toList();
    assertEquals(new HashSet<>(everyRead).size(), everyRead.size(), "read twice: " + store.reads);
  }

  @Test
  void aMemoryWhosePassageMatches_ranksAboveItsLookAlike_andTheFusionSaysSo() {
    store.add("a", "lisbon trip notes: flights and the hotel");
    store.add("b", "lisbon trip notes: flights and the ferry");
    for (int i = 0; i < 20; i++) {
      store.add("n" + i, "unrelated note about the garden, number " + i);
    }
    RecallQuery query = RecallQuery.of(Scope.DEFAULT, "lisbon trip notes flights");
    RecallOptions options = RecallOptions.builder().noRelevanceGate().build();
    List<MemoryId> plain = engine(options).recall(query).ids();
    MemoryId second = plain.get(1);
    assertTrue(Set.of(MemoryId.of("a"), MemoryId.of("b")).contains(second), plain.toString());

    RecallResult lifted =
        new RecallEngine(new PassageAnswers(store, Map.of(second, 0.99)), store.embedder, options)
            .recall(query);

    assertEquals(second, lifted.ids().get(0), lifted.explain());
    assertTrue(lifted.fusion().contains("passages lifted 1 by their sentences"), lifted.fusion());
  }

  @Test
  void aVectorListRankedBySentences_weighsFiveThirdsOfTheConfiguredVectorWeight_andSaysSo() {
    store.add("a", "lisbon trip notes: flights and the hotel");
    store.add("b", "an unrelated note about the garden");
    RecallQuery query = RecallQuery.of(Scope.DEFAULT, "lisbon trip notes flights");
    RecallOptions options = RecallOptions.builder().noRelevanceGate().build();

    RecallResult whole = engine(options).recall(query);
    RecallResult bySentences =
        new RecallEngine(
                new PassageAnswers(store, Map.of(MemoryId.of("b"), -0.99)), store.embedder, options)
            .recall(query);

    assertFalse(whole.fusion().contains("by sentences"), whole.fusion());
    // the store answered a passage cosine, so the vector list was ranked by sentences even though
    // no passage lifted a memory
    assertTrue(
        bySentences.fusion().contains("vector list by sentences (its weight x1.67)"),
        bySentences.fusion());
    assertFalse(bySentences.fusion().contains("passages lifted"), bySentences.fusion());
  }

  @Test
  void aCountingQuestion_spreadsItsPlacesOverSessions_andSaysSo_anotherQuestionDoesNot() {
    for (String id : List.of("a1", "a2", "a3")) {
      store.add(id, "the wedding by the lake", b -> b.sourceSession("summer"));
    }
    store.add("b1", "the wedding by the sea", b -> b.sourceSession("winter"));
    RecallEngine engine = engine(TEXT_ONLY);

    // the four match these questions equally; without the spread, ties go by id
    RecallResult once =
        engine.recall(new RecallQuery(Scope.DEFAULT, "when was the wedding by the water?", 2));
    RecallResult counted =
        engine.recall(
            new RecallQuery(Scope.DEFAULT, "how many times was the wedding by the water?", 2));

    assertEquals(List.of(MemoryId.of("a1"), MemoryId.of("a2")), once.ids(), once.explain());
    assertFalse(once.fusion().contains("counting question"), once.fusion());
    assertEquals(List.of(MemoryId.of("a1"), MemoryId.of("b1")), counted.ids(), counted.explain());
    assertTrue(
        counted
            .fusion()
            .contains("counting question: 2 of 4 candidates follow another of their" + " session"),
        counted.fusion());
  }

  @Test
  void theGate_readsAMemorysOwnCosine_notTheCosineOfAPassageThatLiftedIt() {
    store.add("pizza", "favourite pizza topping is anchovies");
    store.add("budget", "the quarterly budget review moved to thursday");
    RecallQuery offTopic = RecallQuery.of(Scope.DEFAULT, "which telescope should I buy");
    RecallOptions gated = RecallOptions.builder().build();
    assertEquals(List.of(), engine(gated).recall(offTopic).ids(), "nothing there without passages");

    RecallResult result =
        new RecallEngine(
                new PassageAnswers(store, Map.of(MemoryId.of("pizza"), 0.95)),
                store.embedder,
                gated)
            .recall(offTopic);

    assertEquals(List.of(), result.ids(), result.explain());
    assertTrue(
        result.dropped().stream().anyMatch(d -> d.id().equals(MemoryId.of("pizza"))),
        "the gate saw it and dropped it: " + result.explain());
  }
}
