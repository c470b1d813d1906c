package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.T0;
import static dev.memhook.core.capture.CaptureFixtures.all;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static dev.memhook.core.capture.CaptureFixtures.sessionEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Origin, as the capture issue asks: each observation records how its content entered (here a tool,
 * with its name), with its capture time and its event time; the origin flows into the memories
 * consolidated from it; and all of it is shown by a full {@code get_memory} fetch.
 */
class CaptureOriginTest {

  /** The service's clock: when {@code observe} accepts an event and when memories are stored. */
  private static final Instant NOW = Instant.parse("2026-12-01T09:00:00Z");

  private static final String FAILED =
      """
      [INFO] Running dev.example.CalculatorTest
      [ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0 <<< FAILURE! -- in dev.example.CalculatorTest
      [ERROR] dev.example.CalculatorTest.addsNegativeNumbers <<< FAILURE!
      org.opentest4j.AssertionFailedError: expected: <-3> but was: <3>
      [INFO] BUILD FAILURE
      """;

  private static final String PASSED =
      """
      [INFO] Running dev.example.CalculatorTest
      [INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0 -- in dev.example.CalculatorTest
      [INFO] BUILD SUCCESS
      """;

  private static final String EDIT =
      "{\"file_path\":\"/work/shop/src/main/java/dev/example/Calculator.java\","
          + "\"old_string\":\"return Math.abs(a) + b;\",\"new_string\":\"return a + b;\"}";

  @Test
  void aToolObservation_fetchedInFull_showsItsToolOrigin_captureTime_andEventTime()
      throws Exception {
    try (MemoryService memory = service()) {
      memory.capture().observe(postTool("s1", 5, "Bash", "{\"command\":\"mvn test\"}", PASSED));
      flush(memory);
      Memory observation = observations(memory).get(0);
      assertEquals(Origin.tool("Bash"), observation.origin());
      assertEquals(T0.plusSeconds(5), observation.occurredAt());
      assertEquals(NOW, observation.createdAt());

      JsonNode full = fetchInFull(memory, observation.id());
      assertEquals("tool:Bash", full.get("origin").asText());
      assertEquals(T0.plusSeconds(5).toString(), full.get("occurredAt").asText());
      assertEquals(NOW.toString(), full.get("createdAt").asText());
      assertEquals("s1", full.get("session").asText());
    }
  }

  @Test
  void aMemoryConsolidatedFromToolObservations_carriesTheirToolOrigin_shownInAFullFetch()
      throws Exception {
    try (MemoryService memory = service()) {
      memory.capture().observe(postTool("s1", 0, "Bash", "{\"command\":\"mvn test\"}", FAILED));
      memory.capture().observe(postTool("s1", 10, "Edit", EDIT, "ok"));
      memory.capture().observe(postTool("s1", 20, "Bash", "{\"command\":\"mvn test\"}", PASSED));
      memory.capture().observe(sessionEnd("s1", 30));
      flush(memory);

      List<Memory> bugs = all(memory).stream().filter(m -> m.type() == MemoryType.BUG).toList();
      assertEquals(1, bugs.size(), all(memory).toString());
      Memory bug = bugs.get(0);
      Map<Instant, Memory> byTime = new HashMap<>();
      observations(memory).forEach(o -> byTime.put(o.occurredAt(), o));
      List<String> sources =
          List.of(
              byTime.get(T0).id().value(),
              byTime.get(T0.plusSeconds(10)).id().value(),
              byTime.get(T0.plusSeconds(20)).id().value());
      assertEquals(sources, Arrays.asList(bug.attributes().get("memhook.sources").split(" ")));
      assertEquals(Origin.tool("Bash"), bug.origin(), "the origin of the failure it starts from");
      assertEquals(T0.plusSeconds(20), bug.occurredAt(), "when its last source happened");
      assertEquals(NOW, bug.createdAt());
      assertEquals("s1", bug.sourceSession());

      JsonNode full = fetchInFull(memory, bug.id());
      assertEquals("bug", full.get("type").asText());
      assertEquals("tool:Bash", full.get("origin").asText());
      assertEquals(T0.plusSeconds(20).toString(), full.get("occurredAt").asText());
      assertEquals(NOW.toString(), full.get("createdAt").asText());
      assertEquals("s1", full.get("session").asText());
      assertEquals(
          String.join(" ", sources), full.get("attributes").get("memhook.sources").asText());
    }
  }

  /** What the model reads when it calls the real get_memory for {@code id}. */
  private static JsonNode fetchInFull(MemoryService memory, MemoryId id) throws Exception {
    FakeChatService chat = FakeChatService.create();
    try (MemoryHook hook = memory.hookInto(chat, HookOptions.builder().noCapture().build())) {
      String json =
          chat.callTool("get_memory", Map.of("id", id.value()))
              .toCompletableFuture()
              .get()
              .content();
      return new ObjectMapper().readTree(json);
    }
  }

  private static MemoryService service() {
    return Memhook.builder()
        .inMemory()
        .embedder(HashingEmbedder.create())
        .clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .capture(CaptureOptions.defaults())
        .build();
  }
}
