package dev.memhook.core.internal.journal;

import static dev.memhook.core.internal.journal.JournalFiles.replayed;
import static dev.memhook.core.internal.journal.JournalFiles.seqs;
import static dev.memhook.core.internal.journal.JournalFiles.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Appends and syncs from many threads at once. */
class JournalConcurrencyTest {

  private static final int THREADS = 8;
  private static final int APPENDS_PER_THREAD = 2_000;

  @TempDir Path dir;

  @Test
  void appendsFromEightThreads_getDistinctContiguousSequences_andAllReplayIntact()
      throws Exception {
    Map<Long, byte[]> written = new ConcurrentHashMap<>();
    try (Journal journal = Journal.open(dir, 64 << 10)) {
      runTogether(
          thread -> {
            for (int i = 0; i < APPENDS_PER_THREAD; i++) {
              byte[] payload = utf8("thread " + thread + " record " + i + " ".repeat(i % 200));
              long seq = journal.append((byte) thread, payload);
              if (written.put(seq, payload) != null) {
                throw new AssertionError("sequence " + seq + " was handed out twice");
              }
            }
          });
      assertEquals(THREADS * APPENDS_PER_THREAD, journal.lastSequence());
    }
    long total = THREADS * APPENDS_PER_THREAD;
    assertEquals(
        LongStream.rangeClosed(1, total).boxed().toList(),
        written.keySet().stream().sorted().toList());
    try (Journal journal = Journal.open(dir, 64 << 10)) {
      List<Journal.Entry> entries = replayed(journal);
      assertEquals(LongStream.rangeClosed(1, total).boxed().toList(), seqs(entries));
      for (Journal.Entry entry : entries) {
        assertArrayEquals(written.get(entry.seq()), entry.payload(), "record " + entry.seq());
      }
    }
  }

  @Test
  void concurrentSyncs_afterOneAppend_shareOneForce() throws Exception {
    try (FileJournal journal = JournalOpener.open(dir, Journal.DEFAULT_SEGMENT_BYTES)) {
      journal.sync();
      assertEquals(0, journal.forceCount(), "nothing appended, nothing to force");
      journal.append((byte) 0, utf8("one"));
      runTogether(thread -> journal.sync());
      assertEquals(1, journal.forceCount(), THREADS + " sync() calls");
      assertEquals(1, journal.syncedThrough());
      journal.sync();
      assertEquals(1, journal.forceCount(), "no append since the last force");
    }
  }

  @Test
  void appendAndSyncFromEightThreads_everySyncCoversItsCallersAppend() throws Exception {
    int rounds = 200;
    try (FileJournal journal = JournalOpener.open(dir, Journal.DEFAULT_SEGMENT_BYTES)) {
      runTogether(
          thread -> {
            for (int i = 0; i < rounds; i++) {
              long seq = journal.append((byte) 0, utf8("t" + thread + "-" + i));
              journal.sync();
              if (journal.syncedThrough() < seq) {
                throw new AssertionError("sync() returned before " + seq + " was forced");
              }
            }
          });
      assertEquals(THREADS * rounds, journal.syncedThrough());
      System.out.println(
          "group commit: "
              + journal.forceCount()
              + " forces for "
              + THREADS * rounds
              + " sync() calls");
    }
  }

  @Test
  void theInMemoryJournal_handsOutContiguousSequences_fromEightThreads() throws Exception {
    try (Journal journal = Journal.inMemory()) {
      runTogether(
          thread -> {
            for (int i = 0; i < APPENDS_PER_THREAD; i++) {
              journal.append((byte) thread, utf8(thread + ":" + i));
            }
          });
      List<Journal.Entry> entries = replayed(journal);
      assertEquals(
          LongStream.rangeClosed(1, THREADS * APPENDS_PER_THREAD).boxed().toList(), seqs(entries));
    }
  }

  private interface Work {
    void run(int thread) throws Exception;
  }

  /** Runs {@code work} on {@link #THREADS} threads released at once; rethrows the first failure. */
  private static void runTogether(Work work) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  work.run(thread);
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
