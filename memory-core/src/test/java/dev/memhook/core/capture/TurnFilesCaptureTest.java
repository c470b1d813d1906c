package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A captured conversation turn keeps the file paths it names, so the graph signal links it to the
 * edits and commands about those files, while its text stays what was said.
 */
class TurnFilesCaptureTest {

  private static MemoryService service() {
    return Memhook.builder()
        .inMemory()
        .embedder(HashingEmbedder.create())
        .capture(CaptureOptions.builder().scope(Scope.of("shop")).build())
        .build();
  }

  @Test
  void aPromptNamingAPath_isStoredWithThatFile_andNoCompressedText() {
    String said = "Please keep the totals in src/main/java/shop/Cart.java as long cents.";
    try (MemoryService memory = service()) {
      memory.capture().observe(prompt("s1", 0, said));
      flush(memory);
      Memory turn = observations(memory).get(0);
      assertEquals(said, turn.content());
      assertEquals(List.of("src/main/java/shop/Cart.java"), turn.files());
      assertEquals(List.of(), turn.concepts());
      assertEquals(Map.of(), turn.attributes());
    }
  }
}
