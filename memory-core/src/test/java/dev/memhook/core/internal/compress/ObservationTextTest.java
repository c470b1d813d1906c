package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEventType;
import org.junit.jupiter.api.Test;

/** The stored text of an observation: header line, then labelled parts in a fixed order. */
class ObservationTextTest {

  @Test
  void toolEvent_rendersHeaderWithTool_thenInputAndOutput() {
    assertEquals(
        "PostToolUse Bash\ninput: {\"command\":\"mvn test\"}\noutput: BUILD SUCCESS",
        ObservationText.render(
            LifecycleEventType.POST_TOOL_USE,
            "Bash",
            EventData.tool("Bash", "{\"command\":\"mvn test\"}", "BUILD SUCCESS")));
  }

  @Test
  void prompt_rendersHeaderWithoutTool_andLeavesAbsentAndBlankPartsOut() {
    assertEquals(
        "PromptSubmit\nprompt: I prefer tabs.",
        ObservationText.render(
            LifecycleEventType.PROMPT_SUBMIT,
            null,
            new EventData(null, "  ", null, "I prefer tabs.", null, null, null, null)));
  }

  @Test
  void everyPart_appearsInTheFixedOrder() {
    EventData all = new EventData("T", "in", "out", "p", "err", "agent-1", "msg", null);
    assertEquals(
        "ToolFailure T\nagent: agent-1\nprompt: p\ninput: in\noutput: out\nerror: err\nmessage: msg",
        ObservationText.render(LifecycleEventType.TOOL_FAILURE, "T", all));
  }

  @Test
  void toolNameWithLineBreaks_staysOnTheHeaderLine() {
    assertEquals("PreToolUse a b", ObservationText.header(LifecycleEventType.PRE_TOOL_USE, "a\nb"));
  }

  @Test
  void part_readsBackMultiLinePartsUntilTheNextLabel() {
    String text =
        ObservationText.render(
            LifecycleEventType.TOOL_FAILURE,
            "Bash",
            EventData.toolFailure("Bash", "line one\nline two", "Exit code 1\nboom"));
    assertEquals("line one\nline two", ObservationText.part(text, "input"));
    assertEquals("Exit code 1\nboom", ObservationText.part(text, "error"));
    assertEquals("", ObservationText.part(text, "output"));
    assertThrows(IllegalArgumentException.class, () -> ObservationText.part(text, "nope"));
  }
}
