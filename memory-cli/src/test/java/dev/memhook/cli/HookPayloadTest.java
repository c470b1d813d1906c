package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.capture.LifecycleEventType;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** HookPayload: Gemini CLI's event names are read as the events they name. */
class HookPayloadTest {
  private static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");

  @Test
  void geminiEvents_areReadAsTheEventsTheyName_underClaudeCodesNames() throws Exception {
    Map<String, LifecycleEventType> expected =
        Map.of(
            "BeforeAgent", LifecycleEventType.PROMPT_SUBMIT,
            "BeforeTool", LifecycleEventType.PRE_TOOL_USE,
            "AfterTool", LifecycleEventType.POST_TOOL_USE,
            "PreCompress", LifecycleEventType.PRE_COMPACT,
            "SessionStart", LifecycleEventType.SESSION_START,
            "SessionEnd", LifecycleEventType.SESSION_END);
    for (Map.Entry<String, LifecycleEventType> e : expected.entrySet()) {
      HookPayload.Prepared p = HookPayload.prepare(payload(e.getKey(), ""), NOW);
      assertEquals(e.getValue(), p.type(), e.getKey());
      assertEquals(e.getKey(), p.wireName(), "the answer names the agent's own event");
    }
    HookPayload.Prepared after =
        HookPayload.prepare(
            payload("AfterAgent", ",\"prompt\":\"why?\",\"prompt_response\":\"Because of X.\""),
            NOW);
    assertEquals(LifecycleEventType.AGENT_RESPONSE, after.type());
    ObjectNode event = after.event().orElseThrow();
    assertEquals("Stop", event.path("hook_event_name").asText());
    assertEquals("Because of X.", event.at("/data/message").asText());
    assertEquals("2026-12-02T11:59:59Z", event.path("timestamp").asText(), "the agent's time kept");
  }

  private static ObjectNode payload(String event, String more) throws Exception {
    return (ObjectNode)
        JsonRecords.MAPPER.readTree(
            "{\"session_id\":\"g-1\",\"transcript_path\":\"/nowhere\",\"cwd\":\"/home/dev/shop\","
                + "\"timestamp\":\"2026-12-02T11:59:59Z\",\"hook_event_name\":\""
                + event
                + "\""
                + more
                + "}");
  }
}
