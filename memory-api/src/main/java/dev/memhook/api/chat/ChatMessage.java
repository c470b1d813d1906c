package dev.memhook.api.chat;

import java.util.Objects;
import java.util.UUID;

/**
 * One message of a conversation.
 *
 * <p>Immutable and thread-safe. {@code toolCall} is non-null exactly for {@link ChatRole#TOOL_CALL}
 * and {@link ChatRole#TOOL_RESULT} messages (for a result, the call it answers); every other
 * component is non-null.
 *
 * @param id unique within the conversation; hooks use it to remember what they have scanned
 * @param role the message's role
 * @param origin who produced it
 * @param text its text (for a tool call, a rendering of the call; for a result, the result)
 * @param toolCall the call, for tool-call and tool-result messages; null otherwise
 */
public record ChatMessage(
    String id, ChatRole role, MessageOrigin origin, String text, ToolCall toolCall) {

  /** Validates the message. */
  public ChatMessage {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(text, "text");
    boolean needsCall = role == ChatRole.TOOL_CALL || role == ChatRole.TOOL_RESULT;
    if (needsCall != (toolCall != null)) {
      throw new IllegalArgumentException(
          needsCall
              ? role + " message needs its tool call"
              : role + " message must not carry a tool call");
    }
  }

  /** A user's message with a fresh id. */
  public static ChatMessage user(String text) {
    return new ChatMessage(newId(), ChatRole.USER, MessageOrigin.USER, text, null);
  }

  /** The model's visible answer with a fresh id. */
  public static ChatMessage assistant(String text) {
    return new ChatMessage(newId(), ChatRole.ASSISTANT, MessageOrigin.MODEL, text, null);
  }

  /** The model's reasoning with a fresh id. */
  public static ChatMessage reasoning(String text) {
    return new ChatMessage(newId(), ChatRole.REASONING, MessageOrigin.MODEL, text, null);
  }

  /** A system message with a fresh id. */
  public static ChatMessage system(String text) {
    return new ChatMessage(newId(), ChatRole.SYSTEM, MessageOrigin.SYNTHETIC, text, null);
  }

  /**
   * A tool-call message with a fresh id, whose text is the tool's name and its arguments as {@code
   * {key=value, …}}; arguments nested deeper than a few dozen levels are shown cut ({@code {…}}),
   * so any call can be rendered.
   */
  public static ChatMessage toolCall(ToolCall call, MessageOrigin origin) {
    return new ChatMessage(
        newId(),
        ChatRole.TOOL_CALL,
        origin,
        call.toolName() + " " + ArgumentsText.of(call.arguments()),
        call);
  }

  /** A tool-result message with a fresh id, answering {@code call}. */
  public static ChatMessage toolResult(ToolCall call, ToolResult result, MessageOrigin origin) {
    Objects.requireNonNull(call, "call");
    Objects.requireNonNull(result, "result");
    return new ChatMessage(newId(), ChatRole.TOOL_RESULT, origin, result.content(), call);
  }

  private static String newId() {
    return "msg_" + UUID.randomUUID();
  }
}
