package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ExportResult;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A service opened read-only reads and exports what a directory holds and writes nothing. */
class MemhookReadOnlyTest {
  @TempDir Path dir;

  @Test
  void aReadOnlyService_exportsEveryMemory_andRefusesToRemember() {
    Memory kept;
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      kept = memory.remember(MemoryDraft.of(Scope.DEFAULT, "the gateway timeout is 30 seconds"));
    }
    try (MemoryService memory =
        Memhook.builder().directory(dir).readOnly().embedder(HashingEmbedder.create()).build()) {
      List<Memory> exported = new ArrayList<>();
      assertEquals(new ExportResult(1, 0), memory.maintenance().export(exported::add));
      assertEquals(List.of(kept), exported);
      assertEquals(kept, memory.get(kept.id()).orElseThrow());
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () -> memory.remember(MemoryDraft.of(Scope.DEFAULT, "a new memory")));
      assertTrue(e.getMessage().contains("read-only"), e.getMessage());
      // it captures nothing: observe is refused, flush has nothing to wait for
      assertThrows(
          IllegalStateException.class,
          () ->
              memory.capture().observeJson("{\"hookType\":\"SessionStart\",\"sessionId\":\"s\"}"));
      assertTrue(memory.capture().flush(java.time.Duration.ofSeconds(1)));
      assertEquals(0, memory.capture().stats().accepted());
    }
  }

  @Test
  void readOnly_withCaptureOptions_isRefusedAtBuild_notSilentlyLeftWithoutCapture() {
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "the gateway timeout is 30 seconds"));
    }
    Memhook.Builder builder =
        Memhook.builder()
            .directory(dir)
            .readOnly()
            .capture(CaptureOptions.defaults())
            .embedder(HashingEmbedder.create());

    IllegalStateException e = assertThrows(IllegalStateException.class, builder::build);

    assertTrue(e.getMessage().contains("readOnly()"), e.getMessage());
    assertTrue(e.getMessage().contains("capture("), e.getMessage());
  }

  @Test
  void readOnly_withoutADirectory_isRefused() {
    assertThrows(
        IllegalStateException.class,
        () -> Memhook.builder().inMemory().readOnly().embedder(HashingEmbedder.create()).build());
  }
}
