package dev.memhook.core.internal.journal;

import static dev.memhook.core.internal.journal.JournalFiles.replayed;
import static dev.memhook.core.internal.journal.JournalFiles.seqs;
import static dev.memhook.core.internal.journal.JournalFiles.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Journal#inMemory()}: the file journal's behaviour, minus durability. */
class JournalInMemoryTest {

  @Test
  void appendsReplayInOrder_andMarkAppliedDropsTheApplied() {
    try (Journal journal = Journal.inMemory()) {
      assertEquals(1, journal.append((byte) 1, utf8("a")));
      assertEquals(2, journal.append((byte) 2, utf8("bb")));
      assertEquals(3, journal.append((byte) 3, utf8("ccc")));
      assertEquals(3 * Frame.HEADER_BYTES + 6, journal.sizeBytes());
      assertEquals(
          List.of(
              new Journal.Entry(1, (byte) 1, utf8("a")),
              new Journal.Entry(2, (byte) 2, utf8("bb")),
              new Journal.Entry(3, (byte) 3, utf8("ccc"))),
          replayed(journal));

      journal.markApplied(2);
      journal.markApplied(1);
      assertEquals(2, journal.appliedThrough());
      assertEquals(List.of(3L), seqs(replayed(journal)));
      assertEquals(Frame.HEADER_BYTES + 3, journal.sizeBytes());
      assertEquals(0, journal.segmentCount());
      assertEquals(0, journal.damagedRecords());
    }
  }

  @Test
  void sync_marksEverythingSynced_withNothingToForce() {
    try (Journal journal = Journal.inMemory()) {
      journal.append((byte) 0, utf8("a"));
      assertEquals(0, journal.syncedThrough());
      journal.sync();
      assertEquals(1, journal.syncedThrough());
    }
  }

  @Test
  void callerMistakes_andUseAfterClose_failAsTheFileJournalDoes() {
    Journal journal = Journal.inMemory();
    journal.append((byte) 0, utf8("a"));
    assertThrows(IllegalArgumentException.class, () -> journal.markApplied(2));
    assertThrows(
        IllegalArgumentException.class,
        () -> journal.append((byte) 0, new byte[Journal.MAX_PAYLOAD_BYTES + 1]));
    assertThrows(NullPointerException.class, () -> journal.append((byte) 0, null));
    journal.close();
    journal.close();
    assertThrows(IllegalStateException.class, () -> journal.append((byte) 0, utf8("b")));
    assertThrows(IllegalStateException.class, () -> journal.replay(entry -> {}));
  }

  @Test
  void twoInMemoryJournals_areIndependent() {
    try (Journal one = Journal.inMemory();
        Journal two = Journal.inMemory()) {
      one.append((byte) 0, utf8("a"));
      one.append((byte) 0, utf8("b"));
      assertEquals(1, two.append((byte) 0, utf8("c")));
    }
  }
}
