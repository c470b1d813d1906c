package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.B;
import static dev.memhook.lucene.LuceneStoreFixtures.CONCEPTS;
import static dev.memhook.lucene.LuceneStoreFixtures.FILES;
import static dev.memhook.lucene.LuceneStoreFixtures.T0;
import static dev.memhook.lucene.LuceneStoreFixtures.WORDS;
import static dev.memhook.lucene.LuceneStoreFixtures.inMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.open;
import static dev.memhook.lucene.LuceneStoreFixtures.randomMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomVector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import dev.memhook.testkit.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Forgetting: a deleted memory never comes back, and its audit record is kept. */
class LuceneMemoryStoreForgetTest {
  @TempDir Path dir;

  @Test
  void forgottenIds_neverComeBack_fromAnySearchOrGet_evenAfterReopen() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    Path index = dir.resolve("index");
    Map<String, Embedding> vectors = new HashMap<>();
    Set<MemoryId> forgotten = new HashSet<>();
    List<ForgetRecord> audits = new ArrayList<>();
    try (LuceneMemoryStore store = open(index)) {
      for (int i = 0; i < 40; i++) {
        Embedding v = randomVector(random);
        vectors.put("m" + i, v);
        store.put(randomMemory(random, "m" + i, A), v);
      }
      for (int i = 0; i < 40; i++) {
        if (random.nextInt(3) == 0) {
          MemoryId id = MemoryId.of("m" + i);
          // Times out of id order, so "oldest first" is checked for real.
          ForgetRecord audit =
              new ForgetRecord(id, A, "alice", "test", T0.plusSeconds(random.nextInt(10_000)));
          assertTrue(store.delete(id, audit));
          forgotten.add(id);
          audits.add(audit);
        }
      }
      assertForgotten(store, random, seed, vectors, forgotten);
    }
    try (LuceneMemoryStore store = open(index)) {
      assertForgotten(store, random, seed, vectors, forgotten);
      List<ForgetRecord> expected = new ArrayList<>(audits);
      expected.sort(Comparator.comparing(ForgetRecord::at).thenComparing(r -> r.id().value()));
      assertEquals(expected, store.forgotten(A), "oldest first; seed " + seed);
      assertTrue(store.forgotten(B).isEmpty());
      assertEquals(40 - forgotten.size(), store.count(A));
    }
  }

  private static void assertForgotten(
      LuceneMemoryStore store,
      Random random,
      long seed,
      Map<String, Embedding> vectors,
      Set<MemoryId> forgotten) {
    for (MemoryId id : forgotten) {
      assertTrue(store.get(id).isEmpty(), id + "; " + Seeds.replay(seed));
      assertTrue(
          store.searchVector(A, vectors.get(id.value()), 40).stream()
              .noneMatch(h -> h.id().equals(id)),
          id + "; " + Seeds.replay(seed));
    }
    assertTrue(store.getAll(forgotten).isEmpty(), Seeds.replay(seed));
    for (String word : WORDS) {
      assertTrue(
          store.searchText(A, word, 40).hits().stream().noneMatch(h -> forgotten.contains(h.id())),
          word + "; " + Seeds.replay(seed));
    }
    assertTrue(
        store.searchRelated(A, new HashSet<>(CONCEPTS), new HashSet<>(FILES), 40).stream()
            .noneMatch(h -> forgotten.contains(h.id())),
        Seeds.replay(seed));
  }

  @Test
  void delete_ofAnUnknownId_writesNoAudit() {
    try (LuceneMemoryStore store = inMemory()) {
      assertFalse(
          store.delete(
              MemoryId.of("nope"), new ForgetRecord(MemoryId.of("nope"), A, "alice", "x", T0)));
      assertTrue(store.forgotten(A).isEmpty());
      assertThrows(
          IllegalArgumentException.class,
          () ->
              store.delete(
                  MemoryId.of("a"), new ForgetRecord(MemoryId.of("b"), A, "alice", "x", T0)));
    }
  }
}
