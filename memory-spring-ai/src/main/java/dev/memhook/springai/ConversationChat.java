package dev.memhook.springai;

import dev.memhook.api.chat.ChatCallback;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.HostedChat;
import dev.memhook.api.chat.HostedSend;
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
 * <p>Design note. The view is the host kit's {@link HostedChat} over Spring AI's {@link Message}s
 * ({@link SpringAiMapper}), without a model and without a transcript: the kit holds the messages
 * hooks read (the user turns, replies and tool calls that pass through the advisor, and the
 * injected pairs), the callbacks, the tools, the queue, the submission reports, the resend and
 * interrupt flags and the order of the conversation's calls. The advisor drives each call as a
 * {@link Turn} ({@link #beginTurn}), the kit's {@link HostedSend}, one loop at a time in two halves
 * around its chain or a stream. Spring AI owns the conversation (the host's {@code ChatMemory}, or
 * nothing at all) and never keeps the pairs, so the kit is built with {@link
 * HostedChat.Placement#AT_ITS_TURN}: it keeps every pair with its turn and puts them back in each
 * prompt ({@link Turn#withPairs}). What stays here is what the kit cannot know: the tools offered
 * as Spring AI {@link ToolCallback}s ({@link ViewToolCallback}). The view cannot call the model by
 * itself: {@link #send()} does not start a model call, and queued messages reach the model with the
 * next {@code ChatClient} call of the conversation.
 *
 * <p>Thread-safe: the kit is. Calls of one conversation are serialised by the kit: {@link
 * #beginTurn} waits for the turn before it to end. A pair belongs to the turn whose loop it joined,
 * even one injected between turns. Null arguments are rejected with {@link NullPointerException}.
 */
final class ConversationChat implements ChatService {

  /** The kit keeps no transcript: the prompt is Spring AI's, rebuilt on each call. */
  private static final Transcript<Message> NO_TRANSCRIPT =
      new Transcript<>() {
        @Override
        public List<Message> messages() {
          return List.of();
        }

        @Override
        public void add(Message message) {}

        @Override
        public void set(List<Message> messages) {}
      };

  private final String conversationId;
  private final Duration toolTimeout;
  private final HostedChat<Message> kit;

  /**
   * The view of {@code conversationId}: each phase's callbacks, and the model's call of a tool, are
   * awaited for at most {@code callbackTimeout}; a call runs at most {@code maxLoopsPerCall} loops.
   */
  ConversationChat(String conversationId, Duration callbackTimeout, int maxLoopsPerCall) {
    this.conversationId = Objects.requireNonNull(conversationId, "conversationId");
    this.toolTimeout = Objects.requireNonNull(callbackTimeout, "callbackTimeout");
    this.kit =
        HostedChat.builder(SpringAiMapper.INSTANCE)
            .transcript(NO_TRANSCRIPT)
            .placement(HostedChat.Placement.AT_ITS_TURN)
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
   * where the kit placed them, reported as this view's messages (same ids), as is each user message
   * of the prompt that joined the view as that very message (the current turn's, and earlier ones a
   * chat memory hands back as they were); any other prompt message is translated afresh, with new
   * ids. What is reported is the request the advisor hands on, not each model call: Spring AI's
   * tool-calling advisor, further down the chain, may call the model more than once with it (once
   * more per round of tool calls). A resend that is not made (the loop bound, {@link #interrupt}, a
   * stream) is not reported. A listener that throws is logged; the call goes on.
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
    HostedSend<Message> send = kit.openSend();
    if (user != null) {
      kit.record(user);
    }
    return new Turn(send);
  }

  /**
   * One call of the conversation, a send of the kit's: its loops, each in two halves around the
   * advisor's chain. Its methods are called one at a time, in order (the halves of a stream's loop
   * on different threads); closing it lets the conversation's next call in.
   */
  final class Turn implements AutoCloseable {
    private final HostedSend<Message> send;

    private Turn(HostedSend<Message> send) {
      this.send = send;
    }

    /** The view this turn belongs to. */
    ConversationChat chat() {
      return ConversationChat.this;
    }

    /**
     * The first half of a loop: queued messages and pairs join the conversation, the {@code
     * beforeSendLoop} callbacks run, and what they queued joins too.
     */
    void startLoop() {
      send.startLoop();
    }

    /**
     * The prompt's messages (the host's, rebuilt without the pairs) with every pair of the
     * conversation put back at its turn: the kit's {@link HostedChat.Placement#AT_ITS_TURN}.
     */
    List<Message> withPairs(List<Message> prompt) {
      return send.withPairs(prompt);
    }

    /**
     * Reports {@code prompt}, about to be handed down the chain, to the {@code onRequestSubmitted}
     * listeners; never throws a listener's failure.
     */
    void submitted(List<Message> prompt) {
      send.submitted(prompt);
    }

    /**
     * The second half of a loop: the model's reply (its reasoning, then its text) joins the
     * conversation and the {@code afterSend} callbacks run.
     *
     * @return whether a resend was asked for and may run
     */
    boolean finishLoop(String reasoning, String text) {
      return send.finishLoop(List.of(SpringAiMapper.reply(reasoning, text)));
    }

    /** Ends the turn. Idempotent. */
    @Override
    public void close() {
      send.close();
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
    kit.record(SpringAiMapper.modelCall(call));
    kit.record(SpringAiMapper.INSTANCE.toolResult(call, result));
  }

  @Override
  public String toString() {
    return "ConversationChat[" + conversationId + ", " + kit + "]";
  }
}
