package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.T0;
import static dev.memhook.lucene.LuceneStoreFixtures.randomMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomVector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.MemoryId;
import dev.memhook.testkit.Seeds;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The purge's journal in the commit, and purging on request. */
class LuceneMemoryStorePurgeTest {
  @TempDir Path dir;

  /**
   * A process killed after a forget's commit and before it destroyed the memory's key left the key
   * on disk; the commit names it, and opening the store destroys it and schedules the purge.
   */
  @Test
  void aForgetCommittedButCutShortBeforeItsKeyWasDestroyed_isFinishedByTheNextOpen()
      throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    String token = IndexFiles.uniqueToken(random);
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).build()) {
      LuceneMemoryStoreForgetErasesTest.storeWithSecret(store, random, token, index, seed);
    }
    // what the forget's commit holds: the delete and the audit, and what is left to do
    try (Directory d = FSDirectory.open(index);
        IndexWriter w =
            new IndexWriter(
                d, new IndexWriterConfig().setOpenMode(IndexWriterConfig.OpenMode.APPEND))) {
      w.deleteDocuments(IndexSchema.idTerm(MemoryId.of("secret")));
      Map<String, String> data = new HashMap<>();
      w.getLiveCommitData().forEach(e -> data.put(e.getKey(), e.getValue()));
      data.put(Purges.KEYS_TO_DESTROY, "secret");
      data.put(Purges.PURGE_BY, Long.toString(System.currentTimeMillis() + 600_000));
      w.setLiveCommitData(data.entrySet());
      w.commit();
    }
    try (RecordKeys keys = RecordKeys.open(index, true)) {
      assertTrue(keys.existing(MemoryId.of("secret")).isPresent(), "the crash left the key");
    }

    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).build()) {
      LuceneMemoryStoreForgetErasesTest.assertNoReadableRecord(index, token, seed);
      assertTrue(store.get(MemoryId.of("secret")).isEmpty());
      assertEquals(40, store.count(A));
      assertEquals(0, store.unreadableRecords(), "the other records read as before");
      assertFalse(
          IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)).isEmpty(),
          "the purge is still to come");

      store.purge();

      assertEquals(List.of(), IndexFiles.filesContaining(index, token));
      assertEquals(
          new TreeSet<String>(), IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)));
    }
  }

  @Test
  void aPurgeDueAtClose_runsAfterReopening_byItsDeadline_orSoonerWithAShorterDelay()
      throws Exception {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    String token = IndexFiles.uniqueToken(random);
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).purgeDelay(Duration.ofHours(1)).build()) {
      LuceneMemoryStoreForgetErasesTest.storeWithSecret(store, random, token, index, seed);
      assertTrue(LuceneMemoryStoreForgetErasesTest.forget(store));
    }
    assertFalse(
        IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)).isEmpty(),
        "close does not purge");
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder()
            .directory(index)
            .purgeDelay(Duration.ofMillis(100))
            .idleMerge(Duration.ZERO)
            .build()) {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)).isEmpty()
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertEquals(
          new TreeSet<String>(),
          IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)),
          "purged by the shorter delay; " + Seeds.replay(seed));
      assertEquals(40, store.count(A));
    }
  }

  @Test
  void forgetsDuringAndAfterAPurge_areAllPurged_andTheOtherMemoriesStay() throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).build()) {
      store.attach(SPACE);
      String[] tokens = new String[6];
      for (int i = 0; i < tokens.length; i++) {
        tokens[i] = IndexFiles.uniqueToken(random);
        store.put(
            LuceneMemoryStoreForgetErasesTest.secret("s" + i, tokens[i]), randomVector(random));
        for (int j = 0; j < 5; j++) {
          store.put(randomMemory(random, "m" + i + "-" + j, A), randomVector(random));
        }
      }
      for (int i = 0; i < tokens.length; i++) {
        MemoryId id = MemoryId.of("s" + i);
        assertTrue(store.delete(id, new ForgetRecord(id, A, "alice", "", T0)));
        if (i % 2 == 1) {
          store.purge();
        }
      }
      for (String token : tokens) {
        assertEquals(List.of(), IndexFiles.filesContaining(index, token), Seeds.replay(seed));
      }
      assertEquals(30, store.count(A));
      assertEquals(6, store.forgotten(A).size());
    }
  }

  @Test
  void purge_onAReadOnlyStore_isRefused() throws IOException {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).build()) {
      store.attach(SPACE);
    }
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).readOnly().build()) {
      assertThrows(IllegalStateException.class, store::purge);
    }
  }

  @Test
  void purgeDelay_outsideItsRange_isRejected_andSetsNothing() {
    LuceneMemoryStore.Builder b = LuceneMemoryStore.builder();
    assertThrows(IllegalArgumentException.class, () -> b.purgeDelay(Duration.ofSeconds(-1)));
    assertThrows(IllegalArgumentException.class, () -> b.purgeDelay(Duration.ofDays(2)));
    assertThrows(NullPointerException.class, () -> b.purgeDelay(null));
    b.purgeDelay(Duration.ZERO);
    assertThrows(IllegalStateException.class, () -> b.purgeDelay(Duration.ZERO), "set once");
  }
}
