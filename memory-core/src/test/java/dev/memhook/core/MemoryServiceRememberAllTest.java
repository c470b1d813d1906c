package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ImportProgress;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rememberAll}: what it stores, in what order, what it reports, and that a rejected draft
 * stores nothing while a failing progress callback keeps the batches it heard of.
 */
class MemoryServiceRememberAllTest {
  @TempDir Path dir;

  private static final Scope SCOPE = Scope.of("acme", "import");

  private MemoryService open() {
    return Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
  }

  private static List<MemoryDraft> drafts(int n) {
    List<MemoryDraft> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(MemoryDraft.of(SCOPE, "imported note " + i + " about deploy train " + (i % 7)));
    }
    return out;
  }

  private static int count(MemoryService memory) {
    int[] n = {0};
    memory.maintenance().export(m -> n[0]++);
    return n[0];
  }

  @Test
  void rememberAll_storesEveryDraftInOrder_sanitized_andReportsEachBatch() {
    List<MemoryDraft> drafts = new ArrayList<>(drafts(600));
    drafts.set(
        3, MemoryDraft.of(SCOPE, "the deploy token is ghp_" + "a1B2c3D4e5F6g7H8i9J0".repeat(2)));
    List<ImportProgress> reports = new ArrayList<>();
    List<Memory> stored;
    try (MemoryService memory = open()) {
      stored = memory.maintenance().rememberAll(drafts, reports::add);
      assertEquals(600, stored.size());
      for (int i = 0; i < stored.size(); i++) {
        assertEquals(1, stored.get(i).version());
        assertEquals(stored.get(i), memory.get(stored.get(i).id()).orElseThrow());
      }
      assertEquals("imported note 0 about deploy train 0", stored.get(0).content());
      assertTrue(!stored.get(3).content().contains("ghp_"), "sanitized: " + stored.get(3));
      assertEquals(List.of(256, 512, 600), reports.stream().map(ImportProgress::stored).toList());
      reports.forEach(r -> assertEquals(600, r.total()));
      assertEquals(
          stored.get(42).id(),
          memory
              .recall(new RecallQuery(SCOPE, "imported note 42 about deploy train 0", 1))
              .ids()
              .get(0));
    }
    try (MemoryService reopened = open()) {
      assertEquals(600, count(reopened), "durable when rememberAll returns");
    }
  }

  @Test
  void aRejectedDraft_failsTheCallNamingIt_andNothingIsStored() {
    List<MemoryDraft> drafts = new ArrayList<>(drafts(300));
    drafts.set(270, MemoryDraft.of(SCOPE, "<private>all of it is private</private>"));
    try (MemoryService memory = open()) {
      memory.remember(MemoryDraft.of(SCOPE, "stored before the import"));
      List<ImportProgress> reports = new ArrayList<>();
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> memory.maintenance().rememberAll(drafts, reports::add));
      assertTrue(e.getMessage().startsWith("drafts[270]: "), e.getMessage());
      assertTrue(e.getMessage().endsWith("; nothing was stored"), e.getMessage());
      assertEquals(List.of(), reports);
      assertEquals(1, count(memory), "only what was there before");
    }
  }

  @Test
  void aProgressCallbackThatThrows_stopsTheImport_keepingTheBatchesItHeardOf() {
    try (MemoryService memory = open()) {
      IllegalStateException stop = new IllegalStateException("host stops the import");
      assertEquals(
          stop,
          assertThrows(
              IllegalStateException.class,
              () ->
                  memory
                      .maintenance()
                      .rememberAll(
                          drafts(700),
                          p -> {
                            if (p.stored() == 512) {
                              throw stop;
                            }
                          })));
      assertEquals(512, count(memory));
    }
  }

  @Test
  void anEmptyImport_storesNothing_andReportsNothing() {
    try (MemoryService memory = open()) {
      List<ImportProgress> reports = new ArrayList<>();
      assertEquals(List.of(), memory.maintenance().rememberAll(List.of(), reports::add));
      assertEquals(List.of(), reports);
      assertThrows(NullPointerException.class, () -> memory.maintenance().rememberAll(null));
      List<MemoryDraft> withNull = new ArrayList<>(drafts(2));
      withNull.add(null);
      assertThrows(NullPointerException.class, () -> memory.maintenance().rememberAll(withNull));
      assertEquals(0, count(memory));
    }
  }

  @Test
  void compactAfterAnImport_leavesOneCommittedSegment_andEveryMemory() throws Exception {
    List<Memory> stored;
    try (MemoryService memory = open()) {
      stored = new ArrayList<>();
      for (int round = 0; round < 3; round++) {
        stored.addAll(memory.maintenance().rememberAll(drafts(300)));
        memory.recall(new RecallQuery(SCOPE, "deploy train", 1)); // a read flushes a segment
      }
      memory.maintenance().compact();
      try (org.apache.lucene.store.Directory d = org.apache.lucene.store.FSDirectory.open(dir)) {
        org.apache.lucene.index.SegmentInfos committed =
            org.apache.lucene.index.SegmentInfos.readLatestCommit(d);
        assertEquals(1, committed.size(), "merged and committed");
      }
      assertEquals(900, memory.maintenance().count(SCOPE));
    }
    try (MemoryService memory = open()) {
      for (Memory m : stored) {
        assertEquals(m, memory.get(m.id()).orElseThrow());
      }
    }
    try (MemoryService readOnly =
        Memhook.builder().directory(dir).readOnly().embedder(HashingEmbedder.create()).build()) {
      assertThrows(IllegalStateException.class, readOnly.maintenance()::compact);
    }
  }
}
