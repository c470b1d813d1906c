package dev.memhook.micrometer;

import dev.memhook.api.chat.ChatCallback;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolHandler;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ModelReply;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A {@link FakeChatService} that also reports the requests it submits to the model, as a real chat
 * service does, so receipts get delivery appearances. Every model reply comes from its own script
 * (the fake's fallback model), which sees exactly the conversation the model is sent.
 *
 * <p>Thread-safe.
 */
final class ReportingChat implements ChatService {

  private final FakeChatService fake;
  private final Deque<ModelReply> script = new ArrayDeque<>();
  private final List<Consumer<SubmittedRequest>> listeners = new CopyOnWriteArrayList<>();
  private final AtomicInteger attempts = new AtomicInteger();

  ReportingChat() {
    fake = FakeChatService.builder().fallbackModel(this::model).build();
  }

  /** Adds replies to the end of the script; once it is empty the model answers "ok". */
  void script(ModelReply... replies) {
    synchronized (script) {
      script.addAll(List.of(replies));
    }
  }

  /** Queues a user message and runs a send. */
  CompletionStage<Void> sendUser(String text) {
    return fake.sendUser(text);
  }

  private ModelReply model(List<ChatMessage> conversation) {
    SubmittedRequest request =
        new SubmittedRequest("attempt-" + attempts.incrementAndGet(), conversation);
    for (Consumer<SubmittedRequest> l : listeners) {
      l.accept(request);
    }
    synchronized (script) {
      ModelReply next = script.pollFirst();
      return next != null ? next : ModelReply.text("ok");
    }
  }

  @Override
  public Optional<Registration> onRequestSubmitted(Consumer<SubmittedRequest> listener) {
    listeners.add(listener);
    return Optional.of(() -> listeners.remove(listener));
  }

  @Override
  public List<ChatMessage> messages() {
    return fake.messages();
  }

  @Override
  public CompletionStage<ToolResult> injectToolCall(String toolName, Map<String, Object> args) {
    return fake.injectToolCall(toolName, args);
  }

  @Override
  public void setNeedsResend() {
    fake.setNeedsResend();
  }

  @Override
  public void interrupt(boolean clearQueue) {
    fake.interrupt(clearQueue);
  }

  @Override
  public CompletionStage<Void> send() {
    return fake.send();
  }

  @Override
  public Registration onBeforeSendLoop(ChatCallback callback) {
    return fake.onBeforeSendLoop(callback);
  }

  @Override
  public Registration onAfterSend(ChatCallback callback) {
    return fake.onAfterSend(callback);
  }

  @Override
  public Registration registerTool(ToolDefinition definition, ToolHandler handler) {
    return fake.registerTool(definition, handler);
  }
}
