package dev.memhook.core.lucene;

import static dev.memhook.core.lucene.LuceneStoreFixtures.A;
import static dev.memhook.core.lucene.LuceneStoreFixtures.ids;
import static dev.memhook.core.lucene.LuceneStoreFixtures.inMemory;
import static dev.memhook.core.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.core.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Versions: a memory that is not latest is kept and read but never searched. */
class LuceneMemoryStoreVersionsTest {
  @Test
  void latestFalse_isNeverSearched_butIsReturnedByGet() {
    try (LuceneMemoryStore store = inMemory()) {
      Memory old = memory("old", A, "the flux capacitor needs 1.21 gigawatts").toBuilder()
          .concepts(List.of("flux")).files(List.of("src/Flux.java")).latest(false).build();
      store.put(old, vector(3));
      assertTrue(store.searchText(A, "flux capacitor gigawatts", 10).isEmpty());
      assertTrue(store.searchVector(A, vector(3), 10).isEmpty());
      assertTrue(store.searchRelated(A, Set.of("flux"), Set.of("src/Flux.java"), 10).isEmpty());
      assertEquals(0, store.count(A));
      assertEquals(old, store.get(old.id()).orElseThrow());
      store.put(old.withLatest(true), vector(3));
      assertEquals(List.of("old"), ids(store.searchText(A, "flux capacitor", 10)), "an upsert flips it back");
    }
  }
}
