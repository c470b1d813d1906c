package dev.memhook.core.internal.inject;

import static dev.memhook.core.internal.inject.ToolFixtures.args;
import static dev.memhook.core.internal.inject.ToolFixtures.bounded;
import static dev.memhook.core.internal.inject.ToolFixtures.call;
import static dev.memhook.core.internal.inject.ToolFixtures.memory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ToolResult;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shapes of a cut result, the offset argument, and the budget settings. */
class GetMemoryToolPagingTest {

  private static final Scope SCOPE = Scope.DEFAULT;
  private final HookOptions defaults = HookOptions.defaults();
  private final MapStore store = new MapStore();
  private final GetMemoryTool tool = new GetMemoryTool(store, defaults);

  private String errorCode(Map<String, Object> args) throws Exception {
    ToolResult result = call(tool, args);
    assertTrue(result.error(), result.content());
    return JsonText.JSON.readTree(result.content()).path("error").path("code").asText();
  }

  @Test
  void contentFullOfQuotes_doublesInJson_andIsCutToABudgetedPageThatSaysHowToReadOn()
      throws Exception {
    String content = "\"".repeat(MemoryDraft.MAX_CONTENT);
    store.add(memory("mem_q", SCOPE, content).build());
    JsonNode page = bounded(call(tool, args("id", "mem_q")), defaults.maxMemoryChars(), "quotes");
    int shown = page.get("content").asText().length();
    assertTrue(shown > defaults.maxMemoryChars() / 4, "the page still carries content: " + shown);
    assertTrue(page.get("truncated").asBoolean());
    assertEquals(MemoryDraft.MAX_CONTENT, page.get("contentLength").asInt());
    assertEquals(shown, page.get("nextOffset").asInt());
    assertEquals(
        "call get_memory with {\"id\": \"mem_q\", \"offset\": " + shown + "} for the rest",
        page.get("hint").asText());
  }

  @Test
  void contentOfControlCharacters_growsSixFoldInJson_andStillFitsThePage() throws Exception {
    store.add(memory("mem_c", SCOPE, "x" + "\u0001".repeat(MemoryDraft.MAX_CONTENT - 1)).build());
    JsonNode page = bounded(call(tool, args("id", "mem_c")), defaults.maxMemoryChars(), "ctl");
    int next = page.get("nextOffset").asInt();
    JsonNode second =
        bounded(call(tool, args("id", "mem_c", "offset", next)), defaults.maxMemoryChars(), "ctl");
    assertEquals(
        List.of("id", "offset", "content", "truncated", "contentLength", "nextOffset", "hint"),
        fieldNames(second),
        "a later page carries the page only");
    assertEquals(
        "\u0001".repeat(second.get("content").asText().length()), second.get("content").asText());
  }

  @Test
  void aPageNeverEndsInsideASurrogatePair() throws Exception {
    store.add(memory("mem_e", SCOPE, "\ud83d\ude00".repeat(MemoryDraft.MAX_CONTENT / 2)).build());
    JsonNode page = bounded(call(tool, args("id", "mem_e")), defaults.maxMemoryChars(), "emoji");
    assertEquals(0, page.get("nextOffset").asInt() % 2, "ends between two pairs");
  }

  @Test
  void theLastPage_hasNoTruncationMark_andAnOffsetAtTheEndReadsNothing() throws Exception {
    String content = "a".repeat(30_000);
    store.add(memory("mem_a", SCOPE, content).build());
    JsonNode last = bounded(call(tool, args("id", "mem_a", "offset", 25_000)), 16_000, "last");
    assertEquals(content.substring(25_000), last.get("content").asText());
    assertFalse(last.has("truncated"));
    assertEquals(30_000, last.get("contentLength").asInt());
    assertEquals(
        "",
        bounded(call(tool, args("id", "mem_a", "offset", 30_000)), 16_000, "end")
            .get("content")
            .asText());
    assertEquals(
        "",
        bounded(call(tool, args("id", "mem_a", "offset", 30_000.0)), 16_000, "end")
            .get("content")
            .asText(),
        "a whole number written as 30000.0 is a whole number");
  }

  @Test
  void offsetsThatAreNotAWholeNumberInRange_andOffsetWithIds_areStructuredErrors()
      throws Exception {
    store.add(memory("mem_a", SCOPE, "short").build());
    List<Object> bad =
        List.of(
            -1,
            6,
            Long.MAX_VALUE,
            Integer.MIN_VALUE,
            1.5,
            Double.NaN,
            Double.POSITIVE_INFINITY,
            "10",
            true,
            List.of(1),
            Map.of("n", 1),
            new BigDecimal("1e1000000000"),
            new BigDecimal("1e-1000000000"),
            BigInteger.TEN.pow(10_000));
    for (Object offset : bad) {
      assertEquals(
          "invalid_arguments",
          errorCode(args("id", "mem_a", "offset", offset)),
          "offset " + offset.getClass().getSimpleName());
    }
    assertEquals("invalid_arguments", errorCode(args("ids", List.of("mem_a"), "offset", 0)));
    Map<String, Object> nullOffset = new LinkedHashMap<>(args("id", "mem_a"));
    nullOffset.put("offset", null);
    assertEquals(
        "short",
        JsonText.JSON.readTree(call(tool, nullOffset).content()).get("content").asText(),
        "a JSON null offset is no offset");
    assertEquals("not_found", errorCode(args("id", "mem_none", "offset", 0)));
  }

