package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Reranker;
import dev.memhook.api.Scope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The optional reranker over the top memories, and its fall-back to the fused order. */
class RerankingTest {

  private static RecalledMemory recalled(String id) {
    Memory m =
        Memory.builder()
            .id(MemoryId.of(id))
            .scope(Scope.DEFAULT)
            .content("memory " + id)
            .occurredAt(Instant.EPOCH)
            .createdAt(Instant.EPOCH)
            .build();
    return new RecalledMemory(m, 0.1, List.of());
  }

  private static final List<RecalledMemory> FUSED =
      List.of(recalled("a"), recalled("b"), recalled("c"), recalled("d"));

  private static Reranking reranking(Reranker reranker, int top) {
    return new Reranking(RecallOptions.builder().reranker(reranker, top).build());
  }

  private static List<String> ids(List<RecalledMemory> memories) {
    return memories.stream().map(m -> m.id().value()).toList();
  }

  @Test
  void theRerankerReordersTheTop_andTheRestFollowInFusedOrder() {
    List<List<String>> given = new ArrayList<>();
    Reranker reverse =
        (query, candidates) -> {
          given.add(ids(candidates));
          List<RecalledMemory> out = new ArrayList<>(candidates);
          Collections.reverse(out);
          return out;
        };
    assertEquals(List.of("b", "a", "c", "d"), ids(reranking(reverse, 2).rerank("q", FUSED)));
    assertEquals(List.of(List.of("a", "b")), given);
  }

  @Test
  void aRerankerReturningFewer_dropsTheOthersOfTheTop() {
    Reranker keepSecond = (query, candidates) -> List.of(candidates.get(1));
    assertEquals(List.of("b", "d"), ids(reranking(keepSecond, 3).rerank("q", FUSED)));
  }

  @Test
  void aRerankerReturningAnIdItWasNotGiven_fallsBackToTheFusedOrder() {
    Reranker stranger = (query, candidates) -> List.of(recalled("x"), candidates.get(0));
    assertEquals(List.of("a", "b", "c", "d"), ids(reranking(stranger, 2).rerank("q", FUSED)));
  }

  @Test
  void aRerankerReturningAMemoryBelowItsTop_fallsBackToTheFusedOrder() {
    Reranker promotesD =
        (query, candidates) -> List.of(recalled("d"), candidates.get(0), candidates.get(1));
    assertEquals(List.of("a", "b", "c", "d"), ids(reranking(promotesD, 2).rerank("q", FUSED)));
  }

  @Test
  void aRerankerThatThrows_fallsBackToTheFusedOrder() {
    Reranker broken =
        (query, candidates) -> {
          throw new IllegalStateException("model unavailable");
        };
    assertEquals(List.of("a", "b", "c", "d"), ids(reranking(broken, 4).rerank("q", FUSED)));
  }

  @Test
  void theReranker_isNotAskedAboutFewerThanTwoMemories() {
    List<String> calls = new ArrayList<>();
    Reranker counting =
        (query, candidates) -> {
          calls.add(query);
          return candidates;
        };
    Reranking reranking = reranking(counting, 5);
    assertEquals(List.of("a"), ids(reranking.rerank("q", List.of(recalled("a")))));
    assertTrue(reranking.rerank("q", List.of()).isEmpty());
    assertTrue(calls.isEmpty(), calls.toString());
  }

  @Test
  void withoutAReranker_theFusedOrderStands_andOnlyTheLimitIsWanted() {
    Reranking none = new Reranking(RecallOptions.defaults());
    assertEquals(FUSED, none.rerank("q", FUSED));
    assertEquals(3, none.placesWanted(3));
  }

  @Test
  void withAReranker_atLeastItsTopIsWanted() {
    Reranking top = reranking((query, candidates) -> candidates, 10);
    assertEquals(10, top.placesWanted(3));
    assertEquals(15, top.placesWanted(15));
  }
}
