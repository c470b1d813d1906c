package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.capture.LifecycleEventType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cursor's and GitHub Copilot's payloads, as their documentation gives them (test resources {@code
 * agents/<agent>/<event>.json}), each beside the payload Claude Code sends for the same event
 * ({@code <event>.claude.json}): translated, they complete into the same event for capture, field
 * for field of what {@code observeJson} reads; the answers take each agent's shape; the events
 * Memhook cannot read are refused saying why.
 */
class AgentPayloadsTest {
  /** Every field of a completed event that capture reads ({@code EventJson}), but the time. */
  private static final List<String> READ_BY_CAPTURE =
      List.of(
          "/hook_event_name",
          "/session_id",
          "/project",
          "/cwd",
          "/eventId",
          "/tool_name",
          "/tool_input",
          "/tool_response",
          "/prompt",
          "/error",
          "/data/agentName",
          "/data/message");

  static Stream<Arguments> fixtures() {
    return Stream.of(
            Stream.of(
                    "sessionStart",
                    "beforeSubmitPrompt",
                    "preToolUse",
                    "postToolUse",
                    "postToolUseFailure",
                    "afterAgentResponse",
                    "preCompact",
                    "subagentStop",
                    "sessionEnd",
                    "beforeShellExecution",
                    "afterShellExecution",
                    "beforeMCPExecution",
                    "afterMCPExecution",
                    "beforeReadFile",
                    "afterFileEdit")
                .map(e -> Arguments.of("cursor", e)),
            Stream.of(
                    "sessionStart",
                    "userPromptSubmitted",
                    "preToolUse",
                    "postToolUse",
                    "postToolUseFailure",
                    "preCompact",
                    "subagentStop",
                    "sessionEnd")
                .map(e -> Arguments.of("copilot", e)))
        .flatMap(s -> s);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("fixtures")
  void eachEvent_completesAsTheClaudeCodePayloadOfTheSameEventDoes(String agent, String event)
      throws IOException {
    // Cursor's payloads name their event; the installed hook names it anyway, and so does this
    HookOrigin origin = HookOrigin.of(agent, event);
    assertSameForCapture(
        agent + " " + event,
        prepare(resource(agent + "/" + event + ".claude.json"), HookOrigin.DEFAULT),
        prepare(resource(agent + "/" + event + ".json"), origin));
  }

  @Test
  void cursorsPayload_namesItsOwnEvent_whenTheHookDoesNot() throws IOException {
    assertSameForCapture(
        "cursor postToolUse",
        prepare(resource("cursor/postToolUse.claude.json"), HookOrigin.DEFAULT),
        prepare(resource("cursor/postToolUse.json"), HookOrigin.of("cursor", null)));
  }

  @Test
  void copilotsTimestamp_inEpochMilliseconds_isKeptAsAnInstant() throws IOException {
    ObjectNode event =
        prepare(resource("copilot/postToolUse.json"), HookOrigin.of("copilot", "postToolUse"));
    assertEquals(Instant.ofEpochMilli(1764669603000L).toString(), event.path("timestamp").asText());
  }

  @Test
  void copilotsVsCodeCompatibleFormat_isClaudeCodesButForTheToolResult() throws IOException {
    assertSameForCapture(
        "copilot PostToolUse (VS Code format)",
        prepare(resource("copilot/vscode/PostToolUse.claude.json"), HookOrigin.DEFAULT),
        prepare(resource("copilot/vscode/PostToolUse.json"), HookOrigin.of("copilot", null)));
  }

  @Test
  void fieldsCaptureDoesNotRead_areNotCarriedOver() throws IOException {
    JsonNode cursor =
        AgentPayloads.toClaude(
            HookOrigin.of("cursor", "beforeReadFile"), resource("cursor/beforeReadFile.json"));
    assertFalse(cursor.toString().contains("dev@example.com"), cursor.toString());
    assertFalse(cursor.toString().contains("class PriceCalculator"), "the file's content");
    assertFalse(cursor.toString().contains("README.md"), "the attachments");
  }

  @Test
  void eventsWithoutWhatCaptureNeeds_areRefused_sayingWhy() {
    JsonNode empty = JsonRecords.MAPPER.createObjectNode().put("conversation_id", "c-1");
    IllegalArgumentException stop =
        assertThrows(
            IllegalArgumentException.class,
            () -> AgentPayloads.toClaude(HookOrigin.of("cursor", "stop"), empty));
    assertTrue(stop.getMessage().contains("afterAgentResponse"), stop.getMessage());
    for (String copilot : List.of("agentStop", "errorOccurred", "notification")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> AgentPayloads.toClaude(HookOrigin.of("copilot", copilot), empty));
      assertTrue(e.getMessage().contains(copilot), e.getMessage());
    }
    IllegalArgumentException unnamed =
        assertThrows(
            IllegalArgumentException.class,
            () -> AgentPayloads.toClaude(HookOrigin.of("copilot", null), empty));
    assertTrue(unnamed.getMessage().contains("names no event"), unnamed.getMessage());
  }

