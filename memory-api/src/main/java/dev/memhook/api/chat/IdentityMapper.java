package dev.memhook.api.chat;

import java.util.List;
import java.util.function.Function;

/** {@link MessageMapper#identity()}: stateless and thread-safe. */
final class IdentityMapper implements MessageMapper<ChatMessage> {

  static final IdentityMapper INSTANCE = new IdentityMapper();

  private IdentityMapper() {}

  @Override
  public List<ChatMessage> toChat(ChatMessage message, Function<String, ToolCall> callsById) {
    return List.of(message);
  }

  @Override
  public ChatMessage user(String text) {
    return ChatMessage.user(text);
  }

  @Override
  public List<ChatMessage> injectedPair(ToolCall call, ToolResult result) {
    return List.of(
        ChatMessage.toolCall(call, MessageOrigin.SYNTHETIC),
        ChatMessage.toolResult(call, result, MessageOrigin.SYNTHETIC));
  }

  @Override
  public ChatMessage toolResult(ToolCall call, ToolResult result) {
    return ChatMessage.toolResult(call, result, MessageOrigin.SYNTHETIC);
  }

  @Override
  public boolean isUser(ChatMessage message) {
    return message.role() == ChatRole.USER;
  }

  @Override
  public String toString() {
    return "MessageMapper.identity()";
  }
}
