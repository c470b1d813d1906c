package dev.memhook.benchmarks.soak;

import dev.memhook.api.MemoryId;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.testkit.ModelReply;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The fake model of one conversation. Its first reply in a turn is what makes a hook work:
 * reasoning about a related question (so {@code afterSend} recalls and may inject and ask for a
 * resend) and an answer, and, when the turn's plan says so, a call of the real {@code get_memory}
 * tool for one id (so the tool's scope check runs beside the hook's injections). Every later reply
 * in the turn is plain text, so the loop ends. Thread-safe: the worker sets the plan before the
 * send, and the chat service calls {@link #reply} during it.
 */
final class SoakModel {

  /**
   * What the model does in one turn.
   *
   * @param reasoning its reasoning text
   * @param fetch the id it fetches with {@code get_memory}, or null
   * @param foreign whether {@code fetch} belongs to another scope (the tool must say not_found)
   */
  record Plan(String reasoning, MemoryId fetch, boolean foreign) {}

  private final AtomicReference<Plan> pending = new AtomicReference<>();

  /** The plan of the next turn; its first reply uses it. */
  void plan(Plan plan) {
    pending.set(plan);
  }

  ModelReply reply(List<ChatMessage> conversation) {
    Plan p = pending.getAndSet(null);
    if (p == null) {
      return ModelReply.text("noted");
    }
    ModelReply.Builder b =
        ModelReply.builder().reasoning(p.reasoning()).assistant("Answered from what I know.");
    if (p.fetch() != null) {
      b.toolCall("get_memory", Map.of("id", p.fetch().value()));
    }
    return b.build();
  }
}
