package dev.memhook.postgres;

import static dev.memhook.testkit.StoreFixtures.A;
import static dev.memhook.testkit.StoreFixtures.SPACE;
import static dev.memhook.testkit.StoreFixtures.T0;
import static dev.memhook.testkit.StoreFixtures.ids;
import static dev.memhook.testkit.StoreFixtures.memory;
import static dev.memhook.testkit.StoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.TextHits;
import dev.memhook.testkit.HostileStrings;
import dev.memhook.testkit.Seeds;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Text that could break SQL, the {@code tsvector} and {@code tsquery} syntax or PostgreSQL's text
 * type is stored and read back exactly, or refused before anything is written; and the code-aware
 * splitting finds identifiers and paths by their parts.
 */
class HostileInputTest {
  private PostgresMemoryStore store;

  @BeforeEach
  void open() {
    store = TestDatabase.newStore();
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
  void hostileText_roundTrips_andQuerySyntaxInTheQueryIsJustText() {
    long seed = Seeds.seed();
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 20; i++) {
      String hostile = wellFormed(HostileStrings.of(random, 2_000));
      Memory m =
          memory("h" + i, A, "kafka " + hostile).toBuilder()
              .title(wellFormed(HostileStrings.of(random, 100)))
              .summary(wellFormed(("kafka " + hostile).substring(0, 80)))
              .concepts(List.of("x\u0000y", "it's"))
              .files(List.of("src/it's/a\\b.java"))
              .build();
      store.put(m, vector(i));
      assertEquals(m, store.get(m.id()).orElseThrow(), Seeds.replay(seed));
    }
    assertEquals(20, ids(store.searchText(A, "kafka", 50)).size());
    assertEquals(20, store.searchRelated(A, Set.of("X\u0000Y"), Set.of(), 50).size());
    assertEquals(20, store.searchRelated(A, Set.of(), Set.of("src/it's/a\\b.java"), 50).size());
    for (String query :
        List.of(
            "kafka & !redis",
            "'kafka' | x:*",
            "kafka <-> ( ",
            "'); DROP TABLE memhook_memory; --",
            "\\' \\\\ ''",
            "\u0000kafka")) {
      TextHits hits = store.searchText(A, query, 50);
      assertTrue(hits.hits().size() <= 20, query);
    }
    assertEquals(20, store.count(A), "the table is still there");
  }

  @Test
  void aTenMegabyteQuery_searchesItsFirstTerms_andATenMegabyteMemoryIsRefusedByTheApi() {
    store.put(memory("m1", A, "redis cluster failover"), vector(1));
    String huge = "redis " + "x".repeat(10 * 1024 * 1024);
    assertEquals(List.of("m1"), ids(store.searchText(A, huge, 10)));
    assertThrows(IllegalArgumentException.class, () -> memory("m2", A, huge));
  }

  @Test
  void anUnpairedSurrogate_isRefused_andNothingIsWritten() {
    Memory bad = memory("m1", A, "broken \ud800 text");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> store.put(bad, vector(1)));
    assertTrue(e.getMessage().contains("U+FFFD"), e.getMessage());
    assertTrue(store.get(MemoryId.of("m1")).isEmpty());
    store.put(memory("m2", A, "fine"), vector(2));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            store.delete(
                MemoryId.of("m2"),
                new ForgetRecord(MemoryId.of("m2"), A, "alice", "bad \udc00", T0)));
    assertEquals(1, store.count(A), "the refused forget deleted nothing");
  }

  @Test
  void scopesWithEveryAllowedCharacter_stayApart() {
    Scope odd = Scope.of("a.b_c@d+e-f", "G.9");
    Scope prefix = Scope.of("a.b_c@d+e-f");
    store.put(memory("m1", odd, "shared words"), vector(1));
    store.put(memory("m2", prefix, "shared words"), vector(1));
    assertEquals(List.of("m1"), ids(store.searchText(odd, "shared", 10)));
    assertEquals(List.of("m2"), ids(store.searchVector(prefix, vector(1), 10)));
  }

  @Test
  void identifiersAndPaths_areFoundByTheirParts() {
    store.put(memory("m1", A, "AuthMiddleware rejects expired tokens"), vector(1));
    store.put(memory("m2", A, "see src/main/java/dev/PaymentGateway.java"), vector(2));
    store.put(memory("m3", A, "snake_case_name in the config"), vector(3));
    assertEquals(List.of("m1"), ids(store.searchText(A, "auth middleware", 10)));
    assertEquals(List.of("m2"), ids(store.searchText(A, "payment gateway", 10)));
    assertEquals(List.of("m2"), ids(store.searchText(A, "PaymentGateway.java", 10)));
    assertEquals(List.of("m3"), ids(store.searchText(A, "case name", 10)));
  }

  /** {@code text} with unpaired surrogates replaced, as {@code MemoryService} does. */
  private static String wellFormed(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        out.append(c).append(text.charAt(++i));
      } else {
        out.append(Character.isSurrogate(c) ? '\ufffd' : c);
      }
    }
    return out.toString();
  }
}
