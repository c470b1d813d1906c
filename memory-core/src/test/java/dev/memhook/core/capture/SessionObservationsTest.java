package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code MemoryCapture.observations}: a session's stored observations, as a timeline shows them.
 */
class SessionObservationsTest {

  @TempDir Path dir;

  @Test
  void observations_areTheSessionsOwn_inTimeOrder_withoutForgottenOnes() {
    try (MemoryService memory =
        Memhook.builder()
            .directory(dir)
            .embedder(HashingEmbedder.create())
            .capture(CaptureOptions.builder().consolidateOnDemandOnly().build())
            .build()) {
      // delivered out of order: the timeline is by the time the events happened
      memory.capture().observe(prompt("s1", 5, "Then run the billing tests."));
      memory.capture().observe(prompt("s1", 1, "First rename the payment gateway client."));
      memory.capture().observe(prompt("s2", 2, "An unrelated session about the docs site."));
      flush(memory);

      List<Memory> s1 = memory.capture().observations("s1");
      assertEquals(2, s1.size(), s1.toString());
      assertTrue(s1.get(0).content().contains("rename the payment gateway"), s1.toString());
      assertTrue(s1.get(1).content().contains("billing tests"), s1.toString());
      assertTrue(s1.stream().allMatch(m -> m.type() == MemoryType.OBSERVATION));
      assertTrue(s1.stream().allMatch(m -> "s1".equals(m.sourceSession())), s1.toString());
      assertEquals(1, memory.capture().observations("s2").size());
      assertEquals(List.of(), memory.capture().observations("no-such-session"));

      assertTrue(memory.forget(s1.get(0).id()));
      assertEquals(List.of(s1.get(1)), memory.capture().observations("s1"));
    }
  }

  @Test
  void aServiceThatCapturesNothing_hasNoObservations_andAClosedOneRefuses() {
    MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).noCapture().build();
    assertEquals(List.of(), memory.capture().observations("s1"));
    assertThrows(NullPointerException.class, () -> memory.capture().observations(null));
    memory.close();
    assertThrows(IllegalStateException.class, () -> memory.capture().observations("s1"));
  }
}
