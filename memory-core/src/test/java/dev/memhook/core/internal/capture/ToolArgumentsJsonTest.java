package dev.memhook.core.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.memhook.api.MemoryDraft;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A tool call's arguments as capture records them: JSON as Jackson writes it, cut at capture's JSON
 * depth, so arguments nested ten thousand levels deep are written without overflowing the stack and
 * read back as JSON.
 */
class ToolArgumentsJsonTest {

  private static final ObjectMapper READER = new ObjectMapper(CaptureJson.FACTORY);

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

  @Test
  void shallowArguments_areWrittenAsJson() {
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("module", "billing \"core\"");
    args.put("n", 3);
    args.put("ratio", 0.5);
    args.put("exact", new BigDecimal("1.10"));
    args.put("ok", true);
    args.put("none", null);
    args.put("list", List.of(1, "a", List.of()));
    args.put("nan", Double.NaN);

    assertEquals(
        "{\"module\":\"billing \\\"core\\\"\",\"n\":3,\"ratio\":0.5,\"exact\":1.10,\"ok\":true,"
            + "\"none\":null,\"list\":[1,\"a\",[]],\"nan\":\"NaN\"}",
        ToolArgumentsJson.of(args));
  }

  @Test
  void argumentsNestedTenThousandMapsDeep_areCutAtCapturesJsonDepth_andReadBackAsJson()
      throws Exception {
    String json = ToolArgumentsJson.of(nestedMaps(10_000));

    JsonNode node = READER.readTree(json);
    int depth = 0;
    while (node.isObject()) {
      depth++;
      node = node.get("k");
    }
    assertEquals(CaptureJson.MAX_DEPTH, depth, "objects written out");
    assertEquals(MemoryDraft.CUT_MARKER, node.textValue(), "the deeper rest is one cut marker");
  }

  @Test
  void aSetAndAnArray_areWrittenAsArrays_andAListThatContainsItselfIsCut() throws Exception {
    List<Object> loop = new ArrayList<>();
    loop.add(loop);
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("set", Set.of("x"));
    args.put("array", new Object[] {1, "y"});
    args.put("loop", loop);

    JsonNode node = READER.readTree(ToolArgumentsJson.of(args));

    assertEquals("[\"x\"]", node.get("set").toString());
    assertEquals("[1,\"y\"]", node.get("array").toString());
    JsonNode loopNode = node.get("loop");
    int arrays = 0;
    while (loopNode.isArray()) {
      arrays++;
      loopNode = loopNode.get(0);
    }
    assertEquals(CaptureJson.MAX_DEPTH - 1, arrays, "arrays below the arguments object");
    assertEquals(MemoryDraft.CUT_MARKER, loopNode.textValue());
  }
}
