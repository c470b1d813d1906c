package dev.memhook.core.internal.journal;

import static dev.memhook.core.internal.journal.JournalFiles.replayed;
import static dev.memhook.core.internal.journal.JournalFiles.segmentFiles;
import static dev.memhook.core.internal.journal.JournalFiles.seqs;
import static dev.memhook.core.internal.journal.JournalFiles.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryStoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file journal's life: append, reopen, replay, apply, rotate, lock and close. */
class JournalTest {

  /** 1,000-byte payloads make 1,018-byte frames: four fit a 4 KiB segment, a fifth does not. */
  private static final int PAYLOAD = 1_000;

  private static final long SMALL_SEGMENT = 4_096;

  @TempDir Path dir;

  @Test
  void appendedRecords_replayAfterReopen_inOrder_withTheirKindsAndPayloads() {
    try (Journal journal = Journal.open(dir)) {
      journal.append((byte) 1, utf8("first"));
      journal.append((byte) 2, new byte[0]);
      journal.append((byte) -3, utf8("third"));
    }
    try (Journal journal = Journal.open(dir)) {
      assertEquals(
          List.of(
              new Journal.Entry(1, (byte) 1, utf8("first")),
              new Journal.Entry(2, (byte) 2, new byte[0]),
              new Journal.Entry(3, (byte) -3, utf8("third"))),
          replayed(journal));
      assertEquals(0, journal.damagedRecords());
    }
  }

  @Test
  void sequenceNumbers_startAtOne_andContinueAfterReopen() {
    try (Journal journal = Journal.open(dir)) {
      assertEquals(0, journal.lastSequence());
      assertEquals(1, journal.append((byte) 0, utf8("a")));
      assertEquals(2, journal.append((byte) 0, utf8("b")));
    }
    try (Journal journal = Journal.open(dir)) {
      assertEquals(2, journal.lastSequence());
      assertEquals(3, journal.append((byte) 0, utf8("c")));
    }
    try (Journal journal = Journal.open(dir)) {
      assertEquals(List.of(1L, 2L, 3L), seqs(replayed(journal)));
    }
  }

  @Test
  void markApplied_thenReopen_replaysOnlyTheRest() {
    try (Journal journal = Journal.open(dir)) {
      for (int i = 1; i <= 5; i++) {
        journal.append((byte) 0, utf8("record " + i));
      }
      journal.markApplied(3);
      assertEquals(3, journal.appliedThrough());
      assertEquals(List.of(4L, 5L), seqs(replayed(journal)), "replay in the same session");
    }
    try (Journal journal = Journal.open(dir)) {
      assertEquals(3, journal.appliedThrough());
      List<Journal.Entry> rest = replayed(journal);
      assertEquals(List.of(4L, 5L), seqs(rest));
      assertArrayEquals(utf8("record 4"), rest.get(0).payload());
    }
  }

  @Test
  void markApplied_atOrBelowTheCheckpoint_isIgnored() {
    try (Journal journal = Journal.open(dir)) {
      LongStream.rangeClosed(1, 4).forEach(i -> journal.append((byte) 0, utf8("r" + i)));
      journal.markApplied(3);
      journal.markApplied(1);
      journal.markApplied(3);
      assertEquals(3, journal.appliedThrough());
    }
    try (Journal journal = Journal.open(dir)) {
      assertEquals(List.of(4L), seqs(replayed(journal)));
    }
  }

  @Test
  void markApplied_beyondTheLastSequenceOrNegative_isRejected() {
    try (Journal journal = Journal.open(dir)) {
      journal.append((byte) 0, utf8("only"));
      IllegalArgumentException beyond =
          assertThrows(IllegalArgumentException.class, () -> journal.markApplied(2));
      assertTrue(beyond.getMessage().contains("seq 2"), beyond.getMessage());
      assertThrows(IllegalArgumentException.class, () -> journal.markApplied(-1));
      assertEquals(0, journal.appliedThrough());
    }
  }

