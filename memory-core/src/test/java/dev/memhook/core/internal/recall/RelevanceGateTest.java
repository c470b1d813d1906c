package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The two-level relevance gate: through the service on the vector signal alone with vectors at
 * known cosines, and the stage itself on candidates built by hand.
 */
class RelevanceGateTest {

  /** Candidate floors cosine 0.3, text 0.2, shared 2; evidence floors cosine 0.6, text 0.5. */
  private static final RecallOptions FLOORS =
      RecallOptions.builder()
          .minCosine(0.3)
          .minTextScore(0.2)
          .minSharedEntities(2)
          .evidenceFloors(0.6, 0.5)
          .build();

  private static final RelevanceGate GATE =
      new RelevanceGate(FLOORS, RecallEngine.MAX_LISTED_TAIL_DROPS);
  private static final double CEILING = 10;

  /** A basis without crowds, absolute floors, of a scope the vector search returned whole. */
  private static final GateBasis WHOLE_SCOPE =
      new GateBasis(CEILING, 0, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, true);

  private static SignalHit vector(double cosine) {
    return new SignalHit(Signal.VECTOR, 1, cosine);
  }

  private static SignalHit text(double score) {
    return new SignalHit(Signal.TEXT, 1, score);
  }

  private static SignalHit graph(double shared) {
    return new SignalHit(Signal.GRAPH, 1, shared);
  }

  private static List<String> ids(List<Candidate> candidates) {
    return candidates.stream().map(c -> c.id.value()).toList();
  }

  private static MemoryService service(Map<String, Double> cosines) {
    return Memhook.builder()
        .inMemory()
        .embedder(new AngleEmbedder(cosines))
        .recallOptions(
            RecallOptions.builder()
                .cosineBase(RecallOptions.CosineBase.ABSOLUTE)
                .weights(0, 1, 0)
                .evidenceFloors(0.6, 1.01)
                .minCosine(0.3)
                .minTextScore(1.01)
                .build())
        .build();
  }

  @Test
  void aRecallWithEvidence_bringsCompanionsAboveTheCandidateFloor() {
    try (MemoryService memory = service(Map.of("strong", 0.7, "companion", 0.4, "noise", 0.1))) {
      Memory strong = memory.remember(MemoryDraft.of(Scope.DEFAULT, "strong"));
      Memory companion = memory.remember(MemoryDraft.of(Scope.DEFAULT, "companion"));
      Memory noise = memory.remember(MemoryDraft.of(Scope.DEFAULT, "noise"));
      RecallResult result = memory.recall(RecallQuery.of(Scope.DEFAULT, "query"));
      assertEquals(List.of(strong.id(), companion.id()), result.ids(), result.explain());
      assertEquals(
          List.of(noise.id()), result.dropped().stream().map(DroppedCandidate::id).toList());
    }
  }

