package dev.memhook.springai;

import dev.memhook.api.chat.ToolCall;
import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;

/**
 * An injected {@code get_memory} pair as a {@link ConversationChat} records it: the call and its
 * result, injected during {@code turn} whose user message read {@code anchor} (null when the turn
 * had none).
 *
 * <p>Design note. Each pair is remembered with the user turn it was injected for (its anchor) and
 * is put back into every later prompt of the conversation right before that turn's user message,
 * or, when the host's window no longer holds that message, after the leading system messages (the
 * placement itself is {@link PromptAssembly#withPairs}'s); a memory is injected at most once per
 * hook, so a model that lost the pair would lose the memory for good.
 *
 * <p>Immutable; thread-safe.
 */
record InjectedPair(int turn, String anchor, ToolCall call, String result) {

  /** The pair's two Spring AI messages: the assistant's tool call, then the tool's response. */
  List<Message> springMessages() {
    AssistantMessage assistant =
        AssistantMessage.builder()
            .content("")
            .toolCalls(
                List.of(
                    new AssistantMessage.ToolCall(
                        call.id(), "function", call.toolName(), ToolJson.toJson(call.arguments()))))
            .build();
    ToolResponseMessage response =
        ToolResponseMessage.builder()
            .responses(
                List.of(new ToolResponseMessage.ToolResponse(call.id(), call.toolName(), result)))
            .build();
    return List.of(assistant, response);
  }
}
