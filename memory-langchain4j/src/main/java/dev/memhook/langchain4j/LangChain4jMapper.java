package dev.memhook.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.memhook.api.chat.MessageMapper;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * LangChain4j's messages for the host kit: {@link MessageMapping}'s translations as a {@link
 * MessageMapper}. An injected pair is an {@link AiMessage} carrying one {@link
 * ToolExecutionRequest} and its {@link ToolExecutionResultMessage}, both marked as injected ({@link
 * MessageMapping#syntheticAttributes()}). Stateless and thread-safe.
 */
final class LangChain4jMapper implements MessageMapper<ChatMessage> {

  static final LangChain4jMapper INSTANCE = new LangChain4jMapper();

  private LangChain4jMapper() {}

  @Override
  public List<dev.memhook.api.chat.ChatMessage> toChat(
      ChatMessage message, Function<String, ToolCall> callsById) {
    return MessageMapping.toMemhook(message, MessageOrigin.MODEL, callsById);
  }

  @Override
  public ChatMessage user(String text) {
    return UserMessage.from(text);
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException if the arguments cannot be written as JSON
   */
  @Override
  public List<ChatMessage> injectedPair(ToolCall call, ToolResult result) {
    ToolExecutionRequest request = MessageMapping.request(call);
    Map<String, Object> synthetic = MessageMapping.syntheticAttributes();
    return List.of(
        AiMessage.builder().toolExecutionRequests(List.of(request)).attributes(synthetic).build(),
        MessageMapping.resultMessage(request, result, synthetic));
  }

  @Override
  public ChatMessage toolResult(ToolCall call, ToolResult result) {
    return ToolExecutionResultMessage.builder()
        .id(call.id())
        .toolName(call.toolName())
        .text(result.content())
        .isError(result.error())
        .attributes(Map.of())
        .build();
  }

  @Override
  public boolean isUser(ChatMessage message) {
    return message instanceof UserMessage;
  }

  @Override
  public Optional<String> unreadableCall(ChatMessage reply, int index) {
    if (reply instanceof AiMessage ai && index < ai.toolExecutionRequests().size()) {
      return ModelToolCalls.unreadable(ai.toolExecutionRequests().get(index));
    }
    return Optional.empty();
  }
}
