package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.capture.LifecycleEventType;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** HookPayload: Gemini CLI's event names and Codex's payloads are read as Claude Code's. */
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

  @Test
  void codexCompactionAndSubagentPayloads_areReadAsClaudeCodes() throws Exception {
    // the fields of Codex's own pre-compact and subagent-stop input schemas, transcript null
    ObjectNode compact =
        (ObjectNode)
            JsonRecords.MAPPER.readTree(
                "{\"session_id\":\"c-1\",\"turn_id\":\"t-3\",\"model\":\"gpt-5\","
                    + "\"cwd\":\"/home/dev/shop\",\"transcript_path\":null,"
                    + "\"hook_event_name\":\"PreCompact\",\"trigger\":\"auto\"}");
    HookPayload.Prepared p = HookPayload.prepare(compact, NOW);
    assertEquals(LifecycleEventType.PRE_COMPACT, p.type());
    assertEquals("shop", p.event().orElseThrow().path("project").asText());

    ObjectNode subagent =
        (ObjectNode)
            JsonRecords.MAPPER.readTree(
                "{\"session_id\":\"c-1\",\"turn_id\":\"t-4\",\"model\":\"gpt-5\","
                    + "\"cwd\":\"/home/dev/shop\",\"transcript_path\":null,"
                    + "\"hook_event_name\":\"SubagentStop\",\"agent_id\":\"a-7\","
                    + "\"agent_type\":\"reviewer\",\"agent_transcript_path\":null,"
                    + "\"last_assistant_message\":\"The diff is fine.\","
                    + "\"permission_mode\":\"default\",\"stop_hook_active\":false}");
    HookPayload.Prepared s = HookPayload.prepare(subagent, NOW);
    assertEquals(LifecycleEventType.SUBAGENT_STOP, s.type());
    assertEquals("reviewer", s.event().orElseThrow().at("/data/agentName").asText());
    assertEquals(
        "The diff is fine.",
        s.event().orElseThrow().at("/data/message").asText(),
        "the subagent's report is what its stop keeps");
  }

  @Test
  void aSubagentStopWithoutItsReport_readsItFromTheSubagentsTranscript_orIsKeptWithout(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path transcript = dir.resolve("agent.jsonl");
    java.nio.file.Files.writeString(
        transcript,
        "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":"
            + "[{\"type\":\"text\",\"text\":\"Two tests fail in CartTest.\"}]}}\n");
    ObjectNode fromTranscript =
        payload(
            "SubagentStop",
            ",\"agent_type\":\"tester\",\"agent_transcript_path\":\""
                + transcript.toString().replace("\\", "\\\\")
                + "\"");
    assertEquals(
        "Two tests fail in CartTest.",
        HookPayload.prepare(fromTranscript, NOW)
            .event()
            .orElseThrow()
            .at("/data/message")
            .asText());

    ObjectNode without = payload("SubagentStop", ",\"agent_id\":\"a-9\"");
    ObjectNode kept = HookPayload.prepare(without, NOW).event().orElseThrow();
    assertEquals("a-9", kept.at("/data/agentName").asText());
    assertTrue(kept.at("/data/message").isMissingNode());
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
