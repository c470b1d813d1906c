package dev.memhook.testkit;

import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One scripted model reply for {@link FakeChatService}: reasoning, assistant text and tool calls,
 * in the order the model produced them. All messages are of {@link MessageOrigin#MODEL} origin.
 *
 * <p>Immutable and thread-safe.
 *
 * @param messages the reply's messages, in order
 */
public record ModelReply(List<ChatMessage> messages) {

  /** Validates and copies. */
  public ModelReply {
    messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
    for (ChatMessage m : messages) {
      if (m.origin() != MessageOrigin.MODEL) {
        throw new IllegalArgumentException(
            "model replies hold model-origin messages only, got " + m);
      }
      if (m.role() == ChatRole.USER
          || m.role() == ChatRole.TOOL_RESULT
          || m.role() == ChatRole.SYSTEM) {
        throw new IllegalArgumentException("a model cannot reply with a " + m.role() + " message");
      }
    }
  }

  /** A reply of assistant text only. */
  public static ModelReply text(String assistantText) {
    return builder().assistant(assistantText).build();
  }

  /** A builder for a reply with several parts. */
  public static Builder builder() {
    return new Builder();
  }

  /** The tool calls of this reply, in order. */
  public List<ToolCall> toolCalls() {
    return messages.stream()
        .filter(m -> m.role() == ChatRole.TOOL_CALL)
        .map(ChatMessage::toolCall)
        .toList();
  }

  /**
   * Builds a {@link ModelReply}; parts keep the order they are added in, and each call adds one (a
   * reply is a sequence, so nothing is "set twice" here). Not thread-safe.
   */
  public static final class Builder {
    private final List<ChatMessage> messages = new ArrayList<>();

    private Builder() {}

    /** Adds reasoning. */
    public Builder reasoning(String text) {
      messages.add(ChatMessage.reasoning(text));
      return this;
    }

    /** Adds assistant text. */
    public Builder assistant(String text) {
      messages.add(ChatMessage.assistant(text));
      return this;
    }

    /** Adds a call of the registered tool {@code toolName}. */
    public Builder toolCall(String toolName, Map<String, Object> arguments) {
      messages.add(ChatMessage.toolCall(ToolCall.of(toolName, arguments), MessageOrigin.MODEL));
      return this;
    }

    /** Builds the reply. */
    public ModelReply build() {
      return new ModelReply(messages);
    }
  }
}