  @Test
  void segments_rotateAtTheSegmentSize_andAreDeletedOnceApplied() {
    try (Journal journal = Journal.open(dir, SMALL_SEGMENT)) {
      for (int i = 1; i <= 18; i++) {
        journal.append((byte) 0, payload(i));
      }
      assertEquals(5, journal.segmentCount(), "four records per segment");
      assertEquals(18 * Frame.size(PAYLOAD), journal.sizeBytes());
      assertEquals(
          List.of(1L, 5L, 9L, 13L, 17L),
          segmentFiles(dir).stream().map(JournalTest::firstSeq).toList());

      journal.markApplied(9);
      assertEquals(
          List.of(9L, 13L, 17L),
          segmentFiles(dir).stream().map(JournalTest::firstSeq).toList(),
          "segments 1-4 and 5-8 hold only applied records; 9-12 still holds 10 to 12");
      assertEquals(3, journal.segmentCount());
      assertEquals(10 * Frame.size(PAYLOAD), journal.sizeBytes());

      journal.markApplied(18);
      assertEquals(List.of(17L), segmentFiles(dir).stream().map(JournalTest::firstSeq).toList());
      assertEquals(1, journal.segmentCount(), "the current segment is kept");
    }
    try (Journal journal = Journal.open(dir, SMALL_SEGMENT)) {
      assertEquals(List.of(), replayed(journal));
      assertEquals(18, journal.lastSequence());
      assertEquals(19, journal.append((byte) 0, payload(19)));
    }
  }

  @Test
  void replay_readsAcrossSegments_fromTheCheckpoint() {
    try (Journal journal = Journal.open(dir, SMALL_SEGMENT)) {
      for (int i = 1; i <= 18; i++) {
        journal.append((byte) i, payload(i));
      }
      journal.markApplied(6);
    }
    try (Journal journal = Journal.open(dir, SMALL_SEGMENT)) {
      List<Journal.Entry> entries = replayed(journal);
      assertEquals(LongStream.rangeClosed(7, 18).boxed().toList(), seqs(entries));
      for (Journal.Entry entry : entries) {
        assertEquals((byte) entry.seq(), entry.kind());
        assertArrayEquals(payload((int) entry.seq()), entry.payload());
      }
    }
  }

  @Test
  void aMissingCheckpoint_replaysEveryRecordStillInTheSegments() throws Exception {
    try (Journal journal = Journal.open(dir, SMALL_SEGMENT)) {
      for (int i = 1; i <= 10; i++) {
        journal.append((byte) 0, payload(i));
      }
      journal.markApplied(6);
    }
    Files.delete(dir.resolve(Checkpoint.FILE_NAME));
    try (Journal journal = Journal.open(dir, SMALL_SEGMENT)) {
      assertEquals(0, journal.appliedThrough());
      assertEquals(
          LongStream.rangeClosed(5, 10).boxed().toList(),
          seqs(replayed(journal)),
          "1-4 were deleted as applied; 5 and 6 share a segment with unapplied records");
      assertEquals(10, journal.lastSequence());
    }
  }

  @Test
  void aDamagedCheckpoint_isTreatedAsMissing() throws Exception {
    try (Journal journal = Journal.open(dir)) {
      LongStream.rangeClosed(1, 3).forEach(i -> journal.append((byte) 0, utf8("r" + i)));
      journal.markApplied(2);
    }
    JournalFiles.flipByte(dir.resolve(Checkpoint.FILE_NAME), 6);
    try (Journal journal = Journal.open(dir)) {
      assertEquals(0, journal.appliedThrough());
      assertEquals(List.of(1L, 2L, 3L), seqs(replayed(journal)));
    }
  }

  @Test
  void theSequence_continuesFromTheCheckpoint_whenTheSegmentsAreGone() throws Exception {
    try (Journal journal = Journal.open(dir)) {
      LongStream.rangeClosed(1, 7).forEach(i -> journal.append((byte) 0, utf8("r" + i)));
      journal.markApplied(7);
    }
    for (Path segment : segmentFiles(dir)) {
      Files.delete(segment);
    }
    try (Journal journal = Journal.open(dir)) {
      assertEquals(7, journal.lastSequence());
      assertEquals(8, journal.append((byte) 0, utf8("r8")));
    }
  }

  @Test
  void aSecondOpen_failsAtOnce_namingTheDirectory_andWorksAfterClose() throws Exception {
    Journal first = Journal.open(dir);
    first.append((byte) 0, utf8("kept"));
    MemoryStoreException refused =
        assertThrows(MemoryStoreException.class, () -> Journal.open(dir));
    assertTrue(refused.getMessage().contains(dir.toRealPath().toString()), refused.getMessage());
    assertTrue(refused.getMessage().contains("another service holds it"), refused.getMessage());
    assertEquals(2, first.append((byte) 0, utf8("still writable")), "the refusal left it alone");
    first.close();
    try (Journal second = Journal.open(dir)) {
      assertEquals(2, replayed(second).size());
    }
  }

