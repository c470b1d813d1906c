package dev.memhook.core.receipt;

import static dev.memhook.core.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.api.trace.CaptureEvent.Kind;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Capture tells the service's listener what it stored, fell back on and shed; forget too. */
class CaptureEventTest {

  private final List<CaptureEvent> heard = new CopyOnWriteArrayList<>();

  private final MemoryListener listener =
      new MemoryListener() {
        @Override
        public void captured(CaptureEvent event) {
          heard.add(event);
        }
      };

  private static LifecycleEvent tool(String session, int n) {
    return LifecycleEvent.builder(LifecycleEventType.POST_TOOL_USE, session)
        .project("shop")
        .cwd("/work/shop")
        .eventId("e" + n)
        .data(EventData.tool("Bash", "ls " + n, "pom.xml"))
        .build();
  }

  @Test
  void aStoredObservation_aCompressorFallback_andAForget_areEachHeard() {
    CaptureOptions options =
        CaptureOptions.builder()
            .compressor(
                o -> {
                  throw new IllegalStateException("provider is down");
                })
            .build();
    try (MemoryService memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .capture(options)
            .listener(listener)
            .build()) {
      assertEquals(ObserveResult.ACCEPTED, memory.capture().observe(tool("s1", 1)));
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
      Memory m = memory.remember(MemoryDraft.of(Scope.DEFAULT, "to be forgotten"));
      memory.forget(m.id(), "alice", "done");

      eventually(
          () ->
              assertEquals(
                  List.of(
                      Kind.COMPRESSION_FELL_BACK, Kind.OBSERVATION_STORED, Kind.MEMORY_FORGOTTEN),
                  heard.stream().map(CaptureEvent::kind).toList()));
      CaptureEvent stored = heard.get(1);
      assertEquals("s1", stored.sessionId());
      assertTrue(stored.memoryId().value().startsWith("obs-"), stored.toString());
      assertEquals(m.id(), heard.get(2).memoryId());
      assertTrue(heard.get(2).detail().contains("alice"));
    }
  }

  @Test
  void aShedEvent_isHeard() {
    CaptureOptions tiny = CaptureOptions.builder().queueCapacity(1).batchSize(1).build();
    try (MemoryService memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .capture(tiny)
            .listener(listener)
            .build()) {
      int shed = 0;
      for (int i = 0; i < 2_000 && shed == 0; i++) {
        if (memory.capture().observe(tool("s2", i)) == ObserveResult.SHED) {
          shed++;
        }
      }
      assertTrue(shed > 0, "a queue of one sheds under a burst");
      eventually(
          () ->
              assertTrue(
                  heard.stream()
                      .anyMatch(e -> e.kind() == Kind.EVENT_SHED && "s2".equals(e.sessionId())),
                  heard.toString()));
    }
  }
}
