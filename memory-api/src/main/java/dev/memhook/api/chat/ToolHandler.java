package dev.memhook.api.chat;

import java.util.concurrent.CompletionStage;

/**
 * Executes a tool call. Implementations must be thread-safe and should report bad arguments as a
 * {@link ToolResult#failure failed result} rather than an exceptionally completed stage.
 */
@FunctionalInterface
public interface ToolHandler {
  /** Executes {@code call} and completes with the result the model will read. */
  CompletionStage<ToolResult> execute(ToolCall call);
}
