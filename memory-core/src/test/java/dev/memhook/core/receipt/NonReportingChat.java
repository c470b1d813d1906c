package dev.memhook.core.receipt;

import dev.memhook.api.chat.ChatCallback;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolHandler;
import dev.memhook.api.chat.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * A chat service that does not report what it submits: a host's implementation written before
 * delivery reports existed. Forwards everything else to {@code delegate}; {@code inject} may
 * replace {@link #injectToolCall}.
 */
class NonReportingChat implements ChatService {

  interface Inject {
    CompletionStage<ToolResult> apply(String toolName, Map<String, Object> args);
  }

  private final ChatService delegate;
  private final Inject inject;

  NonReportingChat(ChatService delegate) {
    this(delegate, delegate::injectToolCall);
  }

  NonReportingChat(ChatService delegate, Inject inject) {
    this.delegate = delegate;
    this.inject = inject;
  }

  @Override
  public List<ChatMessage> messages() {
    return delegate.messages();
  }

  @Override
  public CompletionStage<ToolResult> injectToolCall(String toolName, Map<String, Object> args) {
    return inject.apply(toolName, args);
  }

  @Override
  public void setNeedsResend() {
    delegate.setNeedsResend();
  }

  @Override
  public void interrupt(boolean clearQueue) {
    delegate.interrupt(clearQueue);
  }

  @Override
  public CompletionStage<Void> send() {
    return delegate.send();
  }

  @Override
  public Registration onBeforeSendLoop(ChatCallback callback) {
    return delegate.onBeforeSendLoop(callback);
  }

  @Override
  public Registration onAfterSend(ChatCallback callback) {
    return delegate.onAfterSend(callback);
  }

  @Override
  public Registration registerTool(ToolDefinition definition, ToolHandler handler) {
    return delegate.registerTool(definition, handler);
  }
}
