package dev.memhook.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.memhook.api.chat.HostedChat;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolResult;
import java.util.Optional;

/**
 * A tool call the model made, as LangChain4j carries it: which ones cannot be run as received (no
 * tool named, arguments that are not one JSON object), and how AiServices runs the others through
 * the conversation's kit. Every failure is an error result the model reads, never an exception.
 * Stateless and thread-safe.
 */
final class ModelToolCalls {

  private ModelToolCalls() {}

  /** Why {@code request} cannot be run as received, or empty to run it. */
  static Optional<String> unreadable(ToolExecutionRequest request) {
    if (request.name() == null || request.name().isBlank()) {
      return Optional.of("the tool call names no tool");
    }
    try {
      MessageMapping.parseArguments(request.arguments());
    } catch (IllegalArgumentException e) {
      return Optional.of("tool " + request.name() + ": " + e.getMessage());
    }
    return Optional.empty();
  }

  /** Runs {@code request} with {@code chat}'s tools, blocking until its handler has answered. */
  static ToolResult run(HostedChat<?> chat, ToolExecutionRequest request) {
    Optional<String> problem = unreadable(request);
    if (problem.isPresent()) {
      return ToolResult.failure(problem.get());
    }
    ToolCall call =
        new ToolCall(
            MessageMapping.toolCall(request).id(),
            request.name(),
            MessageMapping.parseArguments(request.arguments()));
    return chat.executeForModel(call).toCompletableFuture().join();
  }
}