  @Test
  void aRecallWithoutEvidence_returnsNothing_evenAboveTheCandidateFloor() {
    try (MemoryService memory = service(Map.of("companion", 0.5, "other", 0.4))) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "companion"));
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "other"));
      RecallResult result = memory.recall(RecallQuery.of(Scope.DEFAULT, "query"));
      assertTrue(result.memories().isEmpty(), result.explain());
      assertEquals(2, result.dropped().size());
      assertTrue(result.dropped().get(0).detail().contains("evidence floors"), result.explain());
    }
  }

  /**
   * A bug and a fact at one cosine, over the candidate floor (0.3) and under the lower evidence
   * floor of a scope searched whole (0.45), and a bug under the candidate floor.
   */
  private static List<Memory> bugAndFact(MemoryService memory) {
    return List.of(
        memory.remember(MemoryDraft.builder(Scope.DEFAULT, "bug").type(MemoryType.BUG).build()),
        memory.remember(MemoryDraft.builder(Scope.DEFAULT, "fact").type(MemoryType.FACT).build()),
        memory.remember(
            MemoryDraft.builder(Scope.DEFAULT, "faint bug").type(MemoryType.BUG).build()));
  }

  private static final Map<String, Double> BUG_AND_FACT =
      Map.of("bug", 0.4, "fact", 0.4, "faint bug", 0.2);

  @Test
  void aQuestionAboutTrouble_withoutEvidence_passesTheBugsOverACandidateFloor_only() {
    try (MemoryService memory = service(BUG_AND_FACT)) {
      List<Memory> stored = bugAndFact(memory);
      RecallResult result =
          memory.recall(RecallQuery.of(Scope.DEFAULT, "why does the checkout total show NaN?"));

      assertEquals(List.of(stored.get(0).id()), result.ids(), result.explain());
      DroppedCandidate fact =
          result.dropped().stream()
              .filter(d -> d.id().equals(stored.get(1).id()))
              .findFirst()
              .orElseThrow();
      assertTrue(fact.detail().contains("passes only the bugs"), fact.detail());
      assertTrue(
          result.dropped().stream().anyMatch(d -> d.id().equals(stored.get(2).id())),
          "the bug under the candidate floor stays out: " + result.explain());
    }
  }

  @Test
  void anOrdinaryQuestion_withoutEvidence_passesNoBug() {
    try (MemoryService memory = service(BUG_AND_FACT)) {
      bugAndFact(memory);
      RecallResult result =
          memory.recall(RecallQuery.of(Scope.DEFAULT, "what did we decide for the checkout?"));

      assertTrue(result.memories().isEmpty(), result.explain());
      assertTrue(result.dropped().get(0).detail().contains("evidence floors"), result.explain());
    }
  }

  @Test
  void theBugsAreLookedFor_onlyWithoutEvidence_andOnlyOverACandidateFloor() {
    List<List<String>> asked = new ArrayList<>();
    List<Candidate> fused =
        List.of(
            Candidates.of("over", 0.05, vector(0.4)),
            Candidates.of("text", 0.04, text(3)),
            Candidates.of("under", 0.03, vector(0.2)));
    List<DroppedCandidate> dropped = new ArrayList<>();

    List<Candidate> passed =
        GATE.apply(
            fused,
            GateBasis.absolute(CEILING),
            over -> {
              asked.add(ids(over));
              return over.subList(0, 1);
            },
            dropped);

    assertEquals(List.of(List.of("over", "text")), asked);
    assertEquals(List.of("over"), ids(passed));
    assertEquals(List.of("text", "under"), dropped.stream().map(d -> d.id().value()).toList());

    asked.clear();
    List<Candidate> withEvidence =
        GATE.apply(
            List.of(Candidates.of("strong", 0.05, vector(0.7)), fused.get(0)),
            GateBasis.absolute(CEILING),
            over -> {
              asked.add(ids(over));
              return List.of();
            },
            new ArrayList<>());
    assertEquals(List.of(), asked, "a recall with evidence does not look for bugs");
    assertEquals(List.of("strong", "over"), ids(withEvidence));
  }

  @Test
  void aCandidateBelowEveryFloor_isDroppedByTheGate_withItsNumbersAgainstEachFloor() {
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<Candidate> passed =
        GATE.apply(
            List.of(
                Candidates.of("strong", 0.05, vector(0.7)),
                Candidates.of("weak", 0.04, vector(0.1), text(1), graph(1))),
            GateBasis.absolute(CEILING),
            dropped);
    assertEquals(List.of("strong"), ids(passed));
    assertEquals(
        List.of(
            new DroppedCandidate(
                MemoryId.of("weak"),
                DroppedCandidate.Rule.RELEVANCE_GATE,
                "cosine 0.100 < 0.30, text 0.100 < 0.20, shared 1 < 2",
                List.of(
                    new SignalHit(Signal.TEXT, 1, 1.0),
                    new SignalHit(Signal.VECTOR, 1, 0.1),
                    new SignalHit(Signal.GRAPH, 1, 1.0)))),
        dropped);
  }

  @Test
  void aSignalThatDidNotFindTheCandidate_isShownAsADash() {
    List<DroppedCandidate> dropped = new ArrayList<>();
    GATE.apply(
        List.of(
            Candidates.of("strong", 0.05, vector(0.7)), Candidates.of("graphOnly", 0.01, graph(1))),
        GateBasis.absolute(CEILING),
        dropped);
    assertEquals("cosine - < 0.30, text - < 0.20, shared 1 < 2", dropped.get(0).detail());
  }

  @Test
  void eachFloorAlone_letsACandidateThrough_inFusedOrder() {
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<Candidate> passed =
        GATE.apply(
            List.of(
                Candidates.of("byText", 0.05, text(6)),
                Candidates.of("byCosine", 0.04, vector(0.3)),
                Candidates.of("byGraph", 0.03, graph(2)),
                Candidates.of("byTextShare", 0.02, text(2))),
            GateBasis.absolute(CEILING),
            dropped);
    assertEquals(List.of("byText", "byCosine", "byGraph", "byTextShare"), ids(passed));
    assertTrue(dropped.isEmpty(), dropped.toString());
  }

  @Test
  void aNeighbouringTurnOfASeed_passesWithoutASignalOfItsOwn_butGivesNoEvidence() {
    SignalHit told = new SignalHit(Signal.NEIGHBOUR, 1, 0.01);
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<Candidate> passed =
        GATE.apply(
            List.of(
                Candidates.of("strong", 0.05, vector(0.7)),
                Candidates.of("toldNext", 0.04, told),
                Candidates.of("weak", 0.03, vector(0.1))),
            GateBasis.absolute(CEILING),
            dropped);
    assertEquals(List.of("strong", "toldNext"), ids(passed));
    assertEquals(List.of(MemoryId.of("weak")), dropped.stream().map(DroppedCandidate::id).toList());
    assertTrue(
        GATE.apply(
                List.of(Candidates.of("toldNext", 0.04, told)),
                GateBasis.absolute(CEILING),
                new ArrayList<>())
            .isEmpty(),
        "a neighbour alone is no evidence that the scope answers the query");
  }

  @Test
  void aQueryWithoutEvidence_passesNothing_andListsTheFirstTwentyWithTheBestNumbers() {
    List<Candidate> fused = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      fused.add(
          Candidates.of("c" + i, 1.0 / (i + 1), vector(0.5 - i * 0.01), text(i == 3 ? 4 : 1)));
    }
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<Candidate> passed = GATE.apply(fused, GateBasis.absolute(CEILING), dropped);
    assertTrue(passed.isEmpty());
    assertEquals(RecallEngine.MAX_LISTED_TAIL_DROPS, dropped.size());
    for (int i = 0; i < dropped.size(); i++) {
      assertEquals(
          new DroppedCandidate(
              MemoryId.of("c" + i),
              DroppedCandidate.Rule.RELEVANCE_GATE,
              "no candidate reached the evidence floors: best cosine 0.500 < 0.60, best text 0.400 < 0.50",
              fused.get(i).signalHits()),
          dropped.get(i));
    }
  }

  @Test
  void aQueryWithoutEvidence_namesASignalThatFoundNothing_asADash_neverNaN() {
    List<Candidate> fused = List.of(Candidates.of("onlyText", 1.0, text(1)));
    List<DroppedCandidate> dropped = new ArrayList<>();

    assertTrue(GATE.apply(fused, GateBasis.absolute(CEILING), dropped).isEmpty());

    assertEquals(
        "no candidate reached the evidence floors: best cosine - < 0.60, best text 0.100 < 0.50",
        dropped.get(0).detail());
  }

  @Test
  void aQueryWithoutEvidence_isRecognisedEvenWhenEveryCandidateClearsACandidateFloor() {
    List<DroppedCandidate> dropped = new ArrayList<>();
    assertTrue(
        GATE.apply(
                List.of(
                    Candidates.of("a", 0.05, vector(0.59)), Candidates.of("b", 0.04, text(4.9))),
                GateBasis.absolute(CEILING),
                dropped)
            .isEmpty());
    assertEquals(List.of("a", "b"), dropped.stream().map(d -> d.id().value()).toList());
  }

  @Test
  void oneCandidateAtAnEvidenceFloor_isEvidenceEnough() {
    List<DroppedCandidate> dropped = new ArrayList<>();
    assertEquals(
        List.of("byText", "companion"),
        ids(
            GATE.apply(
                List.of(
                    Candidates.of("byText", 0.05, text(5)),
                    Candidates.of("companion", 0.04, vector(0.3))),
                GateBasis.absolute(CEILING),
                dropped)));
  }

  @Test
  void theDirectFloor_isCosineOrTextShare_neverTheGraph() {
    assertTrue(
        GATE.passesDirectFloor(Candidates.of("a", 0, vector(0.3)), GateBasis.absolute(CEILING)));
    assertTrue(GATE.passesDirectFloor(Candidates.of("b", 0, text(2)), GateBasis.absolute(CEILING)));
    assertFalse(
        GATE.passesDirectFloor(
            Candidates.of("c", 0, vector(0.29), text(1.9)), GateBasis.absolute(CEILING)));
    assertFalse(
        GATE.passesDirectFloor(Candidates.of("d", 0, graph(50)), GateBasis.absolute(CEILING)));
  }

  @Test
  void textShare_isTheTextScoreOverTheCeiling_orNaNWithoutTextOrCeiling() {
    assertEquals(0.25, Candidates.of("a", 0, text(2.5)).textShare(CEILING), 1e-12);
    assertTrue(Double.isNaN(Candidates.of("b", 0, vector(0.9)).textShare(CEILING)));
    assertTrue(Double.isNaN(Candidates.of("c", 0, text(2.5)).textShare(0)));
  }

  @Test
  void evidenceFloorsBelowTheCandidateFloors_areRejected() {
    assertThrows(
        IllegalStateException.class,
        () -> RecallOptions.builder().minCosine(0.5).evidenceFloors(0.4, 0.9).build());
  }

  @Test
  void aHitOverTheEvidenceFloor_amidACrowdOfTheScopesNeighbours_givesNoEvidence() {
    // floor 0.6; the scope's crowd puts the bar at 0.75
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<Candidate> fused = List.of(Candidates.of("over-the-floor", 0.05, vector(0.7)));
    assertTrue(
        GATE.apply(fused, new GateBasis(CEILING, 0, 0.75, Double.NEGATIVE_INFINITY), dropped)
            .isEmpty());
    assertEquals(
        "no candidate reached the evidence floors: best cosine 0.700 (floor 0.60 and above the"
            + " scope's crowd at 0.75), best text - < 0.50",
        dropped.get(0).detail());
    assertEquals(
        List.of("over-the-floor"),
        ids(
            GATE.apply(
                fused,
                new GateBasis(CEILING, 0, 0.69, Double.NEGATIVE_INFINITY),
                new ArrayList<>())));
  }

  @Test
  void aScopeSearchedWhole_takesEvidenceHalfwayBetweenTheCandidateFloorAndTheEvidenceFloor() {
    // candidate floor 0.3, evidence floor 0.6: halfway is 0.45
    List<Candidate> fused = List.of(Candidates.of("modest", 0.05, vector(0.5)));
    GateBasis whole = WHOLE_SCOPE;
    GateBasis large = new GateBasis(CEILING, 0, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY);
    assertEquals(0.45, GATE.evidenceCosineFloor(whole), 1e-12);
    assertEquals(0.6, GATE.evidenceCosineFloor(large), 1e-12);
    assertEquals(List.of("modest"), ids(GATE.apply(fused, whole, new ArrayList<>())));
    assertTrue(GATE.apply(fused, large, new ArrayList<>()).isEmpty());

    List<DroppedCandidate> dropped = new ArrayList<>();
    assertTrue(
        GATE.apply(List.of(Candidates.of("weak", 0.05, vector(0.44))), whole, dropped).isEmpty());
    assertEquals(
        "no candidate reached the evidence floors: best cosine 0.440 < 0.45 for a scope searched"
            + " whole, best text - < 0.50",
        dropped.get(0).detail());
  }

  @Test
  void evidenceUnderTheFullFloor_vouchesOnlyForTheHitsThatReachTheLowerFloor() {
    // candidate floor 0.3, lower floor 0.45, evidence floor 0.6
    GateBasis whole = WHOLE_SCOPE;
    Candidate companion = Candidates.of("companion", 0.04, vector(0.35));
    List<DroppedCandidate> dropped = new ArrayList<>();
    assertEquals(
        List.of("modest"),
        ids(
            GATE.apply(
                List.of(Candidates.of("modest", 0.05, vector(0.5)), companion), whole, dropped)));
    assertEquals(
        "no candidate reached the evidence floors, and this one not the lower cosine floor 0.45 of"
            + " a scope searched whole: cosine 0.350 < 0.30, text - < 0.20, shared - < 2",
        dropped.get(0).detail());
    // evidence at the full floor brings its companions over the candidate floor, as in any scope
    assertEquals(
        List.of("strong", "companion"),
        ids(
            GATE.apply(
                List.of(Candidates.of("strong", 0.05, vector(0.65)), companion),
                whole,
                new ArrayList<>())));
  }

  @Test
  void aScopeSearchedWhole_stillAsksTheEvidenceToClearTheScopesCrowd() {
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<Candidate> fused = List.of(Candidates.of("in-the-crowd", 0.05, vector(0.5)));
    assertTrue(
        GATE.apply(fused, new GateBasis(CEILING, 0, 0.55, Double.NEGATIVE_INFINITY, true), dropped)
            .isEmpty());
    assertEquals(
        "no candidate reached the evidence floors: best cosine 0.500 (floor 0.45 for a scope"
            + " searched whole and above the scope's crowd at 0.55), best text - < 0.50",
        dropped.get(0).detail());
  }

  @Test
  void aClosedCosineEvidenceRoute_staysClosedInAScopeSearchedWhole() {
    RelevanceGate closed =
        new RelevanceGate(
            RecallOptions.builder().minCosine(0.3).evidenceFloors(1.01, 0.5).build(),
            RecallEngine.MAX_LISTED_TAIL_DROPS);
    GateBasis whole = WHOLE_SCOPE;
    assertTrue(
        closed
            .apply(List.of(Candidates.of("perfect", 0.05, vector(1.0))), whole, new ArrayList<>())
            .isEmpty());
  }

  @Test
  void aHitClearOfTheCrowd_butUnderTheEvidenceFloor_givesNoEvidence() {
    assertTrue(
        GATE.apply(
                List.of(Candidates.of("clear-but-low", 0.05, vector(0.55))),
                new GateBasis(CEILING, 0, 0.2, Double.NEGATIVE_INFINITY),
                new ArrayList<>())
            .isEmpty());
  }

  @Test
  void theCrowdBarsOnlyTheCosineRoute_notEvidenceFromText() {
    List<Candidate> fused = List.of(Candidates.of("worded", 0.05, vector(0.2), text(6)));
    assertEquals(
        List.of("worded"),
        ids(
            GATE.apply(
                fused,
                new GateBasis(CEILING, 0, 0.9, Double.NEGATIVE_INFINITY),
                new ArrayList<>())));
  }

  @Test
  void aTextHitOverTheEvidenceFloor_amidACrowdOfTheScopesTextHits_givesNoEvidence() {
    // text evidence floor 0.5 of the ceiling; the scope's text crowd puts the bar at 0.65
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<Candidate> fused = List.of(Candidates.of("common-words", 0.05, text(6)));
    assertTrue(
        GATE.apply(fused, new GateBasis(CEILING, 0, Double.NEGATIVE_INFINITY, 0.65), dropped)
            .isEmpty());
    assertEquals(
        "no candidate reached the evidence floors: best cosine - < 0.60, best text 0.600 (floor"
            + " 0.50 and above the scope's text crowd at 0.65)",
        dropped.get(0).detail());
    assertEquals(
        List.of("common-words"),
        ids(
            GATE.apply(
                fused,
                new GateBasis(CEILING, 0, Double.NEGATIVE_INFINITY, 0.55),
                new ArrayList<>())));
  }

  @Test
  void aTextHitClearOfTheTextCrowd_butUnderTheEvidenceFloor_givesNoEvidence() {
    assertTrue(
        GATE.apply(
                List.of(Candidates.of("clear-but-low", 0.05, text(4.5))),
                new GateBasis(CEILING, 0, Double.NEGATIVE_INFINITY, 0.2),
                new ArrayList<>())
            .isEmpty());
  }

  @Test
  void theTextCrowdBarsOnlyTheTextRoute_notEvidenceFromTheCosine() {
    List<Candidate> fused = List.of(Candidates.of("meant", 0.05, vector(0.7), text(6)));
    assertEquals(
        List.of("meant"),
        ids(
            GATE.apply(
                fused,
                new GateBasis(CEILING, 0, Double.NEGATIVE_INFINITY, 0.9),
                new ArrayList<>())));
  }

  /**
   * Through the service on the text signal alone: a scope where a dozen memories hold the
   * question's one common word, so its best text hit reaches the evidence floor with a crowd just
   * behind it, against a memory holding the question's rare word too. The other scope makes the
   * common word rare in the store as a whole, as in a store shared by many conversations.
   */
  @Test
  void aQuestionMatchingOnlyTheScopesCommonWords_findsNoEvidence_whileItsRareWordDoes() {
    Scope ours = Scope.of("acme", "ours");
    Scope others = Scope.of("acme", "others");
    String[] things = {
      "baked bread", "painted the fence", "cleaned the garage", "read a novel", "visited my aunt",
      "fixed the bike", "watched a film", "planted tulips", "washed the car", "wrote letters",
      "sorted old photos", "cooked a curry"
    };
    try (MemoryService memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .recallOptions(RecallOptions.builder().weights(1, 0, 0).build())
            .build()) {
      for (String thing : things) {
        memory.remember(MemoryDraft.of(ours, "Over the weekend I " + thing + " at home."));
      }
      for (int i = 0; i < 60; i++) {
        memory.remember(MemoryDraft.of(others, "Build server note " + i + " about disk quotas."));
      }
      RecallResult common = memory.recall(RecallQuery.of(ours, "What did I do over the weekend?"));
      assertEquals(List.of(), common.ids(), common.explain());
      assertTrue(common.explain().contains("above the scope's text crowd at"), common.explain());

      Memory kayak =
          memory.remember(MemoryDraft.of(ours, "Over the weekend I went kayaking at the lake."));
      RecallResult rare =
          memory.recall(RecallQuery.of(ours, "Where did I go kayaking over the weekend?"));
      assertEquals(kayak.id(), rare.ids().get(0), rare.explain());
    }
  }

  @Test
  void withoutARelevanceGate_aVectorOnlyRecall_amidACrowdOfEqualCosines_keepsItsHits() {
    Scope ours = Scope.of("acme", "crowd");
    try (MemoryService memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .recallOptions(RecallOptions.builder().weights(0, 1, 0).noRelevanceGate().build())
            .build()) {
      // twelve memories of one text: the best cosine is the tenth's, a crowd with no leader
      for (int i = 0; i < 12; i++) {
        memory.remember(MemoryDraft.of(ours, "the nightly backup copies the photo library"));
      }
      RecallResult r =
          memory.recall(new RecallQuery(ours, "the nightly backup copies the photo library", 5));
      assertEquals(5, r.ids().size(), r.explain());
    }
  }
}
