package dev.memhook.testkit;

import dev.memhook.api.chat.ChatCallback;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.HostedChat;
import dev.memhook.api.chat.MessageMapper;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolHandler;
import dev.memhook.api.chat.ToolResult;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A chat service that behaves like a real one, for testing hosts and hooks without a model: the
 * host kit's {@link HostedChat} over {@link ChatMessage}s themselves ({@link
 * MessageMapper#identity()}), whose model answers from a script.
 *
 * <h2>How a send runs</h2>
 *
 * {@link #send()} runs a send loop, as {@link HostedChat} runs it:
 *
 * <ol>
 *   <li>queued messages (user messages from {@link #queueUser}, injected tool calls) join the
 *       conversation, each at its end;
 *   <li>every {@code beforeSendLoop} callback runs and is awaited, one after the other, in
 *       registration order;
 *   <li>messages they queued join the conversation, and the model replies: the next scripted {@link
 *       ModelReply}, or the fallback model when the script is empty. Right before, the request is
 *       reported to the {@link #onRequestSubmitted} listeners;
 *   <li>tool calls in the reply are executed with the registered tools, their results appended, and
 *       a resend is requested so the model sees them (as a real agent loop does);
 *   <li>every {@code afterSend} callback runs and is awaited;
 *   <li>if {@link #setNeedsResend()} was called during the loop, the loop runs again, up to {@link
 *       Builder#maxLoopsPerSend(int)} loops per send.
 * </ol>
 *
 * A send runs on the thread that calls {@code send()} (or, behind a send still running, on the
 * thread that ends that one), and the stage it returns completes when it has ended. Sends are
 * serialized. A callback that fails is logged and the send goes on.
 *
 * <p>Thread-safe: every method may be called from any thread; callbacks run outside its locks. Null
 * arguments are rejected with {@link NullPointerException}.
 */
public final class FakeChatService implements ChatService {

  /** The default bound of loops per send: 8. */
  public static final int DEFAULT_MAX_LOOPS_PER_SEND = HostedChat.DEFAULT_MAX_LOOPS_PER_SEND;

  private final Function<List<ChatMessage>, ModelReply> fallbackModel;
  private final Deque<ModelReply> script = new ArrayDeque<>();
  private final HostedChat<ChatMessage> chat;
  private final AtomicInteger resendRequests = new AtomicInteger();
  private final AtomicInteger beforeSendLoopCallbacks = new AtomicInteger();
  private final AtomicInteger afterSendCallbacks = new AtomicInteger();

  private FakeChatService(Builder b) {
    this.fallbackModel = b.fallbackModel;
    this.chat =
        HostedChat.builder(MessageMapper.identity())
            .model((request, tools) -> nextReply(request).messages())
            .maxLoopsPerSend(b.maxLoopsPerSend)
            .executor(Runnable::run)
            .label("FakeChatService")
            .build();
  }

  /** A fake with the defaults: at most 8 loops per send; the fallback model answers "ok". */
  public static FakeChatService create() {
    return builder().build();
  }

  /** A builder. */
  public static Builder builder() {
    return new Builder();
  }

  // ---- host side -------------------------------------------------------------------------

  /** Queues a user message; it joins the conversation when the next send loop starts. */
  public ChatMessage queueUser(String text) {
    return chat.queueUser(text);
  }

  /** Queues a user message and sends. */
  public CompletionStage<Void> sendUser(String text) {
    queueUser(text);
    return send();
  }

  /** Appends messages to the conversation at once, bypassing the queue (for setting up tests). */
  public void append(ChatMessage... messages) {
    for (ChatMessage m : messages) {
      chat.record(Objects.requireNonNull(m, "message"));
    }
  }

  /** Scripts the model's next replies, in order. */
  public void scriptReplies(ModelReply... replies) {
    synchronized (script) {
      for (ModelReply r : replies) {
        script.addLast(Objects.requireNonNull(r, "reply"));
      }
    }
  }

  /** A snapshot of the messages queued and not yet in the conversation. */
  public List<ChatMessage> queued() {
    return chat.queued();
  }

  /**
   * Every tool call in the conversation and the queue, in order, for the named tool: each once,
   * also while a send moves the queue into the conversation on another thread.
   */
  public List<ToolCall> toolCalls(String toolName) {
    Objects.requireNonNull(toolName, "toolName");
    // The conversation and the queue are two snapshots; a send that flushed the queue between them
    // would hide its calls from both. The conversation only grows, so an unchanged size around the
    // queue's snapshot says no flush came between.
    List<ChatMessage> conversation = chat.messages();
    List<ChatMessage> queue;
    while (true) {
      queue = chat.queued();
      List<ChatMessage> again = chat.messages();
      if (again.size() == conversation.size()) {
        break;
      }
      conversation = again;
    }
    List<ToolCall> out = new ArrayList<>();
    for (List<ChatMessage> list : List.of(conversation, queue)) {
      for (ChatMessage m : list) {
        if (m.role() == ChatRole.TOOL_CALL && m.toolCall().toolName().equals(toolName)) {
          out.add(m.toolCall());
        }
      }
    }
    return out;
  }

  /** How many times {@link #setNeedsResend()} has been called. */
  public int resendRequests() {
    return resendRequests.get();
  }

  /** How many send loops have run in all. */
  public int loopsRun() {
    return (int) chat.loopsRun();
  }

  /**
   * Executes a registered tool as the model would, without adding messages: an unknown tool or a
   * failing handler give an error result.
   */
  public CompletionStage<ToolResult> callTool(String toolName, Map<String, Object> args) {
    return chat.executeForModel(
        ToolCall.of(
            Objects.requireNonNull(toolName, "toolName"), Objects.requireNonNull(args, "args")));
  }

  /** Runs every {@code beforeSendLoop} callback now, outside any send, as a test harness would. */
  public CompletionStage<Void> fireBeforeSendLoop() {
    return chat.fireBeforeSendLoop();
  }

  /** Runs every {@code afterSend} callback now, outside any send, as a test harness would. */
  public CompletionStage<Void> fireAfterSend() {
    return chat.fireAfterSend();
  }

  /**
   * How many callbacks and tools are registered now.
   *
   * @param beforeSendLoop registered {@code beforeSendLoop} callbacks
   * @param afterSend registered {@code afterSend} callbacks
   * @param tools registered tools
   */
  public record Registrations(int beforeSendLoop, int afterSend, int tools) {}

  /** How many callbacks and tools are registered now. */
  public Registrations registrations() {
    return new Registrations(
        beforeSendLoopCallbacks.get(), afterSendCallbacks.get(), chat.tools().size());
  }

  /** The tools registered now, in registration order, as the model is told about them. */
  public List<ToolDefinition> tools() {
    return chat.tools();
  }

  // ---- ChatService -----------------------------------------------------------------------

  @Override
  public List<ChatMessage> messages() {
    return chat.messages();
  }

  @Override
  public CompletionStage<ToolResult> injectToolCall(String toolName, Map<String, Object> args) {
    return chat.injectToolCall(toolName, args);
  }

  @Override
  public void setNeedsResend() {
    resendRequests.incrementAndGet();
    chat.setNeedsResend();
  }

  @Override
  public void interrupt(boolean clearQueue) {
    chat.interrupt(clearQueue);
  }

  @Override
  public CompletionStage<Void> send() {
    return chat.send();
  }

  @Override
  public Registration onBeforeSendLoop(ChatCallback callback) {
    return counted(chat.onBeforeSendLoop(callback), beforeSendLoopCallbacks);
  }

  @Override
  public Registration onAfterSend(ChatCallback callback) {
    return counted(chat.onAfterSend(callback), afterSendCallbacks);
  }

  /**
   * {@inheritDoc}
   *
   * <p>A submission is each step 3 of a loop that reaches the model, reported right before the
   * scripted reply is taken or the fallback model is asked: its attempt id is {@code attempt-1},
   * {@code attempt-2}, … in order, and its messages are the whole conversation at that moment (what
   * the fallback model is given). A loop interrupted before that step submits and reports nothing.
   * Listeners run on the thread running the loop, in registration order; one that throws is logged
   * and the send goes on.
   *
   * @return the registration, always present
   */
  @Override
  public Optional<Registration> onRequestSubmitted(Consumer<SubmittedRequest> listener) {
    return chat.onRequestSubmitted(listener);
  }

  @Override
  public Registration registerTool(ToolDefinition definition, ToolHandler handler) {
    return chat.registerTool(definition, handler);
  }

  // ---- the model -------------------------------------------------------------------------

  /** The scripted reply, or the fallback model's answer to {@code request}. */
  private ModelReply nextReply(List<ChatMessage> request) {
    ModelReply scripted;
    synchronized (script) {
      scripted = script.pollFirst();
    }
    if (scripted != null) {
      return scripted;
    }
    return Objects.requireNonNull(fallbackModel.apply(request), "the fallback model returned null");
  }

  private static Registration counted(Registration registration, AtomicInteger count) {
    count.incrementAndGet();
    AtomicBoolean removed = new AtomicBoolean();
    return () -> {
      if (removed.compareAndSet(false, true)) {
        registration.remove();
        count.decrementAndGet();
      }
    };
  }

  /** Builds a {@link FakeChatService}. Not thread-safe. */
  public static final class Builder {
    private int maxLoopsPerSend = DEFAULT_MAX_LOOPS_PER_SEND;
    private Function<List<ChatMessage>, ModelReply> fallbackModel =
        conversation -> ModelReply.text("ok");
    private boolean maxLoopsPerSendSet;
    private boolean fallbackModelSet;

    private Builder() {}

    /** The most loops one send runs, 1 to 1000; a resend request past it is ignored. */
    public Builder maxLoopsPerSend(int value) {
      checkUnset("maxLoopsPerSend", maxLoopsPerSendSet);
      if (value < 1 || value > 1000) {
        throw new IllegalArgumentException("maxLoopsPerSend must be in [1, 1000], got " + value);
      }
      this.maxLoopsPerSend = value;
      this.maxLoopsPerSendSet = true;
      return this;
    }

    /** The model used when the script is empty; it sees the conversation so far. */
    public Builder fallbackModel(Function<List<ChatMessage>, ModelReply> value) {
      Objects.requireNonNull(value, "fallbackModel");
      checkUnset("fallbackModel", fallbackModelSet);
      this.fallbackModel = value;
      this.fallbackModelSet = true;
      return this;
    }

    /** Each setter may be called once, as in every Memhook builder. */
    private static void checkUnset(String setter, boolean set) {
      if (set) {
        throw new IllegalStateException(
            setter + " was already set on this builder; each setter may be called once");
      }
    }

    /** Builds the fake. */
    public FakeChatService build() {
      return new FakeChatService(this);
    }
  }
}
