package dev.memhook.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a forget record says about the ids removed with it, and the lists it refuses. */
class ForgetRecordTest {

  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  private static final MemoryId M1 = MemoryId.of("m1");
  private static final MemoryId M2 = MemoryId.of("m2");

  @Test
  void theFiveComponentRecord_listsItsOwnIdAlone() {
    assertEquals(List.of(M1), new ForgetRecord(M1, Scope.DEFAULT, "alice", "r", T0).removed());
  }

  @Test
  void removed_isCopied_andKeepsItsOrder() {
    List<MemoryId> given = new ArrayList<>(List.of(M2, M1));
    ForgetRecord r = new ForgetRecord(M1, Scope.DEFAULT, "alice", "r", T0, given);
    given.clear();
    assertEquals(List.of(M2, M1), r.removed());
    assertThrows(UnsupportedOperationException.class, () -> r.removed().add(M1));
  }

  @Test
  void aListWithoutTheRecordsOwnId_orWithAnIdTwice_orTooLong_isRefused() {
    IllegalArgumentException without =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ForgetRecord(M1, Scope.DEFAULT, "alice", "r", T0, List.of(M2)));
    assertTrue(without.getMessage().contains("m1"), without.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> new ForgetRecord(M1, Scope.DEFAULT, "alice", "r", T0, List.of(M1, M2, M1)));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ForgetRecord(M1, Scope.DEFAULT, "alice", "r", T0, List.of()));
    List<MemoryId> most = new ArrayList<>();
    for (int i = 0; i < ForgetRecord.MAX_REMOVED; i++) {
      most.add(MemoryId.of("m" + (i + 1)));
    }
    assertEquals(
        ForgetRecord.MAX_REMOVED,
        new ForgetRecord(M1, Scope.DEFAULT, "alice", "r", T0, most).removed().size());
    most.add(MemoryId.of("one-more"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ForgetRecord(M1, Scope.DEFAULT, "alice", "r", T0, most));
  }
}
