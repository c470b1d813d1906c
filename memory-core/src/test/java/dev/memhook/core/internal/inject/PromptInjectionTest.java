package dev.memhook.core.internal.inject;

import static dev.memhook.core.internal.inject.ToolFixtures.args;
import static dev.memhook.core.internal.inject.ToolFixtures.memory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.HostileText;
import dev.memhook.core.Memhook;
import dev.memhook.core.internal.observe.FieldText;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ModelReply;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Memory text is data: hostile text in a memory's content, title, summary or attributes reaches the
 * model, through a hooked chat service, as one JSON string value inside the tool result, and the
 * conversation holds exactly the messages the hook contract says.
 *
 * <p>Memories are put into the store directly, so the test holds whatever text the store keeps,
 * whatever the intake would do with it, and compares with what the store returns.
 */
class PromptInjectionTest {

  private static final String TOPIC = "quokka ledger reconciliation";

  static Stream<String> hostile() {
    List<String> all = new ArrayList<>(HostileText.BREAKERS);
    all.add(HostileText.nestedBrackets(10_000));
    all.add(String.join("", HostileText.BREAKERS));
    return all.stream();
  }

  @ParameterizedTest(name = "[{index}]")
  @MethodSource("hostile")
  void hostileMemoryText_reachesTheModelAsOneStringValue_inExactlyTheHooksTwoMessages(
      String breaker) throws Exception {
    // written straight into the store, as MemoryService would have stored it: the store refuses
    // unpaired surrogates, which the service replaces with U+FFFD
    String hostile = FieldText.wellFormed(breaker);
    MemoryStore store = LuceneMemoryStore.inMemory();
    HashingEmbedder embedder = HashingEmbedder.create();
    try (MemoryService service = Memhook.builder().store(store).embedder(embedder).build()) {
      String content = TOPIC + " " + hostile;
      Map<String, String> attributes = new LinkedHashMap<>();
      attributes.put("k" + cut(hostile, 40), cut(hostile, 80));
      Memory m =
          memory("mem_hostile", Scope.DEFAULT, content)
              .title(cut(hostile, 60))
              .summary(TOPIC + " " + cut(hostile, 150))
              .attributes(attributes)
              .build();
      store.put(m, embedder.embed(content));
      Memory stored = store.get(m.id()).orElseThrow();

      FakeChatService chat = FakeChatService.create();
      chat.scriptReplies(
          ModelReply.builder().toolCall(GetMemoryTool.NAME, args("id", "mem_hostile")).build(),
          ModelReply.text("done"));
      MemoryHook hook = service.hookInto(chat);
      chat.sendUser(TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
      hook.close();

      List<ChatMessage> messages = chat.messages();
      assertEquals(
          List.of(
              ChatRole.USER,
              ChatRole.TOOL_CALL,
              ChatRole.TOOL_RESULT,
              ChatRole.TOOL_CALL,
              ChatRole.TOOL_RESULT,
              ChatRole.ASSISTANT),
          messages.stream().map(ChatMessage::role).toList(),
          "one injected call and its result, then the model's own call and its result");
      assertEquals(MessageOrigin.SYNTHETIC, messages.get(1).origin());
      assertEquals(MessageOrigin.SYNTHETIC, messages.get(2).origin());
      assertEquals(MessageOrigin.MODEL, messages.get(3).origin());

      JsonNode injected = parse(messages.get(2).text());
      assertEquals(1, injected.size());
      assertEquals(List.of("id", "summary"), fieldNames(injected.get(0)));
      assertEquals(stored.summary(), injected.get(0).get("summary").asText());

      JsonNode full = parse(messages.get(4).text());
      List<String> expected =
          new ArrayList<>(
              List.of(
                  "id",
                  "type",
                  "title",
                  "summary",
                  "content",
                  "concepts",
                  "files",
                  "origin",
                  "occurredAt",
                  "createdAt",
                  "version",
                  "latest",
                  "attributes"));
      boolean truncated = full.path("truncated").asBoolean(false);
      if (truncated) {
        expected.addAll(List.of("truncated", "contentLength", "nextOffset", "hint"));
      }
      assertEquals(expected, fieldNames(full));
      assertEquals(stored.title(), full.get("title").asText());
      assertEquals(stored.summary(), full.get("summary").asText());
      String shown = full.get("content").asText();
      assertEquals(
          truncated
              ? stored.content().substring(0, full.get("nextOffset").asInt())
              : stored.content(),
          shown);
      Map<String, String> shownAttributes = new LinkedHashMap<>();
      full.get("attributes")
          .fields()
          .forEachRemaining(e -> shownAttributes.put(e.getKey(), e.getValue().asText()));
      assertEquals(stored.attributes(), shownAttributes);
    }
  }

  /** The text parsed, after checking a UTF-8 encoder takes it as it is. */
  private static JsonNode parse(String text) throws Exception {
    assertTrue(StandardCharsets.UTF_8.newEncoder().canEncode(text), "not encodable");
    return JsonText.JSON.readTree(text);
  }

  private static String cut(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n);
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
