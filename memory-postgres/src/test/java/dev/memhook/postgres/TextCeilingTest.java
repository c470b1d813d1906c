package dev.memhook.postgres;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.B;
import static dev.memhook.testkit.StoreFixtures.SPACE;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The text ceiling of {@link TextTerms} when text search runs in PostgreSQL ({@link
 * TextSearch#DATABASE}): a true bound, and one no scope's writes move.
 */
class TextCeilingTest {
  private PostgresMemoryStore store;

  @BeforeEach
  void open() {
    store =
        PostgresMemoryStore.builder()
            .dataSource(TestDatabase.dataSource())
            .schema(TestDatabase.newSchema())
            .textSearch(TextSearch.DATABASE)
            .build();
    store.attach(SPACE);
  }

  @AfterEach
  void close() throws Exception {
    if (store != null) {
      store.close();
    }
    TestDatabase.dropSchemas();
  }

  @Test
  void aTermRepeatedInEveryPartAtTheHighestWeight_staysUnderTheCeiling() {
    String many = "redis ".repeat(150);
    store.put(
        memory("m1", A, many + many).toBuilder()
            .title("redis redis redis")
            .summary(many)
            .context(many)
            .build(),
        vector(1));
    TextHits hits = store.searchText(A, "redis", 10);
    StoreHit best = hits.hits().get(0);
    assertTrue(best.score() <= hits.ceiling(), best + " over " + hits.ceiling());
    assertTrue(
        best.score() / hits.ceiling() > 0.9, "near the bound: " + best + " of " + hits.ceiling());
  }

  @Test
  void aQueryTermNoMemoryHolds_leavesTheScores_butCountsAgainstTheMatch() {
    store.put(memory("m1", A, "redis sentinel failover"), vector(1));
    TextHits plain = store.searchText(A, "redis failover", 10);
    TextHits withAbsent = store.searchText(A, "redis quokka failover", 10);
    assertEquals(plain.hits().get(0).score(), withAbsent.hits().get(0).score(), 1e-6);
    assertEquals(1.5 * plain.ceiling(), withAbsent.ceiling(), 1e-12);
  }

  @Test
  void ceiling_dependsOnTheQueryAlone_notOnWhatAnyScopeHolds() {
    store.put(memory("a1", A, "redis sentinel"), vector(1));
    double before = store.searchText(A, "redis kafka", 10).ceiling();
    store.put(memory("b1", B, "kafka kafka topics"), vector(2));
    store.put(memory("a2", A, "kafka").withLatest(false), vector(3));
    store.put(memory("a3", A, "kafka consumers"), vector(4));
    assertEquals(before, store.searchText(A, "redis kafka", 10).ceiling());
  }
}
