package dev.memhook.core.internal.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.core.TestStores;
import dev.memhook.testkit.FakeChatService;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real get_memory tool, called as the model would call it, through FakeChatService, on every
 * {@link TestStores} configuration.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.memhook.core.TestStores#all")
class GetMemoryToolTest {

  /** The store configuration this class runs on. */
  @Parameter TestStores.Kind stores;

  @TempDir Path dir;

  private static final ObjectMapper JSON = new ObjectMapper();
  private MemoryService memory;
  private FakeChatService chat;
  private MemoryHook hook;
  private Memory first;
  private Memory second;
  private Memory otherScope;

  @BeforeEach
  void setUp() {
    memory = Memhook.builder().store(stores.open(dir)).embedder(HashingEmbedder.create()).build();
    first =
        memory.remember(
            MemoryDraft.builder(Scope.DEFAULT, "Deploys happen on Tuesdays after the standup.")
                .summary("Deploys: Tuesdays")
                .concepts(List.of("deploy"))
                .build());
    second =
        memory.remember(
            MemoryDraft.of(Scope.DEFAULT, "The on-call rotation changes every Monday."));
    otherScope = memory.remember(MemoryDraft.of(Scope.of("other-team"), "Their secret roadmap."));
    chat = FakeChatService.create();
    hook = memory.hookInto(chat);
  }

  @AfterEach
  void tearDown() {
    hook.close();
    memory.close();
  }

  private ToolResult call(Map<String, Object> args) throws Exception {
    return chat.callTool("get_memory", args).toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static Map<String, Object> args(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static String errorCode(ToolResult result) throws Exception {
    assertTrue(result.error(), "expected an error result: " + result.content());
    return JSON.readTree(result.content()).path("error").path("code").asText();
  }

  @Test
  void singleId_returnsTheFullMemory() throws Exception {
    ToolResult result = call(args("id", first.id().value()));
    assertFalse(result.error());
    JsonNode node = JSON.readTree(result.content());
    assertEquals(first.id().value(), node.get("id").asText());
    assertEquals("Deploys happen on Tuesdays after the standup.", node.get("content").asText());
    assertEquals("Deploys: Tuesdays", node.get("summary").asText());
    assertEquals("deploy", node.get("concepts").get(0).asText());
  }

  @Test
  void summaryBatch_returnsIdAndSummaryPairs_inOneResult() throws Exception {
    ToolResult result =
        call(args("ids", List.of(first.id().value(), second.id().value()), "summary", true));
    assertFalse(result.error());
    JsonNode array = JSON.readTree(result.content());
    assertEquals(2, array.size());
    assertEquals(first.id().value(), array.get(0).get("id").asText());
    assertEquals("Deploys: Tuesdays", array.get(0).get("summary").asText());
    assertEquals(List.of("id", "summary"), fieldNames(array.get(0)));
    assertEquals(second.id().value(), array.get(1).get("id").asText());
  }

  @Test
  void unknownIds_areReportedPerId_inABatch_andAsNotFound_alone() throws Exception {
    JsonNode array =
        JSON.readTree(
            call(args("ids", List.of("mem_unknown", first.id().value()), "summary", true))
                .content());
    assertEquals("not_found", array.get(0).get("error").asText());
    assertEquals("Deploys: Tuesdays", array.get(1).get("summary").asText());
    assertEquals("not_found", errorCode(call(args("id", "mem_unknown"))));
  }

  @Test
  void anotherScopesMemory_looksExactlyLikeAnUnknownOne() throws Exception {
    assertEquals("not_found", errorCode(call(args("id", otherScope.id().value()))));
    JsonNode array =
        JSON.readTree(
            call(args("ids", List.of(otherScope.id().value()), "summary", true)).content());
    assertEquals("not_found", array.get(0).get("error").asText());
    assertFalse(array.toString().contains("roadmap"));
  }

  @Test
  void forgottenMemory_isNotFound() throws Exception {
    memory.forget(first.id(), "alice", "outdated");
    assertEquals("not_found", errorCode(call(args("id", first.id().value()))));
  }

  @Test
  void nonStringIds_areAStructuredError() throws Exception {
    assertEquals(
        "invalid_arguments",
        errorCode(call(args("ids", List.of(42, first.id().value()), "summary", true))));
    assertEquals("invalid_arguments", errorCode(call(args("id", 42))));
    List<Object> withNull = new ArrayList<>();
    withNull.add(null);
    assertEquals("invalid_arguments", errorCode(call(args("ids", withNull, "summary", true))));
    assertEquals(
        "invalid_arguments",
        errorCode(call(args("ids", List.of("not a valid id!"), "summary", true))));
  }

  @Test
  void idsGivenAsOneString_isReadAsAOneElementList_andAnyOtherNonListIsAStructuredError()
      throws Exception {
    ToolResult one = call(args("ids", first.id().value(), "summary", true));
    assertFalse(one.error(), one.content());
    assertEquals(
        first.id().value(), JsonText.JSON.readTree(one.content()).get(0).get("id").asText());
    assertEquals("invalid_arguments", errorCode(call(args("ids", Map.of("a", "b")))));
    assertEquals("invalid_arguments", errorCode(call(args("ids", 42))));
  }

  @Test
  void emptyList_isAStructuredError() throws Exception {
    assertEquals("invalid_arguments", errorCode(call(args("ids", List.of(), "summary", true))));
  }

  @Test
  void tenThousandIds_isRejectedAsTooMany_withTheLimitInTheMessage() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      ids.add("mem_" + i);
    }
    ToolResult result = call(args("ids", ids, "summary", true));
    assertEquals("too_many_ids", errorCode(result));
    assertTrue(
        result.content().contains("at most " + GetMemoryTool.MAX_SUMMARY_IDS), result.content());
    assertTrue(result.content().length() < 500, "the error stays small");
  }