  @Test
  void afterClose_appendThrows_andCloseIsIdempotent() {
    Journal journal = Journal.open(dir);
    journal.append((byte) 0, utf8("a"));
    journal.close();
    journal.close();
    assertEquals(1, journal.syncedThrough(), "close syncs");
    IllegalStateException closed =
        assertThrows(IllegalStateException.class, () -> journal.append((byte) 0, utf8("b")));
    assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
    assertThrows(IllegalStateException.class, () -> journal.markApplied(1));
    assertThrows(IllegalStateException.class, () -> journal.replay(entry -> {}));
  }

  @Test
  void sync_coversEverythingAppendedSoFar() {
    try (Journal journal = Journal.open(dir, SMALL_SEGMENT)) {
      assertEquals(0, journal.syncedThrough());
      for (int i = 1; i <= 9; i++) {
        journal.append((byte) 0, payload(i));
      }
      journal.sync();
      assertEquals(9, journal.syncedThrough());
    }
  }

  @Test
  void payloads_upToTheLimit_roundTrip_andLargerOnesAreRejected() {
    byte[] large = new byte[3 << 20];
    Arrays.fill(large, (byte) 7);
    try (Journal journal = Journal.open(dir, SMALL_SEGMENT)) {
      journal.append((byte) 0, utf8("small"));
      journal.append((byte) 1, large);
      journal.append((byte) 2, utf8("after"));
      IllegalArgumentException tooLarge =
          assertThrows(
              IllegalArgumentException.class,
              () -> journal.append((byte) 0, new byte[Journal.MAX_PAYLOAD_BYTES + 1]));
      assertTrue(tooLarge.getMessage().contains("67108865"), tooLarge.getMessage());
      assertEquals(3, journal.lastSequence(), "a rejected payload takes no sequence number");
    }
    try (Journal journal = Journal.open(dir, SMALL_SEGMENT)) {
      List<Journal.Entry> entries = replayed(journal);
      assertEquals(List.of(1L, 2L, 3L), seqs(entries));
      assertArrayEquals(large, entries.get(1).payload());
      assertEquals(3, segmentFiles(dir).size(), "a frame larger than a segment gets its own");
    }
  }

  @Test
  void anInterruptedThread_appendsAndSyncs_andKeepsItsInterrupt() {
    try (Journal journal = Journal.open(dir)) {
      Thread.currentThread().interrupt();
      try {
        assertEquals(1, journal.append((byte) 0, utf8("while interrupted")));
        journal.sync();
        assertTrue(Thread.currentThread().isInterrupted());
      } finally {
        Thread.interrupted();
      }
      assertEquals(2, journal.append((byte) 0, utf8("after")));
    }
    try (Journal journal = Journal.open(dir)) {
      assertEquals(List.of(1L, 2L), seqs(replayed(journal)));
    }
  }

  @Test
  void open_rejectsATinySegmentSize() {
    IllegalArgumentException tiny =
        assertThrows(IllegalArgumentException.class, () -> Journal.open(dir, 100));
    assertTrue(tiny.getMessage().contains("100"), tiny.getMessage());
  }

  @Test
  void entries_copyTheirPayloads_andCompareByContent() {
    byte[] bytes = utf8("abc");
    Journal.Entry entry = new Journal.Entry(1, (byte) 0, bytes);
    bytes[0] = 'x';
    entry.payload()[1] = 'y';
    assertArrayEquals(utf8("abc"), entry.payload());
    assertEquals(new Journal.Entry(1, (byte) 0, utf8("abc")), entry);
    assertEquals(new Journal.Entry(1, (byte) 0, utf8("abc")).hashCode(), entry.hashCode());
  }

  private static byte[] payload(int seq) {
    byte[] bytes = new byte[PAYLOAD];
    Arrays.fill(bytes, (byte) seq);
    return bytes;
  }

  private static long firstSeq(Path segment) {
    String name = segment.getFileName().toString();
    return Long.parseLong(name.substring("journal-".length(), name.length() - ".log".length()));
  }
}
