package dev.memhook.core.internal.inject;

import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.api.trace.RequestAppearance;
import dev.memhook.core.internal.notify.ReceiptBook;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One hook's receipts and how their delivery is linked to the requests the chat service submits.
 *
 * <h2>Linking rules</h2>
 *
 * <ul>
 *   <li>An injected pair is recognised in a list of messages by its call: a {@code TOOL_CALL} of
 *       the hook's tool whose {@code ids} argument is exactly the receipt's injected ids, in order
 *       (a hook injects each id once, so no two of its calls carry the same list), followed later
 *       by the {@code TOOL_RESULT} answering that call.
 *   <li>Each submitted request that carries the pair is one appearance, once per attempt id,
 *       however often the chat service reports it.
 *   <li>The tool call's id enters the receipt the first time the pair is seen, in a submitted
 *       request or in the conversation a callback reads.
 * </ul>
 *
 * <p>Thread-safe.
 */
final class HookReceipts {

  private final String toolName;
  private final HookEvents events;
  private final Clock clock;
  private final ReceiptBook book = new ReceiptBook(MemoryHook.MAX_RECEIPTS);

  HookReceipts(String toolName, HookEvents events, Clock clock) {
    this.toolName = Objects.requireNonNull(toolName, "toolName");
    this.events = Objects.requireNonNull(events, "events");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Records a new receipt and tells the listeners. */
  void add(InjectionReceipt receipt) {
    book.put(receipt);
    events.receipt(receipt);
  }

  /** The receipts kept, oldest first. */
  List<InjectionReceipt> snapshot() {
    return book.snapshot();
  }

  /** Links every receipt whose pair {@code request} carries to it, once. */
  void submitted(SubmittedRequest request) {
    Map<List<String>, Pair> pairs = pairsIn(request.messages());
    if (pairs.isEmpty()) {
      return;
    }
    for (InjectionReceipt changed :
        book.update(
            r -> {
              Pair p = injected(r) ? pairs.get(idStrings(r.injectedIds())) : null;
              return p == null
                  ? r
                  : r.withAppearance(
                      new RequestAppearance(
                          request.attemptId(), p.call().id(), p.result().id(), clock.instant()),
                      p.call().toolCall().id());
            })) {
      // withAppearance adds the new one last, and ignores a request already listed
      events.delivered(changed, changed.appearances().get(changed.appearances().size() - 1));
    }
  }

  /** Fills in the tool-call id of receipts whose pair now shows in {@code conversation}. */
  void seen(List<ChatMessage> conversation) {
    Map<List<String>, Pair> pairs = null;
    for (InjectionReceipt r : book.snapshot()) {
      if (injected(r) && r.toolCallId() == null) {
        pairs = pairsIn(conversation);
        break;
      }
    }
    if (pairs == null || pairs.isEmpty()) {
      return;
    }
    Map<List<String>, Pair> found = pairs;
    for (InjectionReceipt changed :
        book.update(
            r -> {
              if (!injected(r) || r.toolCallId() != null) {
                return r;
              }
              Pair p = found.get(idStrings(r.injectedIds()));
              return p == null ? r : r.withToolCallId(p.call().toolCall().id());
            })) {
      events.updated(changed);
    }
  }

  private static boolean injected(InjectionReceipt r) {
    return r.injection().status() == PhaseStatus.Status.OK && !r.injectedIds().isEmpty();
  }

  private record Pair(ChatMessage call, ChatMessage result) {}

  /** The hook's pairs in {@code messages}, by their {@code ids} argument. */
  private Map<List<String>, Pair> pairsIn(List<ChatMessage> messages) {
    Map<String, ChatMessage> calls = new HashMap<>();
    Map<List<String>, Pair> pairs = new HashMap<>();
    for (ChatMessage m : messages) {
      if (m.toolCall() == null || !toolName.equals(m.toolCall().toolName())) {
        continue;
      }
      if (m.role() == ChatRole.TOOL_CALL) {
        calls.put(m.toolCall().id(), m);
      } else if (m.role() == ChatRole.TOOL_RESULT) {
        ChatMessage call = calls.get(m.toolCall().id());
        if (call != null && call.toolCall().arguments().get("ids") instanceof List<?> ids) {
          pairs.putIfAbsent(ids.stream().map(String::valueOf).toList(), new Pair(call, m));
        }
      }
    }
    return pairs;
  }

  private static List<String> idStrings(List<MemoryId> ids) {
    return ids.stream().map(MemoryId::value).toList();
  }
}
