package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.T0;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomVector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.testkit.Seeds;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forget erases: once {@code delete} returns, no file of the index directory holds the forgotten
 * memory's text, neither in its stored record nor in the term dictionaries.
 */
class LuceneMemoryStoreForgetErasesTest {
  @TempDir Path dir;

  /** A memory carrying {@code token} in every text part a host can give it. */
  static Memory secret(String id, String token) {
    return memory(id, A, "the deploy key is " + token + " for prod").toBuilder()
        .title("key " + token)
        .summary("summary " + token)
        .context("asked about " + token)
        .concepts(List.of(token))
        .files(List.of("src/" + token + ".txt"))
        .attributes(Map.of("note", "value " + token))
        .build();
  }

  @Test
  void delete_leavesNoFileHoldingTheMemorysText_withCommitPerWrite() throws IOException {
    forgetAndScan(LuceneMemoryStore.builder().directory(dir.resolve("index")));
  }

  @Test
  void delete_leavesNoFileHoldingTheMemorysText_underGroupCommit() throws IOException {
    forgetAndScan(
        LuceneMemoryStore.builder()
            .directory(dir.resolve("index"))
            .groupCommit(Duration.ofMillis(5)));
  }

  private void forgetAndScan(LuceneMemoryStore.Builder builder) throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    String token = uniqueToken(random);
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = builder.build()) {
      store.attach(SPACE);
      for (int i = 0; i < 20; i++) {
        store.put(randomMemory(random, "before" + i, A), randomVector(random));
      }
      store.put(secret("secret", token), randomVector(random));
      for (int i = 0; i < 20; i++) {
        store.put(randomMemory(random, "after" + i, A), randomVector(random));
      }
      store.forceMerge(1); // commits everything: the record is in the files, whatever the policy
      assertTrue(store.get(MemoryId.of("secret")).isPresent()); // and in the record cache
      assertFalse(
          IndexFiles.filesContaining(index, token).isEmpty(),
          "the stored record is found before the forget; " + Seeds.replay(seed));
      assertFalse(
          IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)).isEmpty(),
          "the terms are found before the forget; " + Seeds.replay(seed));
      TreeSet<String> filesBefore = IndexFiles.segmentFiles(index);

      assertTrue(
          store.delete(
              MemoryId.of("secret"),
              new ForgetRecord(MemoryId.of("secret"), A, "alice", "held a key", T0)));

      assertEquals(List.of(), IndexFiles.filesContaining(index, token), "files holding the token");
      assertEquals(
          new TreeSet<String>(),
          IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)),
          "terms holding the token; " + Seeds.replay(seed));
      TreeSet<String> stale = IndexFiles.segmentFiles(index);
      stale.retainAll(filesBefore);
      assertEquals(new TreeSet<String>(), stale, "the old segment's files are deleted");
      assertTrue(store.get(MemoryId.of("secret")).isEmpty());
      assertEquals(40, store.count(A), "the other memories are kept");
      assertEquals(1, store.forgotten(A).size(), "the audit record is kept");
    }
    assertEquals(List.of(), IndexFiles.filesContaining(index, token), "after close");
  }

  /**
   * A mirror of memories kept elsewhere: the memory is gone from reads and searches at once, but
   * its segment is not rewritten, so its files still hold the text (which is why a store that is
   * not a mirror erases), and no forget record is kept (the store it mirrors keeps that).
   */
  @Test
  void delete_inAMirror_hidesTheMemoryAtOnce_leavesItsSegmentsFiles_andKeepsNoRecord()
      throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    String token = uniqueToken(random);
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).mirror().build()) {
      store.attach(SPACE);
      for (int i = 0; i < 5; i++) {
        store.put(randomMemory(random, "other" + i, A), randomVector(random));
      }
      store.put(secret("secret", token), randomVector(random));
      store.forceMerge(1);
      TreeSet<String> filesBefore = IndexFiles.segmentFiles(index);

      assertTrue(
          store.delete(
              MemoryId.of("secret"),
              new ForgetRecord(MemoryId.of("secret"), A, "replica", "removed", T0)));

      assertTrue(store.get(MemoryId.of("secret")).isEmpty());
      assertEquals(List.of(), store.searchText(A, token, 10).hits(), "no search finds it");
      assertEquals(5, store.count(A));
      assertEquals(List.of(), store.forgotten(A), "no forget record in a mirror");
      TreeSet<String> kept = IndexFiles.segmentFiles(index);
      kept.retainAll(filesBefore);
      assertFalse(kept.isEmpty(), "the segment was not rewritten; " + Seeds.replay(seed));
      assertFalse(
          IndexFiles.filesContaining(index, token).isEmpty(),
          "its files still hold the text; " + Seeds.replay(seed));
    }
  }

  static String uniqueToken(Random random) {
    return IndexFiles.uniqueToken(random);
  }
}
