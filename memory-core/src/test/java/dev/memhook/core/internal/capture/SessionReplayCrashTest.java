package dev.memhook.core.internal.capture;

import static dev.memhook.core.internal.capture.SessionReplayScript.DECISION;
import static dev.memhook.core.internal.capture.SessionReplayScript.PREFERENCE;
import static dev.memhook.core.internal.capture.SessionReplayScript.SESSION;
import static dev.memhook.core.internal.capture.SessionReplayScript.TASK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.core.internal.capture.SessionReplayScript.Point;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A SIGKILL between two steps of an accepted event leaves nothing undone: a child JVM capturing a
 * session into the default file session store is killed at a {@link Point} (the preference stored
 * but not listed by its session; its session written but the journal's checkpoint not moved; the
 * session's end between its two consolidated memories), and after a reopen the session lists
 * exactly the observations, says exactly the counts and summary, and has exactly the consolidated
 * memories of a run without the kill.
 */
class SessionReplayCrashTest {

  @TempDir Path clean;
  @TempDir Path crashed;

  /** What a run leaves of the session; see {@link #outcome}. */
  private record Outcome(
      List<MemoryId> listedIds,
      List<String> listed,
      int observationCount,
      SessionStatus status,
      String summary,
      List<String> consolidated,
      long observationsStored) {}

  @ParameterizedTest(name = "killed at {0}")
  @EnumSource(Point.class)
  void aSigkillBetweenTheStepsOfAnEvent_leavesTheSessionAsARunWithoutIt(Point point)
      throws Exception {
    boolean ended = point == Point.MID_CONSOLIDATION;
    Outcome expected;
    try (MemoryService memory = open(clean)) {
      SessionReplayScript.runWhole(memory, ended);
      if (!ended) {
        memory.capture().consolidate(SESSION);
      }
      expected = outcome(memory, clean);
    }

    killAt(point);

    try (MemoryService memory = open(crashed)) {
      SessionReplayScript.flush(memory);
      if (!ended) {
        memory.capture().consolidate(SESSION);
      }
      Outcome replayed = outcome(memory, crashed);
      if (ended) {
        // the session end is kept in the session, stored as no observation
        assertEquals(List.of(TASK, PREFERENCE, DECISION), replayed.listed());
        assertEquals(3, replayed.observationCount());
        assertEquals(SessionStatus.COMPLETED, replayed.status());
        assertTrue(replayed.summary().contains("3 observations"), replayed.summary());
        assertEquals(
            List.of(
                "DECISION " + DECISION + " <- " + DECISION,
                "PREFERENCE " + PREFERENCE + " <- " + PREFERENCE),
            replayed.consolidated());
      } else {
        assertEquals(List.of(TASK, PREFERENCE), replayed.listed());
        assertEquals(2, replayed.observationCount());
        assertTrue(replayed.summary().contains("2 observations"), replayed.summary());
        assertEquals(
            List.of("PREFERENCE " + PREFERENCE + " <- " + PREFERENCE), replayed.consolidated());
      }
      assertEquals(expected, replayed);
    }
  }

  private static MemoryService open(Path dir) {
    return Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
  }

  /** Runs the child until it reports reaching {@code point}, then SIGKILLs it. */
  private void killAt(Point point) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SessionReplayCrashChild.class.getName());
    command.add(crashed.toString());
    command.add(point.name());
    Path errors = Files.createTempFile("session-replay-child", ".err");
    Process child = new ProcessBuilder(command).redirectError(errors.toFile()).start();
    boolean reached = false;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.equals("AT " + point)) {
          reached = true;
          break;
        }
      }
      child.destroyForcibly();
      assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child did not die");
    }
    if (!reached) {
      throw new AssertionError("child never reached " + point + ": " + Files.readString(errors));
    }
    Files.deleteIfExists(errors);
  }

  /**
   * The session's listed observations (ids, and contents in order), its record, its consolidated
   * memories (type, content, and the contents of their sources) and the number of observations.
   */
  private static Outcome outcome(MemoryService memory, Path dir) {
    Session s = memory.capture().session(SESSION).orElseThrow();
    FileSessionStore files =
        FileSessionStore.open(
            dir.resolve(Memhook.JOURNAL_DIRECTORY).resolve(SessionReplayScript.SESSIONS));
    List<MemoryId> ids = files.observations(SESSION);
    List<Memory> all = new ArrayList<>();
    memory.maintenance().export(all::add);
    List<String> consolidated =
        all.stream()
            .filter(m -> m.type() != MemoryType.OBSERVATION)
            .map(
                m -> m.type() + " " + m.content() + " <- " + String.join(" | ", sources(memory, m)))
            .sorted()
            .toList();
    return new Outcome(
        ids,
        contents(memory, ids),
        s.observationCount(),
        s.status(),
        s.summary(),
        consolidated,
        all.stream().filter(m -> m.type() == MemoryType.OBSERVATION).count());
  }

  private static List<String> sources(MemoryService memory, Memory consolidated) {
    String sources = consolidated.attributes().getOrDefault("memhook.sources", "");
    return contents(
        memory,
        Stream.of(sources.split(" ")).filter(id -> !id.isBlank()).map(MemoryId::of).toList());
  }

  private static List<String> contents(MemoryService memory, List<MemoryId> ids) {
    return ids.stream()
        .map(id -> memory.get(id).map(Memory::content).orElse("missing " + id))
        .toList();
  }
}
