package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.all;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SIGKILL while close ends a session leaves the end to the next open, which finishes it once: a
 * child JVM observes a session without its end event and closes the service, and is killed while
 * close's end of the session waits for the consolidator. The next open ends the session as closed
 * and consolidates it; no later open does it again.
 */
class SessionEndOnCloseCrashTest {

  static final String PREFERENCE = "I prefer tabs over spaces in every Java file of this repo.";
  static final String DECISION =
      "We decided to keep money as long cents in the shop, never as double.";

  @TempDir Path dir;

  @Test
  void aSigkillWhileCloseEndsASession_isFinishedByTheNextOpen_once() throws Exception {
    killWhileClosing();

    RecordingConsolidator consolidator = new RecordingConsolidator();
    try (MemoryService memory = open(consolidator)) {
      flush(memory);
      Session s = memory.capture().session("s1").orElseThrow();
      assertEquals(SessionStatus.CLOSED, s.status());
      assertEquals(2, s.observationCount());
      assertEquals(
          List.of(RecordingConsolidator.CONTENT),
          all(memory).stream()
              .filter(m -> m.type() != MemoryType.OBSERVATION)
              .map(Memory::content)
              .toList());
    }
    try (MemoryService memory = open(consolidator)) {
      flush(memory);
      assertEquals(SessionStatus.CLOSED, memory.capture().session("s1").orElseThrow().status());
    }
    assertEquals(List.of("s1 CLOSED"), consolidator.calls, "the replayed end ran once");
  }

  private MemoryService open(RecordingConsolidator consolidator) {
    return Memhook.builder()
        .directory(dir)
        .embedder(HashingEmbedder.create())
        .capture(CaptureOptions.builder().consolidator(consolidator).build())
        .build();
  }

  /** Runs the child until close's end of its session reaches the consolidator, then SIGKILLs it. */
  private void killWhileClosing() throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SessionEndOnCloseCrashChild.class.getName());
    command.add(dir.toString());
    Path errors = Files.createTempFile("session-end-on-close-child", ".err");
    Process child = new ProcessBuilder(command).redirectError(errors.toFile()).start();
    boolean reached = false;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.equals("AT CONSOLIDATING s1 CLOSED")) {
          reached = true;
          break;
        }
      }
      child.destroyForcibly();
      assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child did not die");
    }
    if (!reached) {
      throw new AssertionError("child never reached its close's end: " + Files.readString(errors));
    }
    Files.deleteIfExists(errors);
  }
}
