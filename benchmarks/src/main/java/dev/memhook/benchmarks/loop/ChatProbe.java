package dev.memhook.benchmarks.loop;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.api.trace.ReceiptCandidate;
import dev.memhook.testkit.FakeChatService;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Asks a probe as a chat host's user would: one new service lifetime on the store, a {@link
 * FakeChatService} hooked with {@link MemoryService#hookInto} (default options but the recall
 * timeout), the probe's prompt sent once (the fake model answers {@code ok}). The outcome is what
 * the hook injected: every synthetic {@code get_memory} result, each entry of its summary array one
 * memory whose text is its fields but the id, marked standing when the hook's receipts say it was
 * offered as a standing memory; characters are the results' text. The outcome also keeps every
 * candidate the receipts list, with the hook's decision, so a miss can say what became of the fact
 * ({@link MissCause}). A recall failure reported to the hook's listener is noted in the outcome.
 * Stateless.
 */
final class ChatProbe {

  private ChatProbe() {}

  /** Asks {@code probe} of the store in {@code dir}. */
  static ProbeOutcome ask(LoopData.Probe probe, Path dir, Clock clock, LoopServices services) {
    Set<String> failures = ConcurrentHashMap.newKeySet();
    MemoryListener listener =
        new MemoryListener() {
          @Override
          public void failed(String hookId, HookPhase phase, Throwable cause) {
            failures.add(phase + ": " + cause.getClass().getSimpleName());
          }
        };
    FakeChatService chat = FakeChatService.create();
    HookOptions options = services.hookOptions(listener, probe.session());
    List<ChatMessage> messages;
    int injectedIds;
    Set<String> standing = new HashSet<>();
    List<ProbeOutcome.Considered> considered = new ArrayList<>();
    try (MemoryService memory = services.open(dir, clock);
        MemoryHook hook = memory.hookInto(chat, options)) {
      ChatReplay.await(
          chat.sendUser(probe.prompt()).toCompletableFuture(), "probe " + probe.session());
      messages = chat.messages();
      injectedIds = hook.injectedIds().size();
      for (InjectionReceipt r : hook.receipts()) {
        for (ReceiptCandidate c : r.candidates()) {
          if (c.decision() == ReceiptCandidate.Decision.STANDING) {
            standing.add(c.id().value());
          }
          considered.add(new ProbeOutcome.Considered(c.id().value(), c.decision(), c.detail()));
        }
      }
    }
    List<ProbeOutcome.InjectedMemory> injected = new ArrayList<>();
    int chars = 0;
    for (ChatMessage m : messages) {
      if (m.role() == ChatRole.TOOL_RESULT
          && m.origin() == MessageOrigin.SYNTHETIC
          && m.toolCall().toolName().equals(options.toolName())) {
        chars += m.text().length();
        parse(m.text(), injected, failures, standing);
      }
    }
    if (injected.size() != injectedIds) {
      failures.add(injectedIds + " ids injected, " + injected.size() + " summaries read");
    }
    return new ProbeOutcome(probe, injected, chars, List.copyOf(failures), considered);
  }

  /**
   * Adds each entry of a {@code get_memory} summary result to {@code injected}, marking the ids in
   * {@code standing} (the receipts' standing memories) as such.
   */
  static void parse(
      String result,
      List<ProbeOutcome.InjectedMemory> injected,
      Set<String> failures,
      Set<String> standing) {
    JsonNode array;
    try {
      array = HookReplay.JSON.readTree(result);
    } catch (IOException e) {
      failures.add("unparseable get_memory result");
      return;
    }
    if (array == null || !array.isArray()) {
      failures.add("get_memory result is not an array");
      return;
    }
    for (JsonNode entry : array) {
      StringBuilder text = new StringBuilder();
      for (Map.Entry<String, JsonNode> f : entry.properties()) {
        if (!f.getKey().equals("id")) {
          text.append(text.length() == 0 ? "" : " ")
              .append(f.getValue().isTextual() ? f.getValue().textValue() : f.getValue());
        }
      }
      String id = entry.path("id").asText("");
      injected.add(new ProbeOutcome.InjectedMemory(id, text.toString(), standing.contains(id)));
    }
  }
}
