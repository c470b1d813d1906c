package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import dev.memhook.api.spi.StoreHit;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Graph expansion from the seeds' concepts and files, on candidates built by hand. */
class GraphExpansionTest {

  private static final int DEPTH = 50;

  /** Default floors; a cosine of 0.9 clears the direct floor, 0.1 does not. */
  private static final RecallOptions OPTIONS = RecallOptions.builder().graphSeeds(2).build();

  private final ObservedStore store = new ObservedStore();

  @AfterEach
  void close() {
    store.close();
  }

  private GraphExpansion expansion(RecallOptions options) {
    return new GraphExpansion(
        store, options, new RelevanceGate(options, RecallEngine.MAX_LISTED_TAIL_DROPS));
  }

  private List<StoreHit> expand(RecallOptions options, Candidate... fused) {
    GraphExpansion graph = expansion(options);
    return graph.expand(
        Scope.DEFAULT,
        graph.seeds(List.of(fused), GateBasis.absolute(0)),
        new RecordReader(store),
        DEPTH);
  }

  private static Candidate atCosine(String id, double cosine) {
    return Candidates.of(id, 0.01, new SignalHit(Signal.VECTOR, 1, cosine));
  }

  private static List<String> ids(List<StoreHit> hits) {
    return hits.stream().map(h -> h.id().value()).toList();
  }

  @Test
  void expansion_findsTheMemoriesSharingTheSeedsConceptsAndFiles_withoutTheSeeds() {
    store.add("seed", "token expiry", b -> b.concepts(List.of("auth")).files(List.of("Jwt.java")));
    store.add("byConcept", "login flow", b -> b.concepts(List.of("auth")));
    store.add("byFile", "signing keys", b -> b.files(List.of("Jwt.java")));
    store.add("unrelated", "pizza", b -> b.concepts(List.of("food")));
    List<StoreHit> related = expand(OPTIONS, atCosine("seed", 0.9));
    assertEquals(Set.of("byConcept", "byFile"), Set.copyOf(ids(related)));
    // one more than the depth, for the seed that is taken out
    assertEquals(
        List.of(new ObservedStore.RelatedSearch(Set.of("auth"), Set.of("Jwt.java"), DEPTH + 1)),
        store.relatedSearches);
  }

  @Test
  void expansion_seedsOnlyFromCandidatesThatClearADirectFloor_upToGraphSeeds() {
    store.add("weak", "weak hit", b -> b.concepts(List.of("weakConcept")));
    store.add("first", "first hit", b -> b.concepts(List.of("first")));
    store.add("second", "second hit", b -> b.concepts(List.of("second")));
    store.add("third", "third hit", b -> b.concepts(List.of("third")));
    store.add("sharesFirst", "other", b -> b.concepts(List.of("first", "weakConcept")));
    List<StoreHit> related =
        expand(
            OPTIONS,
            atCosine("weak", 0.1),
            atCosine("first", 0.9),
            atCosine("second", 0.9),
            atCosine("third", 0.9));
    assertEquals(List.of(List.of(MemoryId.of("first"), MemoryId.of("second"))), store.reads);
    assertEquals(Set.of("first", "second"), store.relatedSearches.get(0).concepts());
    assertEquals(List.of("sharesFirst"), ids(related));
  }

  @Test
  void expansion_skipsTheRelatedSearch_whenTheSeedsHaveNoConceptsOrFiles() {
    store.add("plain", "nothing to share");
    store.add("other", "has a concept", b -> b.concepts(List.of("x")));
    assertTrue(expand(OPTIONS, atCosine("plain", 0.9)).isEmpty());
    assertEquals(1, store.reads.size());
    assertTrue(store.relatedSearches.isEmpty());
  }

  @Test
  void expansion_readsNothing_whenNoCandidateClearsADirectFloor() {
    store.add("weak", "weak hit", b -> b.concepts(List.of("x")));
    assertTrue(expand(OPTIONS, atCosine("weak", 0.1)).isEmpty());
    assertTrue(store.reads.isEmpty());
    assertTrue(store.relatedSearches.isEmpty());
  }

  @Test
  void expansion_isOff_withoutSeedsOrGraphWeight() {
    store.add("seed", "token expiry", b -> b.concepts(List.of("auth")));
    store.add("byConcept", "login flow", b -> b.concepts(List.of("auth")));
    assertTrue(
        expand(RecallOptions.builder().graphSeeds(0).build(), atCosine("seed", 0.9)).isEmpty());
    assertTrue(
        expand(RecallOptions.builder().weights(1, 0.3, 0).build(), atCosine("seed", 0.9))
            .isEmpty());
    assertTrue(store.reads.isEmpty());
    assertTrue(store.relatedSearches.isEmpty());
  }

  @Test
  void aSeedTheStoreNoLongerHas_isNeitherReadForConceptsNorCounted() {
    store.add("seed", "token expiry", b -> b.concepts(List.of("auth")));
    store.add("byConcept", "login flow", b -> b.concepts(List.of("auth")));
    List<StoreHit> related = expand(OPTIONS, atCosine("forgotten", 0.9), atCosine("seed", 0.9));
    assertEquals(List.of("byConcept"), ids(related));
    assertEquals(DEPTH + 1, store.relatedSearches.get(0).k());
  }
}
