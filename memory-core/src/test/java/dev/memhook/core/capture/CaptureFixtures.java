package dev.memhook.core.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Events, exports and file scans shared by the capture tests. */
final class CaptureFixtures {

  static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

  private CaptureFixtures() {}

  /** A post-tool-use event in session {@code session} of project "shop" at T0 + {@code second}. */
  static LifecycleEvent postTool(
      String session, int second, String tool, String input, String out) {
    return LifecycleEvent.builder(LifecycleEventType.POST_TOOL_USE, session)
        .project("shop")
        .cwd("/work/shop")
        .timestamp(T0.plusSeconds(second))
        .data(EventData.tool(tool, input, out))
        .build();
  }

  /** A prompt in session {@code session} of project "shop" at T0 + {@code second}. */
  static LifecycleEvent prompt(String session, int second, String prompt) {
    return LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, session)
        .project("shop")
        .cwd("/work/shop")
        .timestamp(T0.plusSeconds(second))
        .data(EventData.prompt(prompt))
        .build();
  }

  /** The agent's answer in session {@code session} of project "shop" at T0 + {@code second}. */
  static LifecycleEvent answer(String session, int second, String message) {
    return LifecycleEvent.builder(LifecycleEventType.AGENT_RESPONSE, session)
        .project("shop")
        .cwd("/work/shop")
        .timestamp(T0.plusSeconds(second))
        .data(EventData.message(message))
        .build();
  }

  /** A session-end event in session {@code session} of project "shop" at T0 + {@code second}. */
  static LifecycleEvent sessionEnd(String session, int second) {
    return LifecycleEvent.builder(LifecycleEventType.SESSION_END, session)
        .project("shop")
        .cwd("/work/shop")
        .timestamp(T0.plusSeconds(second))
        .build();
  }

  /** Flushes capture, failing the test if it does not drain in a minute. */
  static void flush(MemoryService memory) {
    if (!memory.capture().flush(Duration.ofMinutes(1))) {
      throw new AssertionError("capture did not drain in a minute: " + memory.capture().stats());
    }
  }

  /** Every memory the service holds. */
  static List<Memory> all(MemoryService memory) {
    List<Memory> out = new ArrayList<>();
    memory.maintenance().export(out::add);
    return out;
  }

  /** Every observation the service holds. */
  static List<Memory> observations(MemoryService memory) {
    return all(memory).stream().filter(m -> m.type() == MemoryType.OBSERVATION).toList();
  }

  /** The files under {@code dir} (recursively) whose bytes contain {@code needle} as UTF-8. */
  static List<Path> filesContaining(Path dir, String needle) {
    byte[] n = needle.getBytes(StandardCharsets.UTF_8);
    List<Path> hits = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        if (indexOf(Files.readAllBytes(f), n) >= 0) {
          hits.add(f);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return hits;
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
