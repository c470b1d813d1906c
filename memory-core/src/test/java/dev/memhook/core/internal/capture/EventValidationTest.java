package dev.memhook.core.internal.capture;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Typed events: each rule rejects the event whole with a message naming the field. */
class EventValidationTest {

  private static LifecycleEvent.Builder event(LifecycleEventType type) {
    return LifecycleEvent.builder(type, "s-1");
  }

  static Stream<Arguments> invalidEvents() {
    String big = "x".repeat(201);
    return Stream.of(
        Arguments.of(
            event(LifecycleEventType.PROMPT_SUBMIT), "data.prompt is required for PromptSubmit"),
        Arguments.of(
            event(LifecycleEventType.PROMPT_SUBMIT).data(EventData.prompt(" ")),
            "data.prompt is required for PromptSubmit and must not be blank"),
        Arguments.of(
            event(LifecycleEventType.PRE_TOOL_USE).data(EventData.prompt("p")),
            "data.toolName is required for PreToolUse"),
        Arguments.of(
            event(LifecycleEventType.POST_TOOL_USE), "data.toolName is required for PostToolUse"),
        Arguments.of(
            event(LifecycleEventType.TOOL_FAILURE).data(EventData.toolFailure(null, "in", "boom")),
            "data.toolName is required for ToolFailure"),
        Arguments.of(
            event(LifecycleEventType.TOOL_FAILURE).data(EventData.toolFailure("Bash", "in", null)),
            "data.error is required for ToolFailure"),
        Arguments.of(
            event(LifecycleEventType.AGENT_RESPONSE), "data.message is required for AgentResponse"),
        Arguments.of(
            event(LifecycleEventType.SUBAGENT_START).data(EventData.message("m")),
            "data.agentName is required for SubagentStart"),
        Arguments.of(
            event(LifecycleEventType.SUBAGENT_STOP), "data.agentName is required for SubagentStop"),
        Arguments.of(
            LifecycleEvent.builder(LifecycleEventType.SESSION_START, ""),
            "sessionId must not be blank"),
        Arguments.of(
            LifecycleEvent.builder(LifecycleEventType.SESSION_START, "s".repeat(201)),
            "sessionId must be at most 200 characters, got 201"),
        Arguments.of(
            event(LifecycleEventType.SESSION_START).project(" "), "project must not be blank"),
        Arguments.of(
            event(LifecycleEventType.SESSION_START).project(big),
            "project must be at most 200 characters, got 201"),
        Arguments.of(event(LifecycleEventType.SESSION_START).cwd(""), "cwd must not be blank"),
        Arguments.of(
            event(LifecycleEventType.SESSION_START).cwd("c".repeat(501)),
            "cwd must be at most 500 characters, got 501"),
        Arguments.of(
            event(LifecycleEventType.SESSION_START).eventId("\t"), "eventId must not be blank"),
        Arguments.of(
            event(LifecycleEventType.SESSION_START).eventId(big),
            "eventId must be at most 200 characters, got 201"),
        Arguments.of(
            event(LifecycleEventType.POST_TOOL_USE).data(EventData.tool(big, null, null)),
            "data.toolName must be at most 200 characters, got 201"),
        Arguments.of(
            event(LifecycleEventType.SUBAGENT_STOP).data(EventData.agent(big, null)),
            "data.agentName must be at most 200 characters, got 201"),
        Arguments.of(
            event(LifecycleEventType.SESSION_START)
                .timestamp(Instant.parse("1969-12-31T23:59:59.999Z")),
            "timestamp must lie in the years 1970 to 9999, got 1969-12-31T23:59:59.999Z"),
        Arguments.of(
            event(LifecycleEventType.SESSION_START)
                .timestamp(Instant.parse("+10000-01-01T00:00:00Z")),
            "timestamp must lie in the years 1970 to 9999"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalidEvents")
  void invalidEvent_isRejectedNamingTheField(LifecycleEvent.Builder builder, String message) {
    LifecycleEvent event = builder.build();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> EventValidation.check(event));
    assertEquals(true, e.getMessage().startsWith(message), e.getMessage());
  }

  @Test
  void eachHookTypeWithItsRequiredData_isAccepted() {
    EventData all = new EventData("Bash", "in", "out", "prompt", "error", "agent", "message", null);
    for (LifecycleEventType type : LifecycleEventType.values()) {
      assertDoesNotThrow(() -> EventValidation.check(event(type).data(all).build()), type::name);
    }
  }

  @Test
  void bigTextFields_haveNoLimitHere() {
    String huge = "x".repeat(1_000_000);
    assertDoesNotThrow(
        () ->
            EventValidation.check(
                event(LifecycleEventType.TOOL_FAILURE)
                    .data(new EventData("Bash", huge, huge, huge, huge, null, huge, null))
                    .build()));
  }

  @Test
  void timestampsAtTheEdgesOfTheRange_areAccepted() {
    for (Instant at :
        new Instant[] {Instant.EPOCH, Instant.parse("9999-12-31T23:59:59.999999999Z")}) {
      assertDoesNotThrow(
          () ->
              EventValidation.check(event(LifecycleEventType.SESSION_START).timestamp(at).build()));
    }
  }
}
