package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.T0;
import static dev.memhook.lucene.LuceneStoreFixtures.inMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.MemoryId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The builder, the store's preconditions and its lifecycle: what every method does before and after
 * {@link LuceneMemoryStore#close()}.
 */
class LuceneMemoryStoreTest {
  @TempDir Path dir;

  @Test
  void put_beforeAttach_isAnIllegalState() {
    try (LuceneMemoryStore store = LuceneMemoryStore.inMemory()) {
      assertThrows(IllegalStateException.class, () -> store.put(memory("m1", A, "x"), vector(1)));
    }
  }

  @Test
  void builder_eachSettingOnce_aRejectedValueSetsNothing() {
    LuceneMemoryStore.Builder b = LuceneMemoryStore.builder().efSearch(50);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> b.efSearch(60));
    assertTrue(e.getMessage().startsWith("efSearch was already set"), e.getMessage());
    b.fieldBoost(SearchField.TITLE, 3f).fieldBoost(SearchField.DATE, 0f);
    assertThrows(IllegalStateException.class, () -> b.fieldBoost(SearchField.TITLE, 1f));
    assertThrows(IllegalArgumentException.class, () -> b.cacheSize(-1));
    b.cacheSize(5).inMemory();
    assertThrows(IllegalStateException.class, () -> b.directory(dir));
    b.build().close();
  }

  @Test
  void builder_rejectsInvalidSettings() {
    assertThrows(IllegalStateException.class, () -> LuceneMemoryStore.builder().build());
    assertThrows(
        IllegalStateException.class,
        () -> LuceneMemoryStore.builder().inMemory().directory(dir).build());
    assertThrows(IllegalArgumentException.class, () -> LuceneMemoryStore.builder().hnswMaxConn(1));
    assertThrows(IllegalArgumentException.class, () -> LuceneMemoryStore.builder().efSearch(0));
    assertThrows(IllegalArgumentException.class, () -> LuceneMemoryStore.builder().workers(0));
    assertThrows(IllegalArgumentException.class, () -> LuceneMemoryStore.builder().workers(65));
    assertThrows(IllegalArgumentException.class, () -> LuceneMemoryStore.builder().cacheSize(-1));
    assertThrows(
        IllegalArgumentException.class,
        () -> LuceneMemoryStore.builder().groupCommit(Duration.ZERO));
    assertThrows(
        IllegalArgumentException.class,
        () -> LuceneMemoryStore.builder().fieldBoost(SearchField.TITLE, Float.NaN));
    assertThrows(
        IllegalArgumentException.class,
        () -> LuceneMemoryStore.builder().fieldBoost(SearchField.TITLE, 0.1f));
    assertThrows(
        IllegalArgumentException.class,
        () -> LuceneMemoryStore.builder().fieldBoost(SearchField.TITLE, 65f));
    assertThrows(NullPointerException.class, () -> LuceneMemoryStore.builder().directory(null));
  }

  @Test
  void hugeK_isFine() {
    try (LuceneMemoryStore store = inMemory()) {
      store.put(memory("m1", A, "kafka").toBuilder().concepts(List.of("c")).build(), vector(1));
      assertEquals(1, store.searchText(A, "kafka", Integer.MAX_VALUE).hits().size());
      assertEquals(1, store.searchVector(A, vector(1), Integer.MAX_VALUE).size());
      assertEquals(1, store.searchRelated(A, Set.of("c"), Set.of(), Integer.MAX_VALUE).size());
    }
  }

  @Test
  void k_mustBePositive() {
    try (LuceneMemoryStore store = inMemory()) {
      assertThrows(IllegalArgumentException.class, () -> store.searchText(A, "x", 0));
      assertThrows(IllegalArgumentException.class, () -> store.searchVector(A, vector(1), 0));
      assertThrows(
          IllegalArgumentException.class, () -> store.searchRelated(A, Set.of("x"), Set.of(), -1));
    }
  }

  @Test
  void afterClose_everyMethodThrowsIllegalState() {
    LuceneMemoryStore store = inMemory();
    store.close();
    store.close();
    assertThrows(IllegalStateException.class, () -> store.attach(SPACE));
    assertThrows(IllegalStateException.class, () -> store.count(A));
    assertThrows(IllegalStateException.class, () -> store.forgotten(A));
    assertThrows(
        IllegalStateException.class, () -> store.searchRelated(A, Set.of("x"), Set.of(), 1));
    assertThrows(IllegalStateException.class, () -> store.searchVector(A, vector(1), 1));
    assertThrows(IllegalStateException.class, () -> store.getAll(List.of(MemoryId.of("x"))));
    assertThrows(
        IllegalStateException.class,
        () -> store.delete(MemoryId.of("x"), new ForgetRecord(MemoryId.of("x"), A, "a", "r", T0)));
  }
}
