package dev.memhook.core.receipt;

import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.testkit.ForwardingChatService;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * A chat service that does not report what it submits: a host's implementation written before
 * delivery reports existed. {@code inject} may replace {@link #injectToolCall}.
 */
class NonReportingChat extends ForwardingChatService {

  interface Inject {
    CompletionStage<ToolResult> apply(String toolName, Map<String, Object> args);
  }

  private final Inject inject;

  NonReportingChat(ChatService delegate) {
    this(delegate, delegate::injectToolCall);
  }

  NonReportingChat(ChatService delegate, Inject inject) {
    super(delegate);
    this.inject = inject;
  }

  @Override
  public CompletionStage<ToolResult> injectToolCall(String toolName, Map<String, Object> args) {
    return inject.apply(toolName, args);
  }

  @Override
  public Optional<Registration> onRequestSubmitted(Consumer<SubmittedRequest> listener) {
    return Optional.empty();
  }
}
