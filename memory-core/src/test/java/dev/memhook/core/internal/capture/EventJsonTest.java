package dev.memhook.core.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reading the JSON a hook script posts: the shape, the aliases, and each field's faults. */
class EventJsonTest {

  /** Parses and validates, as observeJson does. */
  static LifecycleEvent observe(String json) {
    LifecycleEvent event = EventJson.parse(json);
    EventValidation.check(event);
    return event;
  }

  static void assertRejected(String json, String messageStart) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> observe(json), json);
    assertTrue(
        e.getMessage().startsWith(messageStart),
        () -> "expected '" + messageStart + "…' for " + json + ", got: " + e.getMessage());
  }

  @Test
  void fullEvent_readsEveryField_andKeepsStructuredInputAsCompactJson() {
    LifecycleEvent e =
        observe(
            """
            {"hookType": "PostToolUse", "sessionId": "s-1", "project": "shop", "cwd": "/src/shop",
             "timestamp": "2026-11-30T10:15:00.123456789Z", "eventId": "e-9",
             "unknown": {"deep": [1, 2, {"x": null}]},
             "data": {"toolName": "Bash", "input": {"command": "ls -la", "args": [1, 2.50, true, null]},
                      "output": 42, "prompt": null, "error": "", "agentName": "helper",
                      "message": "done", "extra": "ignored"}}
            """);
    assertEquals(LifecycleEventType.POST_TOOL_USE, e.type());
    assertEquals("s-1", e.sessionId());
    assertEquals("shop", e.project());
    assertEquals("/src/shop", e.cwd());
    assertEquals(Instant.parse("2026-11-30T10:15:00.123456789Z"), e.timestamp());
    assertEquals("e-9", e.eventId());
    assertEquals(
        new EventData(
            "Bash",
            "{\"command\":\"ls -la\",\"args\":[1,2.50,true,null]}",
            "42",
            null,
            "",
            "helper",
            "done",
            null),
        e.data());
  }

  @Test
  void claudeCodeShape_isReadThroughItsSnakeCaseNames() {
    LifecycleEvent e =
        observe(
            """
            {"hook_event_name": "PostToolUse", "session_id": "abc", "cwd": "/w",
             "transcript_path": "/t.jsonl", "tool_name": "Read",
             "tool_input": {"file_path": "/w/a.txt"}, "tool_response": "text", "event_id": "7"}
            """);
    assertEquals(LifecycleEventType.POST_TOOL_USE, e.type());
    assertEquals("abc", e.sessionId());
    assertEquals("7", e.eventId());
    assertEquals(EventData.tool("Read", "{\"file_path\":\"/w/a.txt\"}", "text"), e.data());
    assertNull(e.timestamp());
  }

  @Test
  void claudeCodePromptSubmit_isReadThroughItsAlias() {
    LifecycleEvent e =
        observe(
            "{\"hook_event_name\":\"UserPromptSubmit\",\"session_id\":\"a\",\"prompt\":\"hi\"}");
    assertEquals(LifecycleEventType.PROMPT_SUBMIT, e.type());
    assertEquals("hi", e.data().prompt());
  }

  @Test
  void bothTimestampForms_giveTheSameInstant() {
    String base = "{\"hookType\":\"SessionStart\",\"sessionId\":\"s\",\"timestamp\":";
    Instant iso = observe(base + "\"2026-11-30T10:15:00.123Z\"}").timestamp();
    Instant millis = observe(base + "1796033700123}").timestamp();
    Instant offset = observe(base + "\"2026-11-30T11:15:00.123+01:00\"}").timestamp();
    assertEquals(Instant.parse("2026-11-30T10:15:00.123Z"), iso);
    assertEquals(iso, millis);
    assertEquals(iso, offset);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no hookType|{\"sessionId\":\"s\"}|hookType is missing; expected one of SessionStart,",
        "null hookType|{\"hookType\":null,\"sessionId\":\"s\"}|hookType is missing",
        "no sessionId|{\"hookType\":\"SessionEnd\"}|sessionId is missing",
        "blank sessionId|{\"hookType\":\"SessionEnd\",\"sessionId\":\" \"}|sessionId must not be blank",
        "PromptSubmit without prompt|{\"hookType\":\"PromptSubmit\",\"sessionId\":\"s\"}|data.prompt is required for PromptSubmit",
        "PreToolUse without tool|{\"hookType\":\"PreToolUse\",\"sessionId\":\"s\",\"data\":{}}|data.toolName is required for PreToolUse",
        "PostToolUse without tool|{\"hookType\":\"PostToolUse\",\"sessionId\":\"s\",\"data\":{\"output\":1}}|data.toolName is required for PostToolUse",
        "ToolFailure without tool|{\"hookType\":\"ToolFailure\",\"sessionId\":\"s\",\"data\":{\"error\":\"x\"}}|data.toolName is required for ToolFailure",
        "ToolFailure without error|{\"hookType\":\"ToolFailure\",\"sessionId\":\"s\",\"data\":{\"toolName\":\"t\"}}|data.error is required for ToolFailure",
        "AgentResponse without message|{\"hookType\":\"Stop\",\"sessionId\":\"s\"}|data.message is required for AgentResponse",
        "SubagentStart without agent|{\"hookType\":\"SubagentStart\",\"sessionId\":\"s\"}|data.agentName is required for SubagentStart",
        "SubagentStop without agent|{\"hookType\":\"SubagentStop\",\"sessionId\":\"s\"}|data.agentName is required for SubagentStop",
        "blank tool name|{\"hookType\":\"PreToolUse\",\"sessionId\":\"s\",\"data\":{\"toolName\":\"\"}}|data.toolName must not be blank",
        "blank project|{\"hookType\":\"SessionStart\",\"sessionId\":\"s\",\"project\":\"\"}|project must not be blank",
      })
  void missingOrBlankRequiredField_isRejectedNamingIt(String name, String json, String message) {
    assertRejected(json, message);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "hookType|1|hookType must be a string, got a number",
        "sessionId|5|sessionId must be a string, got a number",
        "project|true|project must be a string, got a boolean",
        "cwd|[]|cwd must be a string, got an array",
        "eventId|{}|eventId must be a string, got an object",
        "timestamp|true|timestamp must be an ISO-8601 instant string or a whole number",
        "timestamp|{}|timestamp must be an ISO-8601 instant string or a whole number",
        "data|\"x\"|data must be an object, got a string",
        "data|[]|data must be an object, got an array",
      })
  void wrongTypeAtTheTop_isRejectedNamingTheField(String field, String value, String message) {
    String json = "{\"hookType\":\"SessionStart\",\"sessionId\":\"s\"}";
    json =
        field.equals("hookType") || field.equals("sessionId")
            ? json.replaceFirst("\"" + field + "\":\"[^\"]*\"", "\"" + field + "\":" + value)
            : json.replace("}", ",\"" + field + "\":" + value + "}");
    assertRejected(json, message);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "toolName|1|data.toolName must be a string, got a number",
        "prompt|{}|data.prompt must be a string, got an object",
        "error|[]|data.error must be a string, got an array",
        "agentName|false|data.agentName must be a string, got a boolean",
        "message|1.5|data.message must be a string, got a number",
        "tool_name|2|data.tool_name must be a string, got a number",
      })
  void wrongTypeInData_isRejectedNamingThePath(String field, String value, String message) {
    assertRejected(
        "{\"hookType\":\"SessionStart\",\"sessionId\":\"s\",\"data\":{\""
            + field
            + "\":"
            + value
            + "}}",
        message);
  }

  @Test
  void unknownHookType_isRejectedListingTheValidNames() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EventJson.parse("{\"hookType\":\"Teleport\",\"sessionId\":\"s\"}"));
    assertTrue(e.getMessage().startsWith("hookType 'Teleport' is not a known hook type"));
    for (LifecycleEventType type : LifecycleEventType.values()) {
      assertTrue(e.getMessage().contains(type.wireName()), e.getMessage());
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "\"yesterday\"|timestamp 'yesterday' is not an ISO-8601 instant",
        "\"2026-13-01T00:00:00Z\"|timestamp '2026-13-01T00:00:00Z' is not an ISO-8601 instant",
        "\"2026-11-30\"|timestamp '2026-11-30' is not an ISO-8601 instant",
        "1.7e12|timestamp must be an ISO-8601 instant string or a whole number of epoch milliseconds,"
            + " got the number 1.7e12",
        "99999999999999999999999|timestamp must be an ISO-8601 instant string or a whole number",
        "-1|timestamp must lie in the years 1970 to 9999",
        "253402300800000|timestamp must lie in the years 1970 to 9999",
        "\"1969-12-31T23:59:59Z\"|timestamp must lie in the years 1970 to 9999",
      })
  void badTimestamp_isRejectedNamingIt(String value, String message) {
    assertRejected(
        "{\"hookType\":\"SessionStart\",\"sessionId\":\"s\",\"timestamp\":" + value + "}", message);
  }

  @Test
  void aFieldGivenUnderTwoNames_isRejectedAsAmbiguous() {
    assertRejected(
        "{\"hookType\":\"SessionStart\",\"hook_event_name\":\"SessionEnd\",\"sessionId\":\"s\"}",
        "hookType is given twice, as hookType and as hook_event_name");
    assertRejected(
        "{\"hookType\":\"PreToolUse\",\"sessionId\":\"s\",\"tool_name\":\"a\","
            + "\"data\":{\"toolName\":\"b\"}}",
        "data.toolName is given twice, as tool_name and as data.toolName");
  }

  @Test
  void overlongFields_areRejectedWithTheLimit() {
    assertRejected(
        "{\"hookType\":\"SessionStart\",\"sessionId\":\"" + "s".repeat(201) + "\"}",
        "sessionId must be at most 200 characters, got 201");
    assertRejected(
        "{\"hookType\":\"SessionStart\",\"sessionId\":\"s\",\"cwd\":\"" + "c".repeat(501) + "\"}",
        "cwd must be at most 500 characters, got 501");
    assertRejected(
        "{\"hookType\":\"SessionStart\",\"sessionId\":\"s\",\"eventId\":\""
            + "e".repeat(201)
            + "\"}",
        "eventId must be at most 200 characters, got 201");
  }
}