  @Test
  void anUnknownAgent_isAClearError_namingTheKnownOnes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> HookOrigin.of("windsurf", null));
    assertEquals(
        "unknown agent 'windsurf'; expected one of claude-code, codex, gemini, copilot, cursor",
        e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> HookOrigin.fromQuery("scope=x&agent=windsurf"));
    assertEquals(
        new HookOrigin(CodingAgent.COPILOT, "preToolUse"),
        HookOrigin.fromQuery("scope=me%2Fshop&agent=copilot&event=preToolUse"));
    assertEquals(HookOrigin.DEFAULT, HookOrigin.fromQuery("scope=me%2Fshop"));
  }

  @Test
  void answers_takeEachAgentsShape_andOnlyWhereTheAgentReadsThem() throws IOException {
    assertEquals(
        JsonRecords.MAPPER.readTree("{\"additional_context\":\"- m1\"}"),
        AgentPayloads.answer(CodingAgent.CURSOR, "SessionStart", "- m1"));
    assertEquals(
        JsonRecords.MAPPER.readTree("{\"additionalContext\":\"- m1\"}"),
        AgentPayloads.answer(CodingAgent.COPILOT, "SessionStart", "- m1"));
    assertEquals(
        JsonRecords.MAPPER.readTree(
            "{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\","
                + "\"additionalContext\":\"- m1\"}}"),
        AgentPayloads.answer(CodingAgent.CODEX, "UserPromptSubmit", "- m1"));
    for (CodingAgent agent : CodingAgent.values()) {
      assertTrue(AgentPayloads.answers(agent, LifecycleEventType.SESSION_START), agent.id());
      assertFalse(AgentPayloads.answers(agent, LifecycleEventType.POST_TOOL_USE), agent.id());
    }
    // Cursor's beforeSubmitPrompt can only allow or block; Copilot drops a prompt hook's output
    assertFalse(AgentPayloads.answers(CodingAgent.CURSOR, LifecycleEventType.PROMPT_SUBMIT));
    assertFalse(AgentPayloads.answers(CodingAgent.COPILOT, LifecycleEventType.PROMPT_SUBMIT));
    assertTrue(AgentPayloads.answers(CodingAgent.CLAUDE_CODE, LifecycleEventType.PROMPT_SUBMIT));
  }

  private static ObjectNode prepare(JsonNode payload, HookOrigin origin) {
    HookPayload.Prepared prepared =
        HookPayload.prepare(AgentPayloads.toClaude(origin, payload), Instant.now());
    return prepared.event().orElseThrow(() -> new AssertionError("not capturable: " + payload));
  }

  private static void assertSameForCapture(String what, ObjectNode claude, ObjectNode agent) {
    for (String field : READ_BY_CAPTURE) {
      assertEquals(claude.at(field), agent.at(field), what + ": " + field + " in " + agent);
    }
  }

  static JsonNode resource(String name) throws IOException {
    try (InputStream in = AgentPayloadsTest.class.getResourceAsStream("/agents/" + name)) {
      if (in == null) {
        throw new IOException("no test resource agents/" + name);
      }
      return JsonRecords.MAPPER.readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }
}