  @Test
  void missingArgument_bothArguments_unknownArgument_andBadSummary_areStructuredErrors()
      throws Exception {
    assertEquals("invalid_arguments", errorCode(call(args())));
    assertEquals(
        "invalid_arguments",
        errorCode(call(args("id", first.id().value(), "ids", List.of(first.id().value())))));
    assertEquals(
        "invalid_arguments", errorCode(call(args("id", first.id().value(), "verbose", true))));
    assertEquals(
        "invalid_arguments",
        errorCode(call(args("ids", List.of(first.id().value()), "summary", "yes"))));
    Map<String, Object> nullId = new HashMap<>();
    nullId.put("id", null);
    assertEquals("invalid_arguments", errorCode(call(nullId)));
  }

  @Test
  void fullBatch_withoutSummary_returnsFullMemories_upToItsOwnLimit() throws Exception {
    JsonNode array =
        JSON.readTree(
            call(args("ids", List.of(first.id().value(), second.id().value()))).content());
    assertEquals(
        "The on-call rotation changes every Monday.", array.get(1).get("content").asText());
    List<String> eleven = new ArrayList<>();
    for (int i = 0; i < GetMemoryTool.MAX_FULL_IDS + 1; i++) {
      eleven.add("mem_" + i);
    }
    assertEquals("too_many_ids", errorCode(call(args("ids", eleven))));
  }

  @Test
  void theModelsOwnToolCall_isExecutedAndAnsweredInTheConversation() throws Exception {
    chat.scriptReplies(
        dev.memhook.testkit.ModelReply.builder()
            .toolCall("get_memory", args("id", second.id().value()))
            .build());
    chat.sendUser("unrelated words zzz").toCompletableFuture().get(10, TimeUnit.SECONDS);
    String resultText =
        chat.messages().stream()
            .filter(
                m ->
                    m.role() == dev.memhook.api.chat.ChatRole.TOOL_RESULT
                        && m.toolCall().arguments().containsKey("id"))
            .findFirst()
            .orElseThrow()
            .text();
    assertTrue(resultText.contains("The on-call rotation changes every Monday."), resultText);
  }

