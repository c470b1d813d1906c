package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.filesContaining;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forgetting a captured observation erases its text from every file: the index, the capture journal
 * and the session record that quoted it.
 */
class CaptureForgetTest {

  private static final String SECRET_PLAN = "the acquisition codename is zephyr orchard";

  @TempDir Path dir;

  @Test
  void forgettingACapturedObservation_leavesItsTextInNoFile() {
    try (MemoryService memory =
        Memhook.builder()
            .directory(dir)
            .embedder(HashingEmbedder.create())
            .capture(CaptureOptions.builder().consolidateOnDemandOnly().build())
            .build()) {
      memory.capture().observe(prompt("s1", 0, "Remember that " + SECRET_PLAN + "."));
      memory.capture().observe(prompt("s1", 1, "Now run the billing tests."));
      flush(memory);
      assertFalse(filesContaining(dir, "zephyr").isEmpty(), "the test must see the text first");
      Memory captured =
          observations(memory).stream()
              .filter(m -> m.content().contains("zephyr"))
              .findFirst()
              .orElseThrow();
      assertTrue(memory.forget(captured.id(), "alice", "confidential"));
      assertEquals(List.of(), filesContaining(dir, SECRET_PLAN), "readable text left on disk");
      memory.maintenance().purge();
      assertEquals(List.of(), filesContaining(dir, "zephyr"), "text left on disk");
      assertNull(memory.capture().session("s1").orElseThrow().firstPrompt());
      // capture goes on, and the next turn does not quote the forgotten one as its context
      memory.capture().observe(prompt("s1", 2, "And the payments tests."));
      flush(memory);
      assertTrue(
          observations(memory).stream().noneMatch(m -> m.context().contains("zephyr")),
          "a later turn quotes the forgotten one");
    }
    assertEquals(List.of(), filesContaining(dir, "zephyr"), "text left on disk after close");
  }
}
