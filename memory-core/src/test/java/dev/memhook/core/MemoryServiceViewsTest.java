package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.MemoryCapture;
import dev.memhook.api.trace.ListenerStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's views ({@code capture()}, {@code maintenance()}, {@code trace()}) are the same
 * object on every call, say whether the service captures, and follow the service's lifecycle: the
 * capture and maintenance views refuse work after close, the trace view still reads.
 */
class MemoryServiceViewsTest {
  @TempDir Path dir;

  @Test
  void eachViewIsOneObject_andCaptureSaysItIsEnabled() {
    try (MemoryService memory =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build()) {
      assertSame(memory.capture(), memory.capture());
      assertSame(memory.maintenance(), memory.maintenance());
      assertSame(memory.trace(), memory.trace());
      assertTrue(memory.capture().enabled());
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "the gateway timeout is 30 seconds"));
      assertEquals(1, memory.maintenance().count(Scope.DEFAULT));
    }
  }

  @Test
  void aServiceWithoutCapture_hasAnEmptyCaptureView_thatRefusesToObserve() {
    try (MemoryService memory =
        Memhook.builder().inMemory().noCapture().embedder(HashingEmbedder.create()).build()) {
      MemoryCapture capture = memory.capture();
      assertFalse(capture.enabled());
      assertEquals(List.of(), capture.sessions());
      assertEquals(CaptureStats.NONE, capture.stats());
      assertTrue(capture.flush(Duration.ofMillis(1)));
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () -> capture.observeJson("{\"hookType\":\"SessionStart\",\"sessionId\":\"s\"}"));
      assertTrue(e.getMessage().contains("captures nothing"), e.getMessage());
      assertThrows(IllegalStateException.class, () -> capture.consolidate("s"));
    }
  }

  @Test
  void afterClose_captureAndMaintenanceRefuse_butTheTraceStillReads() {
    MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
    memory.close();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> memory.capture().sessions());
    assertEquals("memory service is closed", e.getMessage());
    assertThrows(IllegalStateException.class, () -> memory.capture().stats());
    assertThrows(IllegalStateException.class, () -> memory.maintenance().count(Scope.DEFAULT));
    assertThrows(IllegalStateException.class, () -> memory.maintenance().compact());
    assertEquals(List.of(), memory.trace().recentReceipts());
    assertEquals(new ListenerStats(0, 0, 0), memory.trace().listenerStats());
  }
}
