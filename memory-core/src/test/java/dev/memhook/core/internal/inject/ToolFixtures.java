package dev.memhook.core.internal.inject;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.core.HostileText;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/** Memories and calls shared by the get_memory tests that talk to the tool directly. */
final class ToolFixtures {

  static final Instant T = Instant.parse("2025-01-02T03:04:05Z");

  private ToolFixtures() {}

  static Memory.Builder memory(String id, Scope scope, String content) {
    return Memory.builder()
        .id(MemoryId.of(id))
        .scope(scope)
        .content(content)
        .occurredAt(T)
        .createdAt(T);
  }

  /**
   * A memory whose every text field is generated: sizes at, around and far below the limits, text
   * from {@link HostileText}; sometimes metadata far larger than a model should read.
   */
  static Memory randomMemory(SplittableRandom r, String id, Scope scope, int maxMemoryChars) {
    int[] lengths = {
      1,
      2,
      50,
      maxMemoryChars / 2,
      maxMemoryChars - 1,
      maxMemoryChars,
      maxMemoryChars + 1,
      3 * maxMemoryChars,
      MemoryDraft.MAX_CONTENT - 1,
      MemoryDraft.MAX_CONTENT,
      1 + r.nextInt(MemoryDraft.MAX_CONTENT)
    };
    int length = Math.min(MemoryDraft.MAX_CONTENT, lengths[r.nextInt(lengths.length)]);
    boolean bigMetadata = r.nextInt(10) == 0;
    Map<String, String> attributes = new LinkedHashMap<>();
    int attributeCount = bigMetadata ? 50 : r.nextInt(4);
    for (int i = 0; i < attributeCount; i++) {
      attributes.put(
          "k" + i + HostileText.storable(r, r.nextInt(bigMetadata ? 95 : 20)),
          HostileText.storable(r, r.nextInt(bigMetadata ? MemoryDraft.MAX_ATTRIBUTE_VALUE : 50)));
    }
    Memory.Builder b =
        memory(id, scope, "x" + HostileText.storable(r, length - 1))
            .title(HostileText.storable(r, r.nextInt(MemoryDraft.MAX_TITLE + 1)))
            .summary(
                HostileText.storable(
                    r,
                    r.nextBoolean()
                        ? MemoryDraft.MAX_SUMMARY
                        : r.nextInt(MemoryDraft.MAX_SUMMARY + 1)))
            .concepts(
                strings(
                    r,
                    bigMetadata ? MemoryDraft.MAX_CONCEPTS : r.nextInt(4),
                    bigMetadata ? 99 : 20))
            .files(
                strings(
                    r, bigMetadata ? MemoryDraft.MAX_FILES : r.nextInt(4), bigMetadata ? 499 : 20))
            .origin(Origin.tool("t" + HostileText.storable(r, r.nextInt(bigMetadata ? 199 : 10))))
            .attributes(attributes);
    if (r.nextBoolean()) {
      b.sourceSession("s" + HostileText.storable(r, r.nextInt(bigMetadata ? 199 : 20)));
    }
    return b.build();
  }

  private static List<String> strings(SplittableRandom r, int count, int maxLength) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add("c" + HostileText.storable(r, r.nextInt(maxLength)));
    }
    return out;
  }

  static Map<String, Object> args(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  static ToolResult call(GetMemoryTool tool, Map<String, Object> args) throws Exception {
    return tool.execute(ToolCall.of(GetMemoryTool.NAME, args))
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
  }

  /**
   * The result parsed, after checking it is at most {@code budget} characters, well-formed UTF-16
   * (so UTF-8 carries it) and JSON.
   */
  static JsonNode bounded(ToolResult result, int budget, String context) throws Exception {
    String text = result.content();
    assertTrue(
        text.length() <= budget,
        "result of " + text.length() + " characters over the budget of " + budget + ": " + context);
    assertTrue(StandardCharsets.UTF_8.newEncoder().canEncode(text), "not encodable: " + context);
    return JsonText.JSON.readTree(text);
  }
}
