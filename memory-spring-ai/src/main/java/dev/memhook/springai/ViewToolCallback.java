package dev.memhook.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.tool.ToolCallback;

/**
 * A registered tool offered to the model through Spring AI. Spring AI's tool loop executes it; the
 * call and its result join the view's messages so hooks see (and capture) the model's own tool use.
 * The kit runs the call ({@link ConversationChat#executeForModel}); a tool removed after the
 * request was built answers with an error result.
 *
 * <p>{@link #call} never throws: bad arguments, a failing tool, a timeout or an interrupt give an
 * error result {@code {"error": ...}} for the model. Thread-safe.
 */
final class ViewToolCallback implements ToolCallback {

  private static final Logger LOG = LoggerFactory.getLogger(ViewToolCallback.class);

  private final ToolDefinition definition;
  private final org.springframework.ai.tool.definition.ToolDefinition springDefinition;
  private final ConversationChat view;
  private final Duration toolTimeout;

  /** The tool {@code definition} of {@code view}, answering within {@code toolTimeout}. */
  ViewToolCallback(ToolDefinition definition, ConversationChat view, Duration toolTimeout) {
    this.definition = definition;
    this.view = view;
    this.toolTimeout = toolTimeout;
    this.springDefinition =
        org.springframework.ai.tool.definition.ToolDefinition.builder()
            .name(definition.name())
            .description(definition.description())
            .inputSchema(definition.parametersSchema())
            .build();
  }

  @Override
  public org.springframework.ai.tool.definition.ToolDefinition getToolDefinition() {
    return springDefinition;
  }

  @Override
  public String call(String toolInput) {
    Map<String, Object> args;
    try {
      args = ToolJson.readArguments(toolInput);
    } catch (JsonProcessingException | RuntimeException e) {
      return ToolJson.errorJson("arguments are not a JSON object: " + e.getMessage());
    }
    ToolCall call = ToolCall.of(definition.name(), args);
    ToolResult result;
    try {
      result =
          view.executeForModel(call)
              .toCompletableFuture()
              .get(toolTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      result = ToolResult.failure(ToolJson.errorJson("interrupted"));
    } catch (ExecutionException e) {
      // not reached: the kit's execution never fails, it answers with an error result
      result = ToolResult.failure(ToolJson.errorJson(String.valueOf(e.getCause())));
    } catch (TimeoutException e) {
      LOG.warn(
          "Memhook: tool {} took longer than {} in conversation {}",
          definition.name(),
          toolTimeout,
          view.conversationId());
      result = ToolResult.failure(ToolJson.errorJson("timed out after " + toolTimeout));
    }
    if (result.error() && !result.content().startsWith("{")) {
      // an unknown or failing tool: Spring AI carries tool errors as JSON
      LOG.warn("Memhook: {} in conversation {}", result.content(), view.conversationId());
      result = ToolResult.failure(ToolJson.errorJson(result.content()));
    }
    view.recordModelToolUse(call, result);
    return result.content();
  }
}
