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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forget erases, in two stages: once {@code delete} returns, no file of the index directory holds
 * the forgotten memory's record in a readable form (its key is destroyed; the record in the segment
 * files is ciphertext); once the purge is done (within the purge delay, or when {@code purge()}
 * returns), no file holds anything of it, neither its record nor its words in the term
 * dictionaries. With a zero purge delay both hold when {@code delete} returns.
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

  /** The texts of {@link #secret}'s record that no index term holds: only the record has them. */
  static List<String> recordOnlyTexts(String token) {
    return List.of(
        "the deploy key is " + token + " for prod",
        "summary " + token,
        "asked about " + token,
        "value " + token);
  }

  @Test
  void delete_leavesNoReadableRecord_andPurgeLeavesNothing_withCommitPerWrite() throws IOException {
    forgetPurgeAndScan(LuceneMemoryStore.builder().directory(dir.resolve("index")));
  }

  @Test
  void delete_leavesNoReadableRecord_andPurgeLeavesNothing_underGroupCommit() throws IOException {
    forgetPurgeAndScan(
        LuceneMemoryStore.builder()
            .directory(dir.resolve("index"))
            .groupCommit(Duration.ofMillis(5)));
  }

  @Test
  void withAZeroPurgeDelay_deleteLeavesNoFileHoldingTheMemorysText_whenItReturns()
      throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    String token = uniqueToken(random);
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).purgeDelay(Duration.ZERO).build()) {
      TreeSet<String> filesBefore = storeWithSecret(store, random, token, index, seed);

      assertTrue(forget(store));

      assertNothingLeft(index, token, filesBefore, seed);
      assertKept(store);
    }
    assertEquals(List.of(), IndexFiles.filesContaining(index, token), "after close");
  }

  @Test
  void thePurge_runsByItself_afterItsDelay() throws Exception {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    String token = uniqueToken(random);
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder()
            .directory(index)
            .purgeDelay(Duration.ofMillis(400))
            .idleMerge(Duration.ZERO)
            .build()) {
      TreeSet<String> filesBefore = storeWithSecret(store, random, token, index, seed);

      assertTrue(forget(store));

      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!IndexFiles.filesContaining(index, token).isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertNothingLeft(index, token, filesBefore, seed);
      assertKept(store);
    }
  }

  private void forgetPurgeAndScan(LuceneMemoryStore.Builder builder) throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    String token = uniqueToken(random);
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = builder.build()) {
      TreeSet<String> filesBefore = storeWithSecret(store, random, token, index, seed);

      assertTrue(forget(store));

      // at return: the record cannot be read, from the store or from its files
      assertTrue(store.get(MemoryId.of("secret")).isEmpty());
      assertNoReadableRecord(index, token, seed);
      // what the purge is for: the segment still holds the words of the text, as terms
      assertFalse(
          IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)).isEmpty(),
          "the terms wait for the purge (if this fails, the purge ran early); "
              + Seeds.replay(seed));
      assertKept(store);

      store.purge();

      assertNothingLeft(index, token, filesBefore, seed);
      assertKept(store);
    }
    assertEquals(List.of(), IndexFiles.filesContaining(index, token), "after close");
  }

  /**
   * Stores 20 memories, the secret and 20 more, merges them into one segment (committed, whatever
   * the commit policy) and checks that the files hold the secret's text.
   *
   * @return the segment files before the forget
   */
  static TreeSet<String> storeWithSecret(
      LuceneMemoryStore store, Random random, String token, Path index, long seed)
      throws IOException {
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
        IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)).isEmpty(),
        "the terms are found before the forget; " + Seeds.replay(seed));
    try (RecordKeys keys = RecordKeys.open(index, true)) {
      assertTrue(keys.existing(MemoryId.of("secret")).isPresent(), "its key is on disk");
    }
    return IndexFiles.segmentFiles(index);
  }

  static boolean forget(LuceneMemoryStore store) {
    return store.delete(
        MemoryId.of("secret"),
        new ForgetRecord(MemoryId.of("secret"), A, "alice", "held a key", T0));
  }

  /**
   * No file holds the secret's record readably: no file's bytes and no stored field of any
   * document, deleted ones included, hold a text only the record has, and its key is in no key
   * file.
   */
  static void assertNoReadableRecord(Path index, String token, long seed) throws IOException {
    for (String text : recordOnlyTexts(token)) {
      assertEquals(
          List.of(), IndexFiles.filesContaining(index, text), text + "; " + Seeds.replay(seed));
    }
    assertEquals(
        List.of(),
        IndexFiles.storedFieldsContaining(index, token),
        "stored fields holding the token; " + Seeds.replay(seed));
    try (RecordKeys keys = RecordKeys.open(index, true)) {
      assertTrue(keys.existing(MemoryId.of("secret")).isEmpty(), "its key is destroyed");
    }
  }

  /** No file holds the token, no term holds it, and the old segment's files are deleted. */
  static void assertNothingLeft(Path index, String token, TreeSet<String> filesBefore, long seed)
      throws IOException {
    assertEquals(
        List.of(),
        IndexFiles.filesContaining(index, token),
        "files holding the token; " + Seeds.replay(seed));
    assertEquals(
        new TreeSet<String>(),
        IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)),
        "terms holding the token; " + Seeds.replay(seed));
    assertNoReadableRecord(index, token, seed);
    TreeSet<String> stale = IndexFiles.segmentFiles(index);
    stale.retainAll(filesBefore);
    assertEquals(new TreeSet<String>(), stale, "the old segment's files are deleted");
  }

  private static void assertKept(LuceneMemoryStore store) {
    assertTrue(store.get(MemoryId.of("secret")).isEmpty());
    assertEquals(40, store.count(A), "the other memories are kept");
    assertEquals(1, store.forgotten(A).size(), "the audit record is kept");
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
