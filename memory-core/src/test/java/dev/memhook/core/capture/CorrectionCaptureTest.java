package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.all;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static dev.memhook.core.capture.CaptureFixtures.sessionEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statements in ordinary words become typed memories, and a later correction supersedes the memory
 * it corrects: a new version, the old one no longer latest, recalled or offered.
 */
class CorrectionCaptureTest {

  @TempDir Path dir;

  private static List<Memory> distilled(MemoryService memory) {
    return all(memory).stream().filter(m -> m.type() != MemoryType.OBSERVATION).toList();
  }

  @Test
  void aStatementAmongATask_becomesATypedMemory_withItsSubjectsAsConcepts() {
    try (MemoryService memory = service()) {
      memory
          .capture()
          .observe(
              prompt(
                  "s1",
                  1,
                  "add a retry to the payment client. Oh and btw, we use"
                      + " pnpm not npm in this repo"));
      memory.capture().observe(prompt("s1", 2, "thanks, that's all"));
      memory.capture().observe(sessionEnd("s1", 3));
      flush(memory);

      List<Memory> distilled = distilled(memory);
      assertEquals(1, distilled.size(), distilled.toString());
      Memory m = distilled.get(0);
      assertEquals(MemoryType.PREFERENCE, m.type());
      assertEquals("We use pnpm not npm in this repo.", m.content());
      assertTrue(m.concepts().containsAll(List.of("pnpm", "npm")), m.concepts().toString());
    }
  }

  @Test
  void aCorrectionInALaterSession_supersedesTheMemoryItCorrects() {
    try (MemoryService memory = service()) {
      memory.capture().observe(prompt("s1", 1, "FYI the staging database listens on port 5433."));
      memory.capture().observe(sessionEnd("s1", 2));
      flush(memory);
      Memory before = only(distilled(memory));
      assertTrue(before.content().contains("5433"), before.toString());

      memory
          .capture()
          .observe(
              prompt(
                  "s2",
                  10,
                  "correction: the staging database moved to port 6543"
                      + " last week. Anyway, bump the SDK"));
      memory.capture().observe(sessionEnd("s2", 11));
      flush(memory);

      List<Memory> latest = distilled(memory).stream().filter(Memory::latest).toList();
      Memory after = only(latest);
      assertTrue(after.content().contains("6543"), after.toString());
      assertEquals(before.id(), after.supersedes(), "a new version of the old one");
      assertFalse(memory.get(before.id()).map(Memory::latest).orElse(false));
      assertTrue(
          memory
              .recall(new RecallQuery(Scope.DEFAULT, "staging database port", 10))
              .memories()
              .stream()
              .filter(r -> r.memory().type() != MemoryType.OBSERVATION)
              .noneMatch(r -> r.memory().content().contains("5433")));
    }
  }

  @Test
  void aChangeAboutAnotherSubject_isANewMemory_andReplacesNothing() {
    try (MemoryService memory = service()) {
      memory.capture().observe(prompt("s1", 1, "FYI the staging database listens on port 5433."));
      memory.capture().observe(sessionEnd("s1", 2));
      memory.capture().observe(prompt("s2", 10, "heads up, the design reviews moved to Thursdays"));
      memory.capture().observe(sessionEnd("s2", 11));
      flush(memory);

      List<Memory> latest = distilled(memory).stream().filter(Memory::latest).toList();
      assertEquals(2, latest.size(), latest.toString());
    }
  }

  @Test
  void aCorrectionInTheSameSession_keepsOnlyTheCorrection() {
    try (MemoryService memory = service()) {
      memory.capture().observe(prompt("s1", 1, "the export job runs at 02:00 UTC"));
      memory
          .capture()
          .observe(prompt("s1", 2, "actually scratch that, the export job runs at 04:30 UTC now"));
      memory.capture().observe(sessionEnd("s1", 3));
      flush(memory);

      Memory m = only(distilled(memory));
      assertTrue(m.content().contains("04:30"), m.toString());
    }
  }

  private static Memory only(List<Memory> memories) {
    assertEquals(1, memories.size(), memories.toString());
    return memories.get(0);
  }

  private MemoryService service() {
    return Memhook.builder()
        .directory(dir)
        .embedder(HashingEmbedder.create())
        .capture(CaptureOptions.defaults())
        .build();
  }
}
