package dev.memhook.springai;

import dev.memhook.api.chat.RegisteredTools;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolHandler;
import dev.memhook.api.chat.ToolResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import org.springframework.ai.tool.ToolCallback;

/**
 * The tools registered on one {@link ConversationChat}, by name, in registration order: the view
 * executes them for injected calls, and offers them to the model as {@link ViewToolCallback}s.
 *
 * <p>Thread-safe: the registry is guarded by its own lock, and handlers run outside it.
 */
final class ToolRegistry {

  private final String conversationId;
  private final Duration toolTimeout;
  private final RegisteredTools tools = new RegisteredTools();

  /**
   * A registry for the view of {@code conversationId}, whose tools answer the model within {@code
   * toolTimeout}.
   */
  ToolRegistry(String conversationId, Duration toolTimeout) {
    this.conversationId = Objects.requireNonNull(conversationId, "conversationId");
    this.toolTimeout = Objects.requireNonNull(toolTimeout, "toolTimeout");
  }

  /**
   * Registers a tool; closing the registration removes it (and not a tool registered later under
   * the same name).
   *
   * @throws IllegalStateException if a tool of that name is registered
   */
  Registration register(ToolDefinition definition, ToolHandler handler) {
    return tools.register(definition, handler);
  }

  /**
   * Runs the call's tool. Never throws: an unknown tool, or a handler that throws or returns null,
   * gives a failed stage.
   */
  CompletionStage<ToolResult> execute(ToolCall call) {
    return tools.execute(call);
  }

  /**
   * The registered tools as Spring AI callbacks, in registration order; each reports the model's
   * call and its result to {@code onModelCall}.
   */
  List<ToolCallback> toolCallbacks(BiConsumer<ToolCall, ToolResult> onModelCall) {
    List<ToolDefinition> now = tools.definitions();
    List<ToolCallback> out = new ArrayList<>(now.size());
    for (ToolDefinition d : now) {
      out.add(new ViewToolCallback(d, this, conversationId, toolTimeout, onModelCall));
    }
    return out;
  }
}
