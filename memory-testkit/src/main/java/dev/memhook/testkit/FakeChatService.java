package dev.memhook.testkit;

import dev.memhook.api.chat.ChatCallback;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.RegisteredTools;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmissionListeners;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A chat service that behaves like a real one, for testing hosts and hooks without a model.
 *
 * <h2>How a send runs</h2>
 *
 * {@link #send()} runs a send loop:
 *
 * <ol>
 *   <li>queued messages (user messages from {@link #queueUser}, injected tool calls) join the
 *       conversation;
 *   <li>every {@code beforeSendLoop} callback runs, one after the other, in registration order;
 *   <li>messages they queued join the conversation, and the model replies: the next scripted {@link
 *       ModelReply}, or the fallback model when the script is empty. Right before, the request is
 *       reported to the {@link #onRequestSubmitted} listeners;
 *   <li>tool calls in the reply are executed with the registered tools, their results appended, and
 *       a resend is requested so the model sees them (as a real agent loop does);
 *   <li>every {@code afterSend} callback runs;
 *   <li>if {@link #setNeedsResend()} was called during the loop, the loop runs again, up to {@link
 *       Builder#maxLoopsPerSend(int)} loops per send.
 * </ol>
 *
 * Sends are serialized: a {@code send()} during a send starts when the earlier one ends.
 *
 * <p>Thread-safe: every method may be called from any thread; callbacks run outside its locks. Null
 * arguments are rejected with {@link NullPointerException}.
 */
public final class FakeChatService implements ChatService {

  /** The default bound of loops per send: 8. */
  public static final int DEFAULT_MAX_LOOPS_PER_SEND = 8;

  private final int maxLoopsPerSend;
  private final Function<List<ChatMessage>, ModelReply> fallbackModel;
  private final Object lock = new Object();
  private final List<ChatMessage> history = new ArrayList<>();
  private final List<ChatMessage> queue = new ArrayList<>();
  private final Deque<ModelReply> script = new ArrayDeque<>();
  private final RegisteredTools tools = new RegisteredTools();
  private final List<ChatCallback> beforeSendLoop = new CopyOnWriteArrayList<>();
  private final List<ChatCallback> afterSend = new CopyOnWriteArrayList<>();
  private final SubmissionListeners submissions = new SubmissionListeners();
  private final AtomicBoolean needsResend = new AtomicBoolean();
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private final AtomicInteger resendRequests = new AtomicInteger();
  private final AtomicInteger loopsRun = new AtomicInteger();
  private final AtomicInteger sendGeneration = new AtomicInteger();
  private CompletableFuture<Void> sendTail = CompletableFuture.completedFuture(null);
  private boolean sending;

  private FakeChatService(Builder b) {
    this.maxLoopsPerSend = b.maxLoopsPerSend;
    this.fallbackModel = b.fallbackModel;
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
    ChatMessage m = ChatMessage.user(Objects.requireNonNull(text, "text"));
    synchronized (lock) {
      queue.add(m);
    }
    return m;
  }

  /** Queues a user message and sends. */
  public CompletionStage<Void> sendUser(String text) {
    queueUser(text);
    return send();
  }

  /** Appends messages to the conversation at once, bypassing the queue (for setting up tests). */
  public void append(ChatMessage... messages) {
    synchronized (lock) {
      for (ChatMessage m : messages) {
        history.add(Objects.requireNonNull(m, "message"));
      }
    }
  }

  /** Scripts the model's next replies, in order. */
  public void scriptReplies(ModelReply... replies) {
    synchronized (lock) {
      for (ModelReply r : replies) {
        script.addLast(Objects.requireNonNull(r, "reply"));
      }
    }
  }

  /** A snapshot of the messages queued and not yet in the conversation. */
  public List<ChatMessage> queued() {
    synchronized (lock) {
      return List.copyOf(queue);
    }
  }

  /** Every tool call in the conversation and the queue, in order, for the named tool. */
  public List<ToolCall> toolCalls(String toolName) {
    List<ToolCall> out = new ArrayList<>();
    synchronized (lock) {
      for (List<ChatMessage> list : List.of(history, queue)) {
        for (ChatMessage m : list) {
          if (m.role() == ChatRole.TOOL_CALL && m.toolCall().toolName().equals(toolName)) {
            out.add(m.toolCall());
          }
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
    return loopsRun.get();
  }

  /** Executes a registered tool as the model would, without adding messages. */
  public CompletionStage<ToolResult> callTool(String toolName, Map<String, Object> args) {
    return execute(
        ToolCall.of(
            Objects.requireNonNull(toolName, "toolName"), Objects.requireNonNull(args, "args")));
  }

  /** Runs every {@code beforeSendLoop} callback now, outside any send, as a test harness would. */
  public CompletionStage<Void> fireBeforeSendLoop() {
    return fire(beforeSendLoop);
  }

  /** Runs every {@code afterSend} callback now, outside any send, as a test harness would. */
  public CompletionStage<Void> fireAfterSend() {
    return fire(afterSend);
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
    synchronized (lock) {
      return new Registrations(beforeSendLoop.size(), afterSend.size(), tools.size());
    }
  }

  /** The tools registered now, in registration order, as the model is told about them. */
  public List<ToolDefinition> tools() {
    return tools.definitions();
  }

  // ---- ChatService -----------------------------------------------------------------------

  @Override
  public List<ChatMessage> messages() {
    synchronized (lock) {
      return List.copyOf(history);
    }
  }

  @Override
  public CompletionStage<ToolResult> injectToolCall(String toolName, Map<String, Object> args) {
    Objects.requireNonNull(toolName, "toolName");
    Objects.requireNonNull(args, "args");
    ToolCall call = ToolCall.of(toolName, args);
    return execute(call)
        .thenApply(
            result -> {
              synchronized (lock) {
                queue.add(ChatMessage.toolCall(call, MessageOrigin.SYNTHETIC));
                queue.add(ChatMessage.toolResult(call, result, MessageOrigin.SYNTHETIC));
              }
              return result;
            });
  }

  @Override
  public void setNeedsResend() {
    resendRequests.incrementAndGet();
    needsResend.set(true);
  }

  @Override
  public void interrupt(boolean clearQueue) {
    synchronized (lock) {
      if (sending) {
        interrupted.set(true);
      }
      if (clearQueue) {
        sendGeneration.incrementAndGet();
      }
    }
  }

  @Override
  public CompletionStage<Void> send() {
    int generation = sendGeneration.get();
    synchronized (lock) {
      CompletableFuture<Void> next =
          sendTail.thenCompose(
              ignored -> {
                if (sendGeneration.get() != generation) {
                  return CompletableFuture.completedFuture(null); // cancelled by interrupt(true)
                }
                synchronized (lock) {
                  sending = true;
                  interrupted.set(false);
                }
                return loop(1)
                    .whenComplete(
                        (v, e) -> {
                          synchronized (lock) {
                            sending = false;
                          }
                        });
              });
      sendTail = next.exceptionally(e -> null);
      return next;
    }
  }

  @Override
  public Registration onBeforeSendLoop(ChatCallback callback) {
    return register(beforeSendLoop, Objects.requireNonNull(callback, "callback"));
  }

  @Override
  public Registration onAfterSend(ChatCallback callback) {
    return register(afterSend, Objects.requireNonNull(callback, "callback"));
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
    return Optional.of(submissions.register(Objects.requireNonNull(listener, "listener")));
  }

  @Override
  public Registration registerTool(ToolDefinition definition, ToolHandler handler) {
    return tools.register(definition, handler);
  }

  // ---- the loop --------------------------------------------------------------------------

  private CompletionStage<Void> loop(int number) {
    needsResend.set(false);
    loopsRun.incrementAndGet();
    flushQueue();
    return fire(beforeSendLoop)
        .thenCompose(
            v -> {
              if (interrupted.get()) {
                return CompletableFuture.completedFuture(null);
              }
              flushQueue();
              List<ChatMessage> request = messages();
              submissions.report(request);
              ModelReply reply = nextReply(request);
              synchronized (lock) {
                history.addAll(reply.messages());
              }
              CompletionStage<Void> toolsDone = CompletableFuture.completedFuture(null);
              for (ToolCall call : reply.toolCalls()) {
                toolsDone =
                    toolsDone.thenCompose(
                        ignored ->
                            execute(call)
                                .thenAccept(
                                    result -> {
                                      synchronized (lock) {
                                        history.add(
                                            ChatMessage.toolResult(
                                                call, result, MessageOrigin.SYNTHETIC));
                                      }
                                    }));
              }
              if (!reply.toolCalls().isEmpty()) {
                needsResend.set(true);
              }
              return toolsDone
                  .thenCompose(ignored -> fire(afterSend))
                  .thenCompose(
                      ignored -> {
                        if (needsResend.get() && !interrupted.get() && number < maxLoopsPerSend) {
                          return loop(number + 1);
                        }
                        return CompletableFuture.completedFuture(null);
                      });
            });
  }

  /** The scripted reply, or the fallback model's answer to {@code request}. */
  private ModelReply nextReply(List<ChatMessage> request) {
    ModelReply scripted;
    synchronized (lock) {
      scripted = script.pollFirst();
    }
    if (scripted != null) {
      return scripted;
    }
    return Objects.requireNonNull(fallbackModel.apply(request), "the fallback model returned null");
  }

  private void flushQueue() {
    synchronized (lock) {
      history.addAll(queue);
      queue.clear();
    }
  }

  private CompletionStage<ToolResult> execute(ToolCall call) {
    return tools.execute(call);
  }

  private static CompletionStage<Void> fire(List<ChatCallback> callbacks) {
    CompletionStage<Void> chain = CompletableFuture.completedFuture(null);
    for (ChatCallback callback : callbacks) {
      chain =
          chain.thenCompose(
              v -> {
                try {
                  return callback.run();
                } catch (RuntimeException e) {
                  return CompletableFuture.failedFuture(e);
                }
              });
    }
    return chain;
  }

  private static Registration register(List<ChatCallback> list, ChatCallback callback) {
    list.add(callback);
    return () -> list.remove(callback);
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
