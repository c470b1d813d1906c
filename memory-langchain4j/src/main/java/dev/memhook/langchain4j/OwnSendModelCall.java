package dev.memhook.langchain4j;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.memhook.api.chat.ModelCall;
import dev.memhook.api.chat.ToolDefinition;
import java.util.List;
import java.util.Objects;

/**
 * How the kit calls the model in a {@link LangChain4jChatService}'s own sends: the transcript as a
 * {@link ChatRequest} with a specification for every registered tool, and the reply's {@link
 * AiMessage}. Thread-safe as far as the model is.
 */
final class OwnSendModelCall implements ModelCall<ChatMessage> {

  private final ChatModel model;
  private final ToolSpecifications specifications;

  OwnSendModelCall(ChatModel model, ToolSpecifications specifications) {
    this.model = model;
    this.specifications = specifications;
  }

  @Override
  public List<ChatMessage> call(List<ChatMessage> messages, List<ToolDefinition> tools) {
    ChatRequest.Builder request = ChatRequest.builder().messages(messages);
    List<ToolSpecification> offered = specifications.of(tools);
    if (!offered.isEmpty()) {
      request.toolSpecifications(offered);
    }
    return List.of(reply(model.chat(request.build())));
  }

  /** The reply of a response; a model that gives none fails the send. */
  static AiMessage reply(ChatResponse response) {
    return Objects.requireNonNull(response.aiMessage(), "the model gave no message");
  }
}
