package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.ids;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntPredicate;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A quiet store merges its segments down to as few as its size limit allows ({@link IdleMerges},
 * deciding with {@link IdleMergePlan}), commits the result, keeps every memory, and closes without
 * waiting for the merge.
 */
class LuceneMemoryStoreIdleMergeTest {
  private static final Duration QUIET = Duration.ofMillis(200);
  private static final long MB = 1024 * 1024;

  @TempDir Path dir;

  @Test
  void aQuietStore_mergesDownToOneSegment_commitsIt_andKeepsEveryMemory() throws Exception {
    Path index = dir.resolve("index");
    int n;
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).idleMerge(QUIET).build()) {
      store.attach(SPACE);
      n = writeInBatches(store, 40, 10, 200);
      int before = store.segmentCount();
      assertTrue(before > 1, "precondition: several segments, got " + before);

      awaitSegments(store, c -> c == 1);

      for (int i = 0; i < n; i++) {
        assertEquals("m" + i, store.get(MemoryId.of("m" + i)).orElseThrow().id().value());
      }
      assertEquals(List.of("m7"), ids(store.searchText(A, "idlemark7", 1)));
      assertEquals(n, store.count(A));
    }
    try (Directory d = FSDirectory.open(index)) {
      SegmentInfos committed = SegmentInfos.readLatestCommit(d);
      assertEquals(1, committed.size(), "the merged index is what was committed");
      assertEquals(n, committed.totalMaxDoc());
    }
  }

  @Test
  void idleMerges_leaveFewerSegmentsThanNaturalMerges_noneBeyondTheLimit() throws Exception {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder()
            .directory(index)
            .maxSegmentMB(1)
            .idleMerge(QUIET)
            .groupCommit(Duration.ofMillis(50))
            .build()) {
      store.attach(SPACE);
      // About 2,000 characters of random letters per memory, 600 memories: several MB.
      int n = writeInBatches(store, 600, 50, 2_000);
      awaitSettled(store);
      assertEquals(n, store.count(A));
    }
    List<Long> sizes = committedSegmentBytes(index);
    Path twin = dir.resolve("twin"); // the same writes without idle merges
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder()
            .directory(twin)
            .maxSegmentMB(1)
            .idleMerge(Duration.ZERO)
            .groupCommit(Duration.ofMillis(50))
            .build()) {
      store.attach(SPACE);
      writeInBatches(store, 600, 50, 2_000);
      awaitSettled(store);
    }
    int natural = committedSegmentBytes(twin).size();
    assertTrue(
        sizes.size() < natural,
        "idle merges left " + sizes.size() + " segments, natural merges " + natural + ": " + sizes);
    long total = sizes.stream().mapToLong(Long::longValue).sum();
    assertTrue(total > 2 * MB, "precondition: an index larger than the limit, " + total + " bytes");
    for (long size : sizes) {
      // IdleMergePlan packs groups of at most the limit by the parts' sizes; a merged segment can
      // come out a little larger than its parts, so allow a fifth more.
      assertTrue(size <= 1.2 * MB, "a segment of " + size + " bytes under a 1 MB limit: " + sizes);
    }
  }

  @Test
  void aQuietStoreInOneSegment_rewritesItWhenATenthIsDeleted_andCommitsIt() throws Exception {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).mirror().idleMerge(QUIET).build()) {
      store.attach(SPACE);
      writeInBatches(store, 40, 10, 200);
      awaitSegments(store, c -> c == 1);
      awaitCommitted(index, 40, 0);

      // A mirror's deletes only mark documents deleted: 15 % of the one segment, past the plan's
      // tenth and under the fifth from which Lucene's natural merges reclaim deletes themselves.
      // One write, so that no quiet period falls between the deletes.
      List<ForgetRecord> audits = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        audits.add(new ForgetRecord(MemoryId.of("m" + i), A, "test", "idle", Instant.EPOCH));
      }
      assertEquals(6, store.deleteAll(audits));

      awaitCommitted(index, 34, 0);
      assertEquals(1, store.segmentCount());
      assertEquals(34, store.count(A));
      assertEquals(List.of("m39"), ids(store.searchText(A, "idlemark39", 1)));
    }
  }

  @Test
  void aQuietStoreUnderTheDefaultLimit_endsInOneSegment_evenWhenManySmallCommitsMadeIt() {
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder()
            .inMemory()
            .maxSegmentMB(LuceneMemoryStore.Builder.DEFAULT_MAX_SEGMENT_MB)
            .idleMerge(QUIET)
            .build()) {
      store.attach(SPACE);
      // Batches of one: every write a segment of its own, far more than a tier holds.
      int n = writeInBatches(store, 60, 1, 100);
      awaitSegments(store, c -> c == 1);
      assertEquals(n, store.count(A));
    }
  }

  @Test
  void closingDuringAnIdleMerge_doesNotWaitForIt_andTheReopenedStoreHasEveryMemory() {
    Path index = dir.resolve("index");
    int n;
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder()
            .directory(index)
            .idleMerge(Duration.ofMillis(20))
            .groupCommit(Duration.ofMillis(10))
            .build()) {
      store.attach(SPACE);
      n = writeInBatches(store, 1_500, 100, 2_000);
      sleep(60); // past the quiet time: the merge has started or is about to
    }
    try (LuceneMemoryStore reopened = LuceneMemoryStore.builder().directory(index).build()) {
      assertEquals(n, reopened.count(A));
      assertEquals(List.of("m1499"), ids(reopened.searchText(A, "idlemark1499", 1)));
    }
  }

  @Test
  void idleMergeZero_leavesTheSegmentsAsNaturalMergesLeftThem() {
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().inMemory().idleMerge(Duration.ZERO).build()) {
      store.attach(SPACE);
      writeInBatches(store, 40, 10, 200);
      awaitSettled(store); // natural merges done
      int settled = store.segmentCount();
      assertTrue(settled > 1, "precondition: several segments, got " + settled);
      sleep(10 * QUIET.toMillis());
      assertEquals(settled, store.segmentCount());
    }
  }

  @Test
  void idleMerge_rejectsNegativeTooLongNullAndTwice() {
    assertThrows(
        IllegalArgumentException.class,
        () -> LuceneMemoryStore.builder().idleMerge(Duration.ofMillis(-1)));
    assertThrows(
        IllegalArgumentException.class,
        () -> LuceneMemoryStore.builder().idleMerge(Duration.ofDays(2)));
    assertThrows(NullPointerException.class, () -> LuceneMemoryStore.builder().idleMerge(null));
    assertThrows(
        IllegalStateException.class,
        () -> LuceneMemoryStore.builder().idleMerge(QUIET).idleMerge(QUIET));
  }

  /**
   * Writes {@code n} memories in batches of {@code batch}, reading after each so that each batch
   * flushes a segment of its own; returns {@code n}.
   */
  private static int writeInBatches(LuceneMemoryStore store, int n, int batch, int chars) {
    Random random = new Random(42); // content only: any letters do
    for (int start = 0; start < n; start += batch) {
      Map<Memory, Embedding> part = new LinkedHashMap<>();
      for (int i = start; i < Math.min(n, start + batch); i++) {
        part.put(memory("m" + i, A, "idlemark" + i + " " + letters(random, chars)), vector(i));
      }
      store.putAll(part);
      store.count(A); // a read: the batch becomes a segment
    }
    return n;
  }

  private static String letters(Random random, int chars) {
    StringBuilder sb = new StringBuilder(chars);
    while (sb.length() < chars) {
      for (int i = 0; i < 7; i++) {
        sb.append((char) ('a' + random.nextInt(26)));
      }
      sb.append(' ');
    }
    return sb.toString();
  }

  /** Waits (up to a minute: merges run on a shared machine) until the segment count passes. */
  private static void awaitSegments(LuceneMemoryStore store, IntPredicate done) {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    int count;
    while (!done.test(count = store.segmentCount())) {
      if (System.nanoTime() > deadline) {
        fail("the quiet store still has " + count + " segments after a minute");
      }
      sleep(50);
    }
  }

  /** Waits until the segment count stays the same for ten quiet periods. */
  private static void awaitSettled(LuceneMemoryStore store) {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    int last = store.segmentCount();
    long stableSince = System.nanoTime();
    while (System.nanoTime() - stableSince < 10 * QUIET.toNanos()) {
      if (System.nanoTime() > deadline) {
        fail("the segment count did not settle within a minute");
      }
      sleep(50);
      int now = store.segmentCount();
      if (now != last) {
        last = now;
        stableSince = System.nanoTime();
      }
    }
  }

  /**
   * Waits (up to a minute) until the latest commit of {@code index} is one segment of {@code
   * maxDoc} documents with {@code deleted} of them deleted.
   */
  private static void awaitCommitted(Path index, int maxDoc, int deleted) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    try (Directory d = FSDirectory.open(index)) {
      while (true) {
        SegmentInfos committed = SegmentInfos.readLatestCommit(d);
        if (committed.size() == 1
            && committed.info(0).info.maxDoc() == maxDoc
            && committed.info(0).getDelCount() == deleted) {
          return;
        }
        if (System.nanoTime() > deadline) {
          fail(
              "after a minute the commit holds "
                  + committed.size()
                  + " segments, the first "
                  + committed.info(0).info.maxDoc()
                  + " documents, "
                  + committed.info(0).getDelCount()
                  + " deleted");
        }
        sleep(50);
      }
    }
  }

  private static List<Long> committedSegmentBytes(Path index) throws Exception {
    try (Directory d = FSDirectory.open(index)) {
      List<Long> sizes = new ArrayList<>();
      for (SegmentCommitInfo info : SegmentInfos.readLatestCommit(d)) {
        sizes.add(info.sizeInBytes());
      }
      return sizes;
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
