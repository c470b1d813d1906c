package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.B;
import static dev.memhook.lucene.LuceneStoreFixtures.inMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.spi.TextHits;
import org.junit.jupiter.api.Test;

/**
 * The text ceiling depends on the searched scope's own latest memories: a content term the scope
 * lacks counts as if one memory held it, whoever else holds it. It used to count such a term only
 * if some other document held it (another scope, a superseded version, a deletion not merged yet),
 * so the share of the ceiling a hit scores, which the relevance gate compares with its floors,
 * moved with writes elsewhere: a recall passed or failed with the timing of an unrelated write.
 */
class LuceneMemoryStoreCeilingTest {

  private static final String QUERY = "money discount";

  @Test
  void ceiling_isTheSame_whetherOrNotAnotherScopeHoldsTheTermTheScopeLacks() {
    double[] ceilings = new double[2];
    String[] elsewhere = {"a discount on every order", "a coupon on every order"};
    for (int i = 0; i < 2; i++) {
      try (LuceneMemoryStore store = inMemory()) {
        store.put(memory("cents", A, "we keep money as long cents"), vector(1));
        store.put(memory("other", B, elsewhere[i]), vector(2));
        ceilings[i] = store.searchText(A, QUERY, 10).ceiling();
      }
    }
    assertEquals(ceilings[1], ceilings[0], 0.0, "scope B's words moved scope A's ceiling");
  }

  @Test
  void ceiling_isTheSame_whetherOrNotASupersededVersionHeldTheTerm() {
    double[] ceilings = new double[2];
    String[] firstVersion = {"money for the discount campaign", "money for the summer campaign"};
    for (int i = 0; i < 2; i++) {
      try (LuceneMemoryStore store = inMemory()) {
        Memory v1 = memory("v1", A, firstVersion[i]);
        store.put(v1, vector(1));
        store.putNewVersion(
            memory("v2", A, "money for the spring campaign").toBuilder()
                .version(2)
                .supersedes(v1.id())
                .build(),
            vector(2));
        ceilings[i] = store.searchText(A, QUERY, 10).ceiling();
      }
    }
    assertEquals(ceilings[1], ceilings[0], 0.0, "a superseded version moved the ceiling");
  }

  @Test
  void aTermTheScopeLacks_lowersTheShareOfEveryHit() {
    try (LuceneMemoryStore store = inMemory()) {
      store.put(memory("cents", A, "we keep money as long cents"), vector(1));
      store.put(memory("order", A, "every order ships on monday"), vector(2));

      TextHits money = store.searchText(A, "money", 10);
      TextHits both = store.searchText(A, QUERY, 10);
      assertEquals(money.hits(), both.hits(), "the lacking term finds nothing more");
      double shareAlone = money.hits().get(0).score() / money.ceiling();
      double shareWithLacking = both.hits().get(0).score() / both.ceiling();
      assertTrue(
          shareWithLacking < shareAlone * 0.75,
          "half of the query is missing from the scope: " + shareWithLacking + " vs " + shareAlone);
    }
  }

  @Test
  void aWordSpelledAlikeByBothChains_countsItsExactWeightOnlyWhereTheScopeHoldsIt() {
    try (LuceneMemoryStore store = inMemory()) {
      store.put(memory("kafka", A, "kafka runs here"), vector(1));
      store.put(memory("other", A, "nothing else"), vector(2));
      double rare = Math.log(2); // BM25's idf of a term in 1 of 2 memories, as Lucene rounds it
      // held: the content term at 1 plus its exact form's 0.5, in one clause
      assertEquals(1.5 * rare, store.searchText(A, "kafka", 10).ceiling(), 1e-6);
      // lacking: as rare as a match could have been, at the content clause's own weight
      assertEquals(2.5 * rare, store.searchText(A, "kafka zebra", 10).ceiling(), 1e-6);
    }
  }

  @Test
  void ceiling_boundsEveryHit_whenTheScopeHoldsEveryTerm() {
    try (LuceneMemoryStore store = inMemory()) {
      store.put(memory("both", A, "money money discount discount discount"), vector(1));
      store.put(memory("cents", A, "we keep money as long cents"), vector(2));
      TextHits found = store.searchText(A, QUERY, 10);
      assertEquals(2, found.hits().size());
      assertTrue(
          found.hits().stream().allMatch(h -> h.score() <= found.ceiling()), found::toString);
    }
  }
}
