package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP server's memory_forget tool and a memory made from captured observations: without a
 * choice it forgets nothing and answers with their count and what to pass (the model asks the
 * user); with {@code sources: "forget"} or {@code "keep"} it says every id it removed.
 */
class McpForgetToolTest {
  private static final String TABS = "I prefer tabs over spaces in every Java file of this repo.";

  @TempDir Path dir;
  private TestStore.Consolidated consolidated;

  @BeforeEach
  void seed() {
    TestStore.seed(dir);
    consolidated = TestStore.consolidate(dir, TestStore.ALICE, "s-tabs", TABS);
  }

  @Test
  void withoutAChoice_itAnswersTheCountAndWhatToPass_andForgetsNothing() throws IOException {
    try (MemoryService memory = open()) {
      JsonNode out = ok(forget(memory, Map.of("id", memoryId(), "reason", "wrong")));
      assertEquals(List.of(), strings(out.get("forgotten")));
      assertEquals(1, out.get("sourceCount").asInt());
      String message = out.get("message").asText();
      assertTrue(message.startsWith("nothing was forgotten"), message);
      assertTrue(message.contains("made from 1 observation"), message);
      assertTrue(message.contains("Ask the user"), message);
      assertTrue(message.contains("sources: \"forget\"") && message.contains("\"keep\""), message);
      assertTrue(memory.get(consolidated.memory().id()).isPresent());
      assertTrue(memory.get(consolidated.source().id()).isPresent());
      assertTrue(
          memory.maintenance().forgotten(TestStore.ALICE).isEmpty(), "no audit record either");
    }
  }

  @Test
  void sourcesForget_removesTheMemoryAndItsObservation_andSaysEveryId() throws IOException {
    try (MemoryService memory = open()) {
      JsonNode out = ok(forget(memory, Map.of("id", memoryId(), "sources", "forget")));
      assertEquals(
          List.of(memoryId(), consolidated.source().id().value()), strings(out.get("forgotten")));
      assertEquals(1, out.get("sourceCount").asInt());
      assertFalse(out.get("sourcesKept").asBoolean());
      assertTrue(memory.get(consolidated.memory().id()).isEmpty());
      assertTrue(memory.get(consolidated.source().id()).isEmpty());
      assertEquals("mcp", memory.maintenance().forgotten(TestStore.ALICE).get(0).actor());
    }
  }

  @Test
  void sourcesKeep_removesTheMemoryOnly() throws IOException {
    try (MemoryService memory = open()) {
      JsonNode out = ok(forget(memory, Map.of("id", memoryId(), "sources", "keep")));
      assertEquals(List.of(memoryId()), strings(out.get("forgotten")));
      assertEquals(1, out.get("sourceCount").asInt());
      assertTrue(out.get("sourcesKept").asBoolean());
      assertTrue(memory.get(consolidated.memory().id()).isEmpty());
      assertEquals(consolidated.source(), memory.get(consolidated.source().id()).orElseThrow());
    }
  }

  @Test
  void aMemoryWithoutSources_isForgottenWithoutTheArgument() throws IOException {
    try (MemoryService memory = open()) {
      Memory plain =
          memory.remember(MemoryDraft.of(TestStore.ALICE, "Deploys happen on Tuesdays."));
      JsonNode out = ok(forget(memory, Map.of("id", plain.id().value())));
      assertEquals(List.of(plain.id().value()), strings(out.get("forgotten")));
      assertEquals(0, out.get("sourceCount").asInt());
      assertTrue(memory.get(plain.id()).isEmpty());
    }
  }

  @Test
  void anUnknownSourcesValue_isAToolError_andForgetsNothing() {
    try (MemoryService memory = open()) {
      CallToolResult r = forget(memory, Map.of("id", memoryId(), "sources", "maybe"));
      assertTrue(Boolean.TRUE.equals(r.isError()));
      assertTrue(text(r).contains("'sources' must be \"forget\" or \"keep\""), text(r));
      assertTrue(memory.get(consolidated.memory().id()).isPresent());
    }
  }

  @Test
  void theToolsSchema_offersTheChoice() {
    try (MemoryService memory = open()) {
      SyncToolSpecification spec = spec(memory);
      @SuppressWarnings("unchecked")
      Map<String, Object> properties =
          (Map<String, Object>) spec.tool().inputSchema().get("properties");
      @SuppressWarnings("unchecked")
      Map<String, Object> sources = (Map<String, Object>) properties.get("sources");
      assertEquals(List.of("forget", "keep"), sources.get("enum"));
      assertFalse(
          ((List<?>) spec.tool().inputSchema().get("required")).contains("sources"),
          "optional: a memory without sources needs no choice");
      assertTrue(spec.tool().description().contains("'sources'"), spec.tool().description());
    }
  }

  private MemoryService open() {
    return Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
  }

  private String memoryId() {
    return consolidated.memory().id().value();
  }

  private static SyncToolSpecification spec(MemoryService memory) {
    return new McpTools(memory)
        .boundTo(TestStore.ALICE).stream()
            .filter(s -> s.tool().name().equals("memory_forget"))
            .findFirst()
            .orElseThrow();
  }

  private static CallToolResult forget(MemoryService memory, Map<String, Object> args) {
    return spec(memory)
        .callHandler()
        .apply(null, new CallToolRequest("memory_forget", new HashMap<>(args)));
  }

  private static JsonNode ok(CallToolResult r) throws IOException {
    assertFalse(Boolean.TRUE.equals(r.isError()), text(r));
    return JsonRecords.MAPPER.readTree(text(r));
  }

  private static String text(CallToolResult r) {
    return ((TextContent) r.content().get(0)).text();
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