  /** A memory whose summary leaves out its last line. */
  private static final MemoryDraft CHECKLIST =
      MemoryDraft.builder(
              Scope.DEFAULT,
              "Deploy checklist.\nThe release branch is cut from main on Monday.\n"
                  + "Rollback: run deploy/rollback.sh with the previous tag.")
          .summary("Deploy checklist")
          .build();

  @Test
  void summaryBatch_withAFocus_showsTheExcerptHoldingItsWords_besideTheSummary() throws Exception {
    Memory checklist = memory.remember(CHECKLIST);
    ToolResult result =
        call(
            args(
                "ids",
                List.of(checklist.id().value(), first.id().value()),
                "summary",
                true,
                "focus",
                "rollback previous"));
    assertFalse(result.error(), result.content());
    JsonNode array = JSON.readTree(result.content());
    assertEquals(List.of("id", "summary", "excerpt"), fieldNames(array.get(0)));
    assertEquals("Deploy checklist", array.get(0).get("summary").asText());
    assertEquals(
        "…Rollback: run deploy/rollback.sh with the previous tag.",
        array.get(0).get("excerpt").asText());
    assertEquals(List.of("id", "summary"), fieldNames(array.get(1)), "no focus word, no excerpt");
  }

  @Test
  void theHooksOwnSummaryCall_focusesOnTheMessagesWords_butNeverOnASecretInThem() throws Exception {
    // the gate is not what this test is about: a scope of one memory and a hashing embedder
    java.nio.file.Files.createDirectories(dir.resolve("ungated"));
    try (MemoryService ungated =
            Memhook.builder()
                .store(stores.open(dir.resolve("ungated")))
                .embedder(HashingEmbedder.create())
                .recallOptions(dev.memhook.api.RecallOptions.builder().noRelevanceGate().build())
                .build();
        MemoryHook focused =
            ungated.hookInto(
                chat,
                dev.memhook.api.HookOptions.builder()
                    .noCapture()
                    .recallTimeout(java.time.Duration.ofSeconds(30))
                    .toolName("recall_memory")
                    .build())) {
      ungated.remember(CHECKLIST);
      String secret = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
      chat.sendUser("how do I rollback the deploy? my token is " + secret)
          .toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
      dev.memhook.api.chat.ChatMessage injected =
          chat.messages().stream()
              .filter(
                  m ->
                      m.role() == dev.memhook.api.chat.ChatRole.TOOL_RESULT
                          && m.origin() == dev.memhook.api.chat.MessageOrigin.SYNTHETIC
                          && m.toolCall().toolName().equals("recall_memory"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("nothing injected: " + focused.receipts()));
      assertEquals(
          "rollback deploy token github",
          injected.toolCall().arguments().get("focus"),
          "the sanitizer's marker is read, not the key");
      assertFalse(injected.toolCall().arguments().toString().contains("a1B2c3D4"));
      assertTrue(
          injected.text().contains("\"excerpt\":\"…Rollback: run deploy/rollback.sh"),
          injected.text());
    }
  }

  @Test
  void aFocusThatIsNotAShortString_orComesWithoutASummaryBatch_isAStructuredError()
      throws Exception {
    String id = first.id().value();
    for (Map<String, Object> bad :
        List.of(
            args("ids", List.of(id), "summary", true, "focus", 42),
            args("ids", List.of(id), "summary", true, "focus", List.of("deploy")),
            args(
                "ids",
                List.of(id),
                "summary",
                true,
                "focus",
                "x".repeat(FetchArguments.MAX_FOCUS_CHARS + 1)),
            args("ids", List.of(id), "focus", "deploy"),
            args("id", id, "focus", "deploy"))) {
      ToolResult result = call(bad);
      assertEquals("invalid_arguments", errorCode(result), bad.keySet().toString());
      assertTrue(result.content().contains("focus"), result.content());
    }
    assertFalse(
        call(args("ids", List.of(id), "summary", true, "focus", "")).error(),
        "an empty focus is no focus");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
