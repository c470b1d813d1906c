package dev.memhook.core.internal.journal;

import static dev.memhook.core.internal.journal.JournalFiles.lastSegment;
import static dev.memhook.core.internal.journal.JournalFiles.replayed;
import static dev.memhook.core.internal.journal.JournalFiles.segmentFiles;
import static dev.memhook.core.internal.journal.JournalFiles.seqs;
import static dev.memhook.core.internal.journal.JournalFiles.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The repair rules on open: a torn tail is cut, damage elsewhere is skipped and counted. */
class JournalRepairTest {

  private static final List<byte[]> PAYLOADS =
      List.of(
          utf8("first record"),
          utf8("second record"),
          utf8("third record, in the middle"),
          utf8("fourth record"),
          utf8("fifth and last record"));

  @TempDir Path root;

  @Test
  void aTornLastRecord_atEveryOffset_isCut_theOthersKept_andAppendsContinue() throws IOException {
    long end = Files.size(lastSegment(written(root.resolve("whole"))));
    long lastStart = end - Frame.size(PAYLOADS.get(4).length);
    for (long cut = lastStart; cut < end; cut++) {
      Path dir = written(root.resolve("cut-" + cut));
      JournalFiles.truncate(lastSegment(dir), cut);
      try (Journal journal = Journal.open(dir)) {
        assertEquals(List.of(1L, 2L, 3L, 4L), seqs(replayed(journal)), "cut at " + cut);
        assertEquals(0, journal.damagedRecords(), "a torn tail is not damage; cut at " + cut);
        assertEquals(4, journal.lastSequence(), "cut at " + cut);
        assertEquals(lastStart, Files.size(lastSegment(dir)), "truncated; cut at " + cut);
        assertEquals(5, journal.append((byte) 9, utf8("new fifth")), "cut at " + cut);
      }
      try (Journal journal = Journal.open(dir)) {
        List<Journal.Entry> entries = replayed(journal);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), seqs(entries), "cut at " + cut);
        assertEquals(
            new Journal.Entry(5, (byte) 9, utf8("new fifth")), entries.get(4), "cut at " + cut);
      }
    }
  }

  @Test
  void aCorruptedLastRecord_isTreatedAsTorn() throws IOException {
    Path dir = written(root);
    long end = Files.size(lastSegment(dir));
    JournalFiles.flipByte(lastSegment(dir), end - 3);
    try (Journal journal = Journal.open(dir)) {
      assertEquals(List.of(1L, 2L, 3L, 4L), seqs(replayed(journal)));
      assertEquals(0, journal.damagedRecords());
      assertEquals(5, journal.append((byte) 0, utf8("again")));
    }
  }

  @Test
  void garbageAfterTheLastRecord_isCut() throws IOException {
    Path dir = written(root);
    long end = Files.size(lastSegment(dir));
    Files.write(
        lastSegment(dir), new byte[] {Frame.MAGIC, 0, 0, 0, 3, 1, 2}, StandardOpenOption.APPEND);
    try (Journal journal = Journal.open(dir)) {
      assertEquals(List.of(1L, 2L, 3L, 4L, 5L), seqs(replayed(journal)));
      assertEquals(end, Files.size(lastSegment(dir)));
    }
  }

  @Test
  void aCorruptedByte_anywhereInAMiddleRecord_skipsThatRecordOnly_andCountsIt() throws IOException {
    long start = Frame.size(PAYLOADS.get(0).length) + Frame.size(PAYLOADS.get(1).length);
    int length = Frame.size(PAYLOADS.get(2).length);
    for (long offset = start; offset < start + length; offset++) {
      Path dir = written(root.resolve("flip-" + offset));
      JournalFiles.flipByte(lastSegment(dir), offset);
      try (Journal journal = Journal.open(dir)) {
        List<Journal.Entry> entries = replayed(journal);
        assertEquals(List.of(1L, 2L, 4L, 5L), seqs(entries), "byte " + offset);
        assertEquals(
            new Journal.Entry(4, (byte) 4, PAYLOADS.get(3)), entries.get(2), "byte " + offset);
        assertEquals(1, journal.damagedRecords(), "byte " + offset);
        assertEquals(6, journal.append((byte) 0, utf8("sixth")), "byte " + offset);
      }
    }
  }

  @Test
  void damageAtTheEndOfAnOlderSegment_isSkippedAndCounted_notCut() throws IOException {
    Path dir = root;
    byte[] payload = new byte[1_000];
    try (Journal journal = Journal.open(dir, 4_096)) {
      for (int i = 1; i <= 10; i++) {
        journal.append((byte) 0, payload);
      }
    }
    Path first = segmentFiles(dir).get(0);
    long size = Files.size(first);
    JournalFiles.flipByte(first, size - 10);
    try (Journal journal = Journal.open(dir, 4_096)) {
      assertEquals(List.of(1L, 2L, 3L, 5L, 6L, 7L, 8L, 9L, 10L), seqs(replayed(journal)));
      assertEquals(1, journal.damagedRecords());
      assertEquals(size, Files.size(first), "an older segment is never cut");
      assertEquals(11, journal.append((byte) 0, payload));
    }
  }

  @Test
  void aLostStretchInTheMiddle_countsEveryRecordItHeld() throws IOException {
    Path dir = written(root);
    long from = Frame.size(PAYLOADS.get(0).length);
    long to = from + Frame.size(PAYLOADS.get(1).length) + Frame.size(PAYLOADS.get(2).length);
    for (long offset = from; offset < to; offset += 7) {
      JournalFiles.flipByte(lastSegment(dir), offset);
    }
    try (Journal journal = Journal.open(dir)) {
      assertEquals(List.of(1L, 4L, 5L), seqs(replayed(journal)));
      assertEquals(2, journal.damagedRecords());
    }
  }

  /** A closed journal in {@code dir} holding {@link #PAYLOADS} as records 1-5, kinds 1-5. */
  private static Path written(Path dir) {
    try (Journal journal = Journal.open(dir)) {
      for (int i = 0; i < PAYLOADS.size(); i++) {
        journal.append((byte) (i + 1), PAYLOADS.get(i));
      }
    }
    return dir;
  }
}
