package dev.memhook.springai;

import dev.memhook.api.chat.ChatCallback;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.HostedChat;
import dev.memhook.api.chat.HostedSend;
import dev.memhook.api.chat.MessageMapper;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolHandler;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.chat.Transcript;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.tool.ToolCallback;

/**
 * One Spring AI conversation seen as a {@link ChatService}: the view a {@link MemhookAdvisor} keeps
 * per conversation id, and the one a memory hook is attached to.
 *
 * <p>Design note. The view is the host kit's {@link HostedChat} over {@link ChatMessage}s, without
 * a model: the kit holds the messages hooks read (the user turns, replies and tool calls that pass
 * through the advisor, and the injected pairs, appended), the callbacks, the tools, the queue, the
 * submission reports, the resend and interrupt flags and the order of the conversation's calls. The
 * advisor drives each call as a {@link Turn} ({@link #beginTurn}), the kit's {@link HostedSend},
 * one loop at a time in two halves around its chain or a stream. What stays here is what Spring AI
 * needs and the kit cannot know: Spring AI owns the conversation (the host's {@code ChatMemory}, or
 * nothing at all) and never keeps the pairs, so each injected pair is recorded with the user turn
 * it was injected for ({@link InjectedPair}) and placed back in every prompt by {@link
 * PromptAssembly#withPairs}; and the tools are offered as Spring AI {@link ToolCallback}s ({@link
 * ViewToolCallback}). The view cannot call the model by itself: {@link #send()} does not start a
 * model call, and queued messages reach the model with the next {@code ChatClient} call of the
 * conversation.
 *
 * <p>Thread-safe: the kit is; the pairs and the turn count are guarded by one lock. Calls of one
 * conversation are serialised by the kit: {@link #beginTurn} waits for the turn before it to end. A
 * pair is recorded with the turn whose loop it joined, even one injected between turns. Null
 * arguments are rejected with {@link NullPointerException}.
 */
final class ConversationChat implements ChatService {

  /** The kit keeps no transcript: the prompt is Spring AI's, rebuilt on each call. */
  private static final Transcript<ChatMessage> NO_TRANSCRIPT =
      new Transcript<>() {
        @Override
        public List<ChatMessage> messages() {
          return List.of();
        }

        @Override
        public void add(ChatMessage message) {}

        @Override
        public void set(List<ChatMessage> messages) {}
      };

  private final String conversationId;
  private final Duration toolTimeout;
  private final HostedChat<ChatMessage> kit;
  private final Object lock = new Object();

  /** Guarded by {@link #lock}. */
  private final List<InjectedPair> pairs = new ArrayList<>();

  /** How many of the kit's messages were scanned for injected pairs; guarded by {@link #lock}. */
  private int scanned;

  /** How many turns have begun; guarded by {@link #lock}. */
  private int turn;

  /**
   * The view of {@code conversationId}: each phase's callbacks, and the model's call of a tool, are
   * awaited for at most {@code callbackTimeout}; a call runs at most {@code maxLoopsPerCall} loops.
   */
  ConversationChat(String conversationId, Duration callbackTimeout, int maxLoopsPerCall) {
    this.conversationId = Objects.requireNonNull(conversationId, "conversationId");
    this.toolTimeout = Objects.requireNonNull(callbackTimeout, "callbackTimeout");
    this.kit =
        HostedChat.builder(MessageMapper.identity())
            .transcript(NO_TRANSCRIPT)
            .callbackTimeout(callbackTimeout)
            .maxLoopsPerSend(maxLoopsPerCall)
            .label("Spring AI conversation " + conversationId)
            .build();
  }

  String conversationId() {
    return conversationId;
  }

  // ---- ChatService -----------------------------------------------------------------------

  @Override
  public List<ChatMessage> messages() {
    return kit.messages();
  }

  @Override
  public CompletionStage<ToolResult> injectToolCall(String toolName, Map<String, Object> args) {
    return kit.injectToolCall(toolName, args);
  }

  @Override
  public void setNeedsResend() {
    kit.setNeedsResend();
  }

  /**
   * {@inheritDoc}
   *
   * <p>A {@code ChatClient} call cannot be stopped half-way from here: interrupting only cancels
   * resends still to come. Queued messages are kept either way and go with the next call.
   */
  @Override
  public void interrupt(boolean clearQueue) {
    kit.interrupt(false);
  }

  /**
   * Does not call the model: a Spring AI conversation moves only when the host calls its {@code
   * ChatClient}. Queued messages go with the next call of this conversation.
   *
   * @return a completed stage
   */
  @Override
  public CompletionStage<Void> send() {
    return kit.send();
  }

  @Override
  public Registration onBeforeSendLoop(ChatCallback callback) {
    return kit.onBeforeSendLoop(callback);
  }

  @Override
  public Registration onAfterSend(ChatCallback callback) {
    return kit.onAfterSend(callback);
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
    return kit.onRequestSubmitted(listener);
  }