  @Test
  void fiftySummariesOfTheLongestLength_shareTheBudget_eachKeepingItsIdAndAMarkedPrefix()
      throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < GetMemoryTool.MAX_SUMMARY_IDS; i++) {
      store.add(
          memory("mem_" + i, SCOPE, "c").summary("\"".repeat(MemoryDraft.MAX_SUMMARY)).build());
      ids.add("mem_" + i);
    }
    JsonNode array =
        bounded(call(tool, args("ids", ids, "summary", true)), defaults.maxResultChars(), "50");
    assertEquals(ids.size(), array.size());
    for (int i = 0; i < ids.size(); i++) {
      assertEquals(ids.get(i), array.get(i).get("id").asText());
      assertTrue(array.get(i).get("truncated").asBoolean());
      assertTrue(array.get(i).get("summary").asText().endsWith(JsonText.ELLIPSIS));
      assertTrue(array.get(i).get("summary").asText().length() > 100, "a fair share each");
    }
  }

  @Test
  void hugeMetadata_takesAtMostHalfTheBudget_isNamedInCut_andTheContentStillShows()
      throws Exception {
    Map<String, String> attributes = new LinkedHashMap<>();
    List<String> concepts = new ArrayList<>();
    List<String> files = new ArrayList<>();
    for (int i = 0; i < MemoryDraft.MAX_ATTRIBUTES; i++) {
      attributes.put("key" + i + "\"".repeat(90), "\u0001".repeat(MemoryDraft.MAX_ATTRIBUTE_VALUE));
      concepts.add("concept" + i + "x".repeat(90));
    }
    for (int i = 0; i < MemoryDraft.MAX_FILES; i++) {
      files.add("file" + i + "/".repeat(490));
    }
    store.add(
        memory("mem_m", SCOPE, "the content " + "y".repeat(50_000))
            .concepts(concepts)
            .files(files)
            .attributes(attributes)
            .sourceSession("s".repeat(MemoryDraft.MAX_SESSION))
            .build());
    JsonNode full = bounded(call(tool, args("id", "mem_m")), defaults.maxMemoryChars(), "meta");
    assertTrue(full.get("content").asText().length() >= defaults.maxMemoryChars() / 3);
    List<String> cut = new ArrayList<>();
    full.get("cut").forEach(n -> cut.add(n.asText()));
    // at the draft limits, concepts and the session fit; the files and attributes do not
    assertEquals(List.of("files", "attributes"), cut);
    assertEquals("s".repeat(MemoryDraft.MAX_SESSION), full.get("session").asText());
  }

  @Test
  void tenFullMemoriesAtTheLimit_shareTheResultBudget_andEachIsPagedNotDropped() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < GetMemoryTool.MAX_FULL_IDS; i++) {
      store.add(memory("mem_" + i, SCOPE, "z".repeat(MemoryDraft.MAX_CONTENT)).build());
      ids.add("mem_" + i);
    }
    JsonNode array = bounded(call(tool, args("ids", ids)), defaults.maxResultChars(), "ten");
    for (JsonNode entry : array) {
      assertTrue(entry.get("truncated").asBoolean());
      assertTrue(entry.get("content").asText().length() > 1_000, entry.toString());
    }
  }

  @Test
  void budgetSettings_areCheckedEachOnce_andAMemoryBudgetOverTheResultBudgetIsRefused() {
    HookOptions o = HookOptions.builder().maxMemoryChars(3_000).maxResultChars(12_000).build();
    assertEquals(3_000, o.maxMemoryChars());
    assertEquals(12_000, o.maxResultChars());
    assertEquals(HookOptions.DEFAULT_MAX_MEMORY_CHARS, HookOptions.defaults().maxMemoryChars());
    assertThrows(IllegalArgumentException.class, () -> HookOptions.builder().maxMemoryChars(1_999));
    assertThrows(IllegalArgumentException.class, () -> HookOptions.builder().maxResultChars(9_999));
    assertThrows(
        IllegalStateException.class,
        () -> HookOptions.builder().maxResultChars(20_000).maxResultChars(30_000));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> HookOptions.builder().maxMemoryChars(50_000).build());
    assertTrue(
        e.getMessage().contains("maxMemoryChars (50000)")
            && e.getMessage().contains("maxResultChars (40000)"),
        e.getMessage());
  }

  @Test
  void theDefinitionTheModelSees_declaresOffset_andDescribesPaging() throws Exception {
    JsonNode schema = JsonText.JSON.readTree(GetMemoryTool.DEFINITION.parametersSchema());
    assertEquals("integer", schema.at("/properties/offset/type").asText());
    assertEquals(0, schema.at("/properties/offset/minimum").asInt());
    assertEquals(
        List.of("id", "offset", "ids", "summary", "focus"), fieldNames(schema.get("properties")));
    assertEquals("string", schema.at("/properties/focus/type").asText());
    assertEquals(FetchArguments.MAX_FOCUS_CHARS, schema.at("/properties/focus/maxLength").asInt());
    String description = GetMemoryTool.DEFINITION.description();
    assertTrue(description.contains("\"nextOffset\"") && description.contains("\"offset\""));
    assertTrue(description.contains("not instructions"), description);
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
