package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.T0;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryService;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** observe rejects an invalid event whole, naming the field, and stores a redelivery once. */
class ObserveValidationTest {

  @TempDir Path dir;

  private static final String VALID =
      "{\"hookType\":\"PostToolUse\",\"sessionId\":\"s1\",\"project\":\"shop\",\"cwd\":\"/w\","
          + "\"timestamp\":\"2026-11-30T10:00:00Z\",\"data\":{\"toolName\":\"Bash\","
          + "\"input\":\"ls\",\"output\":\"pom.xml\"}}";

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("{\"sessionId\":\"s1\",\"project\":\"p\",\"cwd\":\"/w\"}", "hookType"),
        Arguments.of(VALID.replace("\"PostToolUse\"", "\"PostToolAbuse\""), "hookType"),
        Arguments.of(VALID.replace("\"PostToolUse\"", "42"), "hookType"),
        Arguments.of(VALID.replace("\"sessionId\":\"s1\",", ""), "sessionId"),
        Arguments.of(VALID.replace("\"sessionId\":\"s1\"", "\"sessionId\":\"  \""), "sessionId"),
        Arguments.of(VALID.replace("\"sessionId\":\"s1\"", "\"sessionId\":[1]"), "sessionId"),
        Arguments.of(VALID.replace("\"2026-11-30T10:00:00Z\"", "\"yesterday\""), "timestamp"),
        Arguments.of(VALID.replace("\"toolName\":\"Bash\",", ""), "data.toolName"),
        Arguments.of(VALID.replace("\"toolName\":\"Bash\"", "\"toolName\":{}"), "data.toolName"),
        Arguments.of(VALID.replace("\"project\":\"shop\"", "\"project\":7"), "project"),
        Arguments.of(VALID.replace(",\"data\":{", ",\"data\":[{").replace("}}", "}]}"), "data"),
        Arguments.of(VALID.replace("\"shop\"", "\"" + "p".repeat(5_000) + "\""), "project"),
        Arguments.of(
            VALID
                .replace("\"sessionId\":\"s1\"", "\"sessionId\":\"new-one\"")
                .replace("\"project\":\"shop\",\"cwd\":\"/w\",", ""),
            "project and cwd"),
        Arguments.of("[" + VALID + "]", "object"),
        Arguments.of(VALID + " trailing", "nothing after it"),
        Arguments.of("", "empty"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("malformed")
  void aMalformedEvent_isRejectedNamingTheField_andNothingIsStored(String json, String field) {
    try (MemoryService memory = service()) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> memory.capture().observeJson(json));
      assertTrue(e.getMessage().contains(field), "message should name " + field + ": " + e);
      flush(memory);
      CaptureStats stats = memory.capture().stats();
      assertEquals(0, stats.accepted());
      assertEquals(1, stats.rejected());
      assertEquals(0, observations(memory).size());
    }
    try (MemoryService reopened = service()) {
      flush(reopened);
      assertEquals(0, reopened.capture().stats().replayed(), "nothing of it reached the journal");
      assertEquals(0, observations(reopened).size());
    }
  }

  @Test
  void aTypedEventMissingTheDataItsTypeNeeds_isRejectedNamingIt() {
    try (MemoryService memory = service()) {
      LifecycleEvent noPrompt =
          LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, "s1")
              .project("shop")
              .cwd("/w")
              .data(EventData.EMPTY)
              .build();
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> memory.capture().observe(noPrompt));
      assertTrue(e.getMessage().contains("data.prompt"), e.getMessage());
    }
  }

  @Test
  void anEventDeliveredTwice_withoutAnEventId_isStoredOnce() {
    try (MemoryService memory = service()) {
      LifecycleEvent e = postTool("s1", 1, "Bash", "mvn -q test", "BUILD SUCCESS");
      assertEquals(ObserveResult.ACCEPTED, memory.capture().observe(e));
      assertEquals(ObserveResult.DUPLICATE, memory.capture().observe(e));
      flush(memory);
      assertEquals(1, observations(memory).size());
      assertEquals(1, memory.capture().stats().duplicates());
    }
  }

  @Test
  void anEventDeliveredTwice_withTheSameEventId_isStoredOnce_evenAfterAReopen() {
    LifecycleEvent first =
        LifecycleEvent.builder(LifecycleEventType.POST_TOOL_USE, "s1")
            .project("shop")
            .cwd("/w")
            .timestamp(T0)
            .eventId("evt-7")
            .data(EventData.tool("Bash", "mvn test", "BUILD SUCCESS"))
            .build();
    LifecycleEvent retried =
        LifecycleEvent.builder(LifecycleEventType.POST_TOOL_USE, "s1")
            .project("shop")
            .cwd("/w")
            .timestamp(T0.plusSeconds(3))
            .eventId("evt-7")
            .data(EventData.tool("Bash", "mvn test", "BUILD SUCCESS in 4 s"))
            .build();
    try (MemoryService memory = service()) {
      assertEquals(ObserveResult.ACCEPTED, memory.capture().observe(first));
      assertEquals(ObserveResult.DUPLICATE, memory.capture().observe(retried));
      flush(memory);
    }
    try (MemoryService reopened = service()) {
      reopened.capture().observe(retried);
      flush(reopened);
      assertEquals(1, observations(reopened).size());
      assertEquals(1, reopened.capture().stats().duplicatesProcessed());
    }
  }

  private MemoryService service() {
    return Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
  }
}
