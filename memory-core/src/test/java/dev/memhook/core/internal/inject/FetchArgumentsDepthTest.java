package dev.memhook.core.internal.inject;

import static dev.memhook.core.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.trace.FetchRecord;
import dev.memhook.api.trace.MemoryListener;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A model's get_memory call whose arguments nest ten thousand levels deep, in any collection: the
 * tool answers with a structured error, and the fetch record keeps the arguments cut.
 */
class FetchArgumentsDepthTest {

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
  void idsNestedTenThousandMapsDeepInASet_areAStructuredError_andRecordedCut() throws Exception {
    List<FetchRecord> fetches = new CopyOnWriteArrayList<>();
    HookOptions options =
        HookOptions.builder()
            .listener(
                new MemoryListener() {
                  @Override
                  public void fetched(FetchRecord fetch) {
                    fetches.add(fetch);
                  }
                })
            .build();
    GetMemoryTool tool = new GetMemoryTool(new MapStore(), options);
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("ids", Set.of(nestedMaps(10_000)));
    args.put("summary", true);

    ToolResult result = ToolFixtures.call(tool, args);

    assertTrue(result.error(), result.content());
    assertTrue(result.content().contains("invalid_arguments"), result.content());
    eventually(() -> assertEquals(1, fetches.size(), "the fetch is recorded"));
    assertEquals("[{k={k={k=…}}}]", String.valueOf(fetches.get(0).arguments().get("ids")));
  }
}
