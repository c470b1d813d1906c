package dev.memhook.springai;

import dev.memhook.api.chat.ChatCallback;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmissionListeners;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolHandler;
import dev.memhook.api.chat.ToolResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.tool.ToolCallback;

/**
 * One Spring AI conversation seen as a {@link ChatService}: the view a {@link MemhookAdvisor} keeps
 * per conversation id, and the one a memory hook is attached to.
 *
 * <p>Design note. Spring AI owns the conversation (the host's {@code ChatMemory}, or nothing at
 * all), so this view keeps only what a hook needs: the user turns, replies and tool calls it saw
 * pass through the advisor ({@link #messages()}), the registered callbacks, the registered tools (a
 * {@link ToolRegistry}), and the injected {@code get_memory} pairs, each recorded with the user
 * turn it was injected for ({@link InjectedPair}). The view cannot call the model by itself: {@link
 * #send()} does not start a model call, and queued messages reach the model with the next {@code
 * ChatClient} call of the conversation.
 *
 * <p>Thread-safe: state is guarded by one lock (the tools by the registry's own), callbacks and
 * tools run outside it; turns of one conversation are serialised by the advisor with {@link
 * #turnPermit()}. Null arguments are rejected with {@link NullPointerException}.
 */
final class ConversationChat implements ChatService {

  // logs under the advisor's name, which is the one hosts know and configure
  private static final Logger LOG = LoggerFactory.getLogger(MemhookAdvisor.class);

  private final String conversationId;
  private final ToolRegistry tools;
  private final Object lock = new Object();
  private final List<ChatMessage> history = new ArrayList<>();
  private final List<ChatMessage> queue = new ArrayList<>();
  private final List<InjectedPair> pairs = new ArrayList<>();
  private final List<ChatCallback> beforeSendLoop = new CopyOnWriteArrayList<>();
  private final List<ChatCallback> afterSend = new CopyOnWriteArrayList<>();
  private final AtomicBoolean needsResend = new AtomicBoolean();
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private final Semaphore turnPermit = new Semaphore(1);
  private final SubmissionListeners submissions = new SubmissionListeners();
  private boolean sending;
  private int turn;
  private String turnAnchor;

  /** The current turn's user message in {@link #history}, or null; guarded by {@link #lock}. */
  private ChatMessage turnUser;

  ConversationChat(String conversationId, Duration toolTimeout) {
    this.conversationId = Objects.requireNonNull(conversationId, "conversationId");
    this.tools =
        new ToolRegistry(conversationId, Objects.requireNonNull(toolTimeout, "toolTimeout"));
  }

  String conversationId() {
    return conversationId;
  }

  Semaphore turnPermit() {
    return turnPermit;
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
    return tools
        .execute(call)
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
    synchronized (lock) {
      if (sending) {
        needsResend.set(true);
      }
    }
  }

  @Override
  public void interrupt(boolean clearQueue) {
    // A ChatClient call cannot be stopped half-way from here: interrupting only cancels resends
    // still to come. Queued messages are kept either way and go with the next call.
    synchronized (lock) {
      if (sending) {
        interrupted.set(true);
      }
    }
  }

