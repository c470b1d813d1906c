package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.ImportProgress;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What export and exportForgotten hand out, restore puts back unchanged. */
class MemoryServiceRestoreTest {
  private static final Scope ALICE = Scope.of("acme", "alice");
  private static final Scope GONE = Scope.of("acme", "gone");

  @TempDir Path source;
  @TempDir Path target;

  @Test
  void restore_ofAnExport_exportsEqual_withVersionsAndForgetRecords() {
    List<Memory> memories = new ArrayList<>();
    List<ForgetRecord> records = new ArrayList<>();
    Memory v2;
    try (MemoryService memory = open(source)) {
      Memory v1 = memory.remember(MemoryDraft.of(ALICE, "the gateway timeout is 30 seconds"));
      v2 = memory.update(v1.id(), MemoryDraft.of(ALICE, "the gateway timeout is 45 seconds"));
      Memory other = memory.remember(MemoryDraft.of(GONE, "a memory of a scope emptied later"));
      assertTrue(memory.forget(other.id(), "ops", "left the team"));
      memory.maintenance().export(memories::add);
      memory.maintenance().exportForgotten(records::add);
    }
    assertEquals(2, memories.size());
    assertEquals(1, records.size());

    List<ImportProgress> reports = new ArrayList<>();
    List<Memory> again = new ArrayList<>();
    List<ForgetRecord> recordsAgain = new ArrayList<>();
    try (MemoryService memory = open(target)) {
      assertEquals(0, memory.maintenance().restore(memories, records, reports::add));
      memory.maintenance().export(again::add);
      memory.maintenance().exportForgotten(recordsAgain::add);
      assertEquals(records, memory.maintenance().forgotten(GONE));
      assertEquals(
          List.of(v2.id()),
          memory.recall(RecallQuery.of(ALICE, "gateway timeout")).ids(),
          "only the latest version is recalled");
    }
    sort(memories);
    sort(again);
    assertEquals(memories, again);
    assertEquals(records, recordsAgain);
    assertEquals(3, reports.get(reports.size() - 1).stored());
    assertEquals(3, reports.get(reports.size() - 1).total());
  }

  @Test
  void restore_skipsAForgetRecordOfAMemoryItHolds_andRejectsDuplicates() {
    try (MemoryService memory = open(target)) {
      Memory held = memory.remember(MemoryDraft.of(ALICE, "kept"));
      ForgetRecord record = new ForgetRecord(held.id(), ALICE, "ops", "", java.time.Instant.EPOCH);
      assertEquals(1, memory.maintenance().restore(List.of(), List.of(record), p -> {}));
      assertTrue(memory.get(held.id()).isPresent());
      assertTrue(memory.maintenance().forgotten(ALICE).isEmpty());

      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> memory.maintenance().restore(List.of(held, held), List.of(), p -> {}));
      assertTrue(e.getMessage().startsWith("memories[1]"), e.getMessage());
      MemoryId fresh = MemoryId.random();
      assertFalse(memory.get(fresh).isPresent());
    }
  }

  @Test
  void aLargeRestore_sanitizedInParts_reportsItsFirstRefusedMemory_andStoresNothing() {
    List<Memory> memories = new ArrayList<>();
    java.time.Instant at = java.time.Instant.parse("2026-01-01T00:00:00Z");
    for (int i = 0; i < 3_000; i++) {
      String content =
          i == 2_100 || i == 2_900 ? "<private>salary 90k</private>" : "restored note " + i;
      memories.add(
          Memory.builder()
              .id(MemoryId.of("r-" + i))
              .scope(ALICE)
              .content(content)
              .occurredAt(at)
              .createdAt(at)
              .build());
    }
    try (MemoryService memory = open(target)) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> memory.maintenance().restore(memories, List.of(), p -> {}));
      assertTrue(e.getMessage().startsWith("memories[2100]: content of r-2100"), e.getMessage());
      assertTrue(e.getMessage().endsWith("nothing was stored"), e.getMessage());
      assertEquals(0, memory.maintenance().count(ALICE));

      memories.remove(2_900);
      memories.remove(2_100);
      memory.maintenance().restore(memories, List.of(), p -> {});
      assertEquals("restored note 2999", memory.get(MemoryId.of("r-2999")).orElseThrow().content());
      assertEquals(2_998, memory.maintenance().count(ALICE));
    }
  }

  private static MemoryService open(Path dir) {
    return Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
  }

  private static void sort(List<Memory> memories) {
    memories.sort(Comparator.comparing(m -> m.id().value()));
  }
}
