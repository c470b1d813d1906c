package dev.memhook.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.memhook.api.chat.HostedChat;
import dev.memhook.api.chat.ToolResult;

/**
 * The bridge that lets AiServices execute the model's calls of a conversation's registered tools:
 * each call goes to {@link ModelToolCalls#run}, so a failure is an error result the model reads,
 * never an exception. Blocks the calling thread until the handler's stage completes. Thread-safe.
 */
final class AiServicesToolExecutor implements ToolExecutor {

  private final HostedChat<?> chat;

  AiServicesToolExecutor(HostedChat<?> chat) {
    this.chat = chat;
  }

  @Override
  public String execute(ToolExecutionRequest request, Object memoryId) {
    return ModelToolCalls.run(chat, request).content();
  }

  @Override
  public ToolExecutionResult executeWithContext(
      ToolExecutionRequest request, InvocationContext context) {
    ToolResult result = ModelToolCalls.run(chat, request);
    return ToolExecutionResult.builder()
        .isError(result.error())
        .resultText(result.content())
        .build();
  }
}
