package dev.memhook.api.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a tool call is shown as text (a tool-call message's text, {@code ToolCall.toString()}): as a
 * map shows itself, and cut at a bounded depth, so a call nested without end never overflows the
 * stack of whoever renders it.
 */
class ToolCallRenderingTest {

  private static final int DEEP = 10_000;

  /** {@code {"k": {"k": … {}}}} nested {@code levels} maps deep, the outermost included. */
  private static Map<String, Object> nestedMaps(int levels) {
    Map<String, Object> root = new LinkedHashMap<>();
    Map<String, Object> current = root;
    for (int i = 1; i < levels; i++) {
      Map<String, Object> next = new LinkedHashMap<>();
      current.put("k", next);
      current = next;
    }
    return root;
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
      n++;
    }
    return n;
  }

  @Test
  void toolCallMessage_ofShallowArguments_showsThemAsAMapDoes() {
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("module", "billing");
    args.put("flags", List.of("-q", 3, true));
    args.put("env", Map.of("CI", "1"));
    args.put("none", null);

    ChatMessage m = ChatMessage.toolCall(ToolCall.of("run_tests", args), MessageOrigin.MODEL);

    assertEquals(
        "run_tests {module=billing, flags=[-q, 3, true], env={CI=1}, none=null}", m.text());
  }

  @Test
  void toolCallMessage_ofArgumentsNestedTenThousandMapsDeep_showsThemCutAtABoundedDepth() {
    ToolCall call = ToolCall.of("deep", nestedMaps(DEEP));

    String text = ChatMessage.toolCall(call, MessageOrigin.MODEL).text();

    assertTrue(text.startsWith("deep {k={k="), text.substring(0, 40));
    assertEquals(ArgumentsText.MAX_DEPTH, count(text, "{k="), "maps written out");
    assertEquals(1, count(text, "{…}"), "the deeper rest is shown as one cut map");
    assertTrue(text.endsWith("{…}" + "}".repeat(ArgumentsText.MAX_DEPTH)), "brackets balance");
  }

  @Test
  void toString_ofACallNestedTenThousandListsDeep_showsItCutAtABoundedDepth() {
    List<Object> root = new ArrayList<>();
    List<Object> current = root;
    for (int i = 1; i < DEEP; i++) {
      List<Object> next = new ArrayList<>();
      current.add(next);
      current = next;
    }
    ToolCall call = new ToolCall("call_1", "deep", Map.of("list", root));

    String text = call.toString();

    assertEquals(
        "ToolCall[id=call_1, toolName=deep, arguments={list="
            + "[".repeat(ArgumentsText.MAX_DEPTH - 1)
            + "[…]"
            + "]".repeat(ArgumentsText.MAX_DEPTH - 1)
            + "}]",
        text);
  }

  @Test
  void toolCallMessage_ofAMapThatContainsItself_isShownCut() {
    Map<String, Object> loop = new LinkedHashMap<>();
    loop.put("self", loop);

    String text =
        ChatMessage.toolCall(ToolCall.of("loop", Map.of("a", loop)), MessageOrigin.MODEL).text();

    assertEquals(1, count(text, "{…}"), text);
  }
}
