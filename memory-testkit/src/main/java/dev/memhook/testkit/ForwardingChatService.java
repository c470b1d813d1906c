package dev.memhook.testkit;

import dev.memhook.api.chat.ChatCallback;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolHandler;
import dev.memhook.api.chat.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * A {@link ChatService} that forwards every call to another, for tests that change one method: a
 * host whose injection fails, one that does not report its submissions, one that shows the user's
 * message late. Override what the test is about.
 *
 * <p>As thread-safe as the chat service it forwards to.
 */
public class ForwardingChatService implements ChatService {

  private final ChatService delegate;

  /** Forwards to {@code delegate}. */
  public ForwardingChatService(ChatService delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The chat service calls are forwarded to. */
  protected ChatService delegate() {
    return delegate;
  }

  @Override
  public List<ChatMessage> messages() {
    return delegate.messages();
  }

  @Override
  public CompletionStage<ToolResult> injectToolCall(String toolName, Map<String, Object> args) {
    return delegate.injectToolCall(toolName, args);
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
  public Optional<Registration> onRequestSubmitted(Consumer<SubmittedRequest> listener) {
    return delegate.onRequestSubmitted(listener);
  }

  @Override
  public Registration registerTool(ToolDefinition definition, ToolHandler handler) {
    return delegate.registerTool(definition, handler);
  }
}
