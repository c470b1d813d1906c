package dev.memhook.core.internal.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The checkpoint a cursor moves: below the oldest pending record, and not at all for a held cursor
 * until every consumer has replayed (a record no consumer has read yet is pending for none).
 */
class JournalCursorTest {

  @Test
  void checkpoint_staysBelowTheOldestPendingRecord() {
    try (Journal journal = Journal.inMemory()) {
      JournalCursor cursor = new JournalCursor(journal);
      long a = cursor.append((byte) 1, new byte[] {1});
      long b = cursor.append((byte) 1, new byte[] {2});
      cursor.finished(b);
      cursor.checkpoint();
      assertEquals(a - 1, journal.appliedThrough());
      cursor.finished(a);
      cursor.checkpoint();
      assertEquals(b, journal.appliedThrough());
    }
  }

  @Test
  void aHeldCursor_movesNoCheckpointUntilReleased_evenWithNothingPending() {
    try (Journal journal = Journal.inMemory()) {
      journal.append((byte) 1, new byte[] {1}); // read back by a consumer that has not replayed yet
      JournalCursor cursor = JournalCursor.held(journal);
      cursor.checkpoint();
      assertEquals(0, journal.appliedThrough(), "a held cursor moved the checkpoint");
      cursor.replayed(1);
      cursor.release();
      cursor.checkpoint();
      assertEquals(0, journal.appliedThrough(), "the replayed record is pending");
      cursor.finished(1);
      cursor.checkpoint();
      assertEquals(1, journal.appliedThrough());
    }
  }
}