  @Override
  public Registration registerTool(ToolDefinition definition, ToolHandler handler) {
    return kit.registerTool(definition, handler);
  }

  // ---- what the advisor drives --------------------------------------------------------------

  /**
   * Starts a turn, once the conversation's previous turn has ended: the user's message (null for
   * none) joins the conversation. The turn must be {@linkplain Turn#close closed}.
   */
  Turn beginTurn(UserMessage user) {
    HostedSend<ChatMessage> send = kit.openSend();
    String anchor = user == null ? null : user.getText();
    ChatMessage message = user == null ? null : ChatMessage.user(anchor == null ? "" : anchor);
    int number;
    synchronized (lock) {
      number = ++turn;
    }
    if (message != null) {
      kit.record(message);
    }
    return new Turn(send, number, anchor, message);
  }

  /**
   * One call of the conversation, a send of the kit's: its loops, each in two halves around the
   * advisor's chain. Its methods are called one at a time, in order (the halves of a stream's loop
   * on different threads); closing it lets the conversation's next call in.
   */
  final class Turn implements AutoCloseable {
    private final HostedSend<ChatMessage> send;
    private final int number;
    private final String anchor;
    private final ChatMessage user;

    private Turn(HostedSend<ChatMessage> send, int number, String anchor, ChatMessage user) {
      this.send = send;
      this.number = number;
      this.anchor = anchor;
      this.user = user;
    }

    /** The view this turn belongs to. */
    ConversationChat chat() {
      return ConversationChat.this;
    }

    /** The turn's number in the conversation, from 1. */
    int number() {
      return number;
    }

    /**
     * The first half of a loop: queued messages join the conversation, the {@code beforeSendLoop}
     * callbacks run, what they queued joins too, and each pair that joined is recorded with this
     * turn.
     */
    void startLoop() {
      send.startLoop();
      recordPairs(number, anchor);
    }

    /**
     * Reports {@code prompt}, about to be handed down the chain, to the {@code onRequestSubmitted}
     * listeners; never throws a listener's failure.
     */
    void submitted(List<Message> prompt) {
      send.submitted(PromptAssembly.carried(prompt, kit.messages(), user));
    }

    /**
     * The second half of a loop: the model's reply (its reasoning, then its text) joins the
     * conversation and the {@code afterSend} callbacks run.
     *
     * @return whether a resend was asked for and may run
     */
    boolean finishLoop(String reasoning, String text) {
      List<ChatMessage> reply = new ArrayList<>(2);
      if (reasoning != null && !reasoning.isBlank()) {
        reply.add(ChatMessage.reasoning(reasoning));
      }
      if (text != null && !text.isBlank()) {
        reply.add(ChatMessage.assistant(text));
      }
      return send.finishLoop(reply);
    }

    /** Ends the turn. Idempotent. */
    @Override
    public void close() {
      send.close();
    }
  }

  /** Records each injected pair that joined the kit's messages since the last scan with a turn. */
  private void recordPairs(int number, String anchor) {
    List<ChatMessage> all = kit.messages();
    synchronized (lock) {
      for (int i = scanned; i + 1 < all.size(); i++) {
        ChatMessage call = all.get(i);
        ChatMessage result = all.get(i + 1);
        if (call.role() == ChatRole.TOOL_CALL
            && call.origin() == MessageOrigin.SYNTHETIC
            && result.role() == ChatRole.TOOL_RESULT
            && result.toolCall().id().equals(call.toolCall().id())) {
          pairs.add(new InjectedPair(number, anchor, call.toolCall(), result.text()));
        }
      }
      scanned = all.size();
    }
  }

  /** The pairs injected so far, oldest first. */
  List<InjectedPair> pairs() {
    synchronized (lock) {
      return List.copyOf(pairs);
    }
  }

  /**
   * The registered tools as Spring AI callbacks, in registration order; the model's calls of them
   * and their results join the conversation.
   */
  List<ToolCallback> toolCallbacks() {
    List<ToolDefinition> now = kit.tools();
    List<ToolCallback> out = new ArrayList<>(now.size());
    for (ToolDefinition d : now) {
      out.add(new ViewToolCallback(d, this, toolTimeout));
    }
    return out;
  }

  /** Runs a call the model made: never fails; an unknown or failing tool gives an error result. */
  CompletionStage<ToolResult> executeForModel(ToolCall call) {
    return kit.executeForModel(call);
  }

  /** The model's call of a tool, and its result, join the conversation. */
  void recordModelToolUse(ToolCall call, ToolResult result) {
    kit.record(ChatMessage.toolCall(call, MessageOrigin.MODEL));
    kit.record(ChatMessage.toolResult(call, result, MessageOrigin.SYNTHETIC));
  }

  @Override
  public String toString() {
    return "ConversationChat[" + conversationId + ", " + kit + "]";
  }
}
