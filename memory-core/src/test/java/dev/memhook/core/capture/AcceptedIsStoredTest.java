package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What observe accepts can be stored: the pipeline never fails on an accepted event (which would
 * then stay in the journal and fail again at every open).
 */
class AcceptedIsStoredTest {

  @Test
  void aToolEventWhosePartsTogetherPassTheContentLimit_isStoredCutWithTheMarker() {
    String input = "grep ".repeat(18_000); // 90,000 characters: within the raw cap on its own
    String output = "match ".repeat(15_000); // 90,000 characters too
    try (MemoryService memory =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build()) {
      assertEquals(
          ObserveResult.ACCEPTED,
          memory.capture().observe(postTool("s1", 0, "Bash", input, output)));
      flush(memory);

      assertEquals(0, memory.capture().stats().failed(), "the pipeline stored it");
      List<Memory> stored = observations(memory);
      assertEquals(1, stored.size());
      Memory m = stored.get(0);
      assertTrue(m.content().length() <= MemoryDraft.MAX_CONTENT, "" + m.content().length());
      assertTrue(m.content().endsWith(MemoryDraft.CUT_MARKER), "cut visibly");
      assertTrue(m.content().contains("\noutput: match match"), "both parts, as far as they fit");
      assertEquals("true", m.attributes().get("memhook.truncated"));
    }
  }

  @Test
  void aPromptThatIsAllPrivate_isStoredAsAPrivatePrompt() {
    try (MemoryService memory =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build()) {
      assertEquals(
          ObserveResult.ACCEPTED,
          memory.capture().observe(prompt("s1", 0, "<private>my salary is 120k</private>")));
      flush(memory);

      assertEquals(0, memory.capture().stats().failed(), "the pipeline stored it");
      List<Memory> stored = observations(memory);
      assertEquals(1, stored.size());
      assertEquals("PromptSubmit\nprompt: [private]", stored.get(0).content());
    }
  }
}