  /**
   * Does not call the model: a Spring AI conversation moves only when the host calls its {@code
   * ChatClient}. Queued messages go with the next call of this conversation.
   *
   * @return a completed stage
   */
  @Override
  public CompletionStage<Void> send() {
    return CompletableFuture.completedFuture(null);
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
   * <p>A submission is each request the advisor hands to the rest of the {@code ChatClient} chain
   * for this conversation: the first of a call, each resend, and a stream's. It is reported right
   * before the advisor hands it on, on the calling thread, with attempt ids {@code attempt-1},
   * {@code attempt-2}, … in order. Its messages are the prompt's, in its order: injected pairs
   * where the advisor placed them, reported as this view's messages (same ids), as is the current
   * turn's user message; any other prompt message is translated afresh, with new ids. What is
   * reported is the request the advisor hands on, not each model call: Spring AI's tool-calling
   * advisor, further down the chain, may call the model more than once with it (once more per round
   * of tool calls). A resend that is not made (the loop bound, {@link #interrupt}, a stream) is not
   * reported. A listener that throws is logged; the call goes on.
   *
   * @return the registration, always present
   */
  @Override
  public Optional<Registration> onRequestSubmitted(Consumer<SubmittedRequest> listener) {
    return Optional.of(submissions.register(listener));
  }

  @Override
  public Registration registerTool(ToolDefinition definition, ToolHandler handler) {
    return tools.register(definition, handler);
  }

  // ---- what the advisor drives --------------------------------------------------------------

  /** Starts a turn: the user's message (null for none) joins the conversation. */
  void beginTurn(UserMessage user) {
    synchronized (lock) {
      turn++;
      sending = true;
      interrupted.set(false);
      turnAnchor = user == null ? null : user.getText();
      turnUser =
          user == null ? null : ChatMessage.user(user.getText() == null ? "" : user.getText());
      if (turnUser != null) {
        history.add(turnUser);
      }
    }
  }

  /** Ends the turn: later resend requests are ignored until the next one. */
  void endTurn() {
    synchronized (lock) {
      sending = false;
      needsResend.set(false);
    }
  }

  /** Clears the resend flag at the start of a loop. */
  void startLoop() {
    needsResend.set(false);
  }

  boolean needsResend() {
    return needsResend.get() && !interrupted.get();
  }

  /** Moves queued messages into the conversation, remembering each injected pair's turn. */
  void flushQueue() {
    synchronized (lock) {
      for (int i = 0; i < queue.size(); i++) {
        ChatMessage m = queue.get(i);
        if (m.role() == ChatRole.TOOL_RESULT) {
          pairs.add(new InjectedPair(turn, turnAnchor, m.toolCall(), m.text()));
        }
      }
      history.addAll(queue);
      queue.clear();
    }
  }

  /** Appends the model's reply: its reasoning, then its text. */
  void appendReply(String reasoning, String text) {
    synchronized (lock) {
      if (reasoning != null && !reasoning.isBlank()) {
        history.add(ChatMessage.reasoning(reasoning));
      }
      if (text != null && !text.isBlank()) {
        history.add(ChatMessage.assistant(text));
      }
    }
  }

  CompletionStage<Void> fireBeforeSendLoop() {
    return fire("beforeSendLoop", beforeSendLoop);
  }

  CompletionStage<Void> fireAfterSend() {
    return fire("afterSend", afterSend);
  }

  /**
   * Reports {@code prompt}, about to be handed down the chain, to the {@code onRequestSubmitted}
   * listeners; never throws a listener's failure.
   */
  void submitted(List<Message> prompt) {
    List<ChatMessage> view;
    ChatMessage user;
    synchronized (lock) {
      view = List.copyOf(history);
      user = turnUser;
    }
    submissions.report(PromptAssembly.carried(prompt, view, user));
  }

  /** The pairs injected so far, oldest first. */
  List<InjectedPair> pairs() {
    synchronized (lock) {
      return List.copyOf(pairs);
    }
  }

  int currentTurn() {
    synchronized (lock) {
      return turn;
    }
  }

  /**
   * The registered tools as Spring AI callbacks, in registration order; the model's calls of them
   * and their results join the conversation.
   */
  List<ToolCallback> toolCallbacks() {
    return tools.toolCallbacks(this::appendModelToolUse);
  }

  // ---- internals -----------------------------------------------------------------------

  private void appendModelToolUse(ToolCall call, ToolResult result) {
    synchronized (lock) {
      history.add(ChatMessage.toolCall(call, MessageOrigin.MODEL));
      history.add(ChatMessage.toolResult(call, result, MessageOrigin.SYNTHETIC));
    }
  }

  /**
   * Runs the callbacks one after the other; one that throws, returns null or fails is logged and
   * the next one runs, as the host kit runs them, so one hook's failure never silences another.
   */
  private CompletionStage<Void> fire(String phase, List<ChatCallback> callbacks) {
    CompletionStage<Void> chain = CompletableFuture.completedFuture(null);
    for (ChatCallback callback : callbacks) {
      chain =
          chain.thenCompose(
              v -> {
                CompletionStage<Void> stage;
                try {
                  stage = Objects.requireNonNull(callback.run(), "the callback returned null");
                } catch (RuntimeException e) {
                  stage = CompletableFuture.failedFuture(e);
                }
                return stage.handle(
                    (ignored, failure) -> {
                      if (failure != null) {
                        LOG.warn(
                            "Memhook: a {} callback failed in conversation {}; going on without"
                                + " it",
                            phase,
                            conversationId,
                            failure);
                      }
                      return null;
                    });
              });
    }
    return chain;
  }

  private static Registration register(List<ChatCallback> list, ChatCallback callback) {
    // a wrapper per registration, so removing one registration never removes an equal callback
    // registered twice
    ChatCallback own = callback::run;
    list.add(own);
    return () -> list.remove(own);
  }
}
