package dev.memhook.api.chat;

import dev.memhook.api.internal.BuilderSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The host kit: a complete {@link ChatService} for one conversation, built from the two things a
 * chat host supplies, a {@link MessageMapper} (its message type to and from {@link ChatMessage})
 * and a {@link ModelCall} (how to call its model). The kit owns everything else the hook contract
 * asks of a host: the callbacks, the tools, where injected pairs go, the send loop and its resend
 * bound, and the report of each request to {@link #onRequestSubmitted} listeners. The test kit's
 * fake and both adapters are thin layers over it (the Spring AI advisor drives its sends with
 * {@link #openSend()}); {@link ConversationRegistry} holds a bounded number of them for a host with
 * many conversations.
 *
 * <pre>{@code
 * HostedChat<MyMessage> chat =
 *     HostedChat.builder(new MyMessageMapper())
 *         .model((request, tools) -> List.of(myClient.complete(request, tools)))
 *         .placement(HostedChat.Placement.BEFORE_USER_TURN)
 *         .build();
 * memoryService.hookInto(chat);
 * chat.queueUser("where is the config?");
 * chat.send();
 * }</pre>
 *
 * <h2>How a send runs</h2>
 *
 * <ol>
 *   <li>queued messages (user messages from {@link #queueUser}, injected pairs) join the
 *       conversation;
 *   <li>every {@code beforeSendLoop} callback runs and is awaited, in registration order (up to the
 *       {@linkplain Builder#callbackTimeout callback timeout}, if one is set);
 *   <li>messages they queued join the conversation; the request is reported to the {@link
 *       #onRequestSubmitted} listeners, and the model is called with it and the registered tools;
 *   <li>the model's reply joins the conversation; each tool call in it is run with the registered
 *       handler and its result joins the conversation (an unknown tool, a call the mapper cannot
 *       read or a failing handler give an error result the model reads), and a resend is requested
 *       so the model reads them;
 *   <li>every {@code afterSend} callback runs and is awaited;
 *   <li>if {@link #setNeedsResend()} was called during the loop, the loop runs again, up to {@link
 *       Builder#maxLoopsPerSend} loops per send.
 * </ol>
 *
 * A callback that throws, returns null or whose stage fails is logged and the send goes on: the
 * host's turn comes first. A failure of the model call fails the send. {@link #sendNow} runs a send
 * for a host that owns the request and the tool loop itself (an agent framework, an advisor chain);
 * see there. {@link #openSend()} splits each loop in two around a model call the host makes itself
 * (a stream); see {@link HostedSend}.
 *
 * <h2>Where injected pairs go</h2>
 *
 * {@link #injectToolCall} runs the tool at once and queues the pair {@link
 * MessageMapper#injectedPair} gives. With {@link Placement#APPEND} (the default) a pair joins the
 * end of the conversation. With {@link Placement#BEFORE_USER_TURN}, a pair that joins a
 * conversation ending with the user's turn (one or more user messages) is placed before that turn,
 * so the model reads (tool call, tool result, user message): every provider accepts a request that
 * ends with the user's turn, and strict user/assistant alternation needs the tool exchange between
 * the previous assistant turn and the user's. Otherwise (a resend after the model answered) the
 * pair is appended. The rule applies alike to the transcript, to {@link #messages()} and to the
 * request of a {@link #sendNow}.
 *
 * <p>With {@link Placement#AT_ITS_TURN}, for a host whose request is rebuilt on each call from a
 * history that never keeps the pairs (Spring AI's {@code ChatMemory}), the kit keeps every pair
 * itself, with its turn, and puts all of them back in every request. A turn is a send ({@link
 * #send()}, {@link #sendNow}, {@link #openSend()}); its user message is the last user message that
 * joined the conversation during the send (queued, or {@linkplain #record recorded}), or else, for
 * {@code sendNow}, the last of the host's request. A pair belongs to the turn whose loop it joined,
 * even one injected between sends. In each request (the host's, through {@link
 * HostedSend#withPairs} or {@code sendNow}, or the transcript's in the chat's own sends):
 *
 * <ul>
 *   <li>the current turn's pairs go right before the request's last user message, in the order they
 *       joined (at the end when the request holds no user message);
 *   <li>an older pair goes right before its turn's user message when the request still holds it,
 *       after the turn's earlier pairs. The message is matched by text, in order: the first user
 *       message of that text after the one the previous older turn's pairs went before, so pairs
 *       keep their order and two turns of the same text each find their own message;
 *   <li>an older pair whose turn's message the request no longer holds (a window dropped it, or the
 *       turn had none) goes after the request's leading system messages, after the older pairs
 *       placed there before it.
 * </ul>
 *
 * The transcript never holds the pairs; {@link #messages()} holds each where {@link
 * Placement#BEFORE_USER_TURN} puts it. Pairs are kept for the chat's lifetime: a memory is injected
 * at most once per hook, so a model that lost its pair would lose the memory for good.
 *
 * <h2>Threads</h2>
 *
 * Thread-safe: every method may be called from any thread; callbacks, tools, the model call and
 * listeners run outside its locks (the mapper and the transcript run under one). Sends are
 * serialised: a send started during a send runs when the earlier one ends. {@link #send()} runs on
 * the builder's {@linkplain Builder#executor executor}, a new daemon thread per send by default,
 * since a send blocks on the model; the stages it returns complete there. The model is always
 * called on the thread running the send. Null arguments are rejected with {@link
 * NullPointerException}. Failures are logged through {@link System.Logger} under this class's name.
 *
 * @param <M> the host's message type
 */
public final class HostedChat<M> implements ChatService {

  /** The default {@link Builder#maxLoopsPerSend}: 8, the first loop and up to seven resends. */
  public static final int DEFAULT_MAX_LOOPS_PER_SEND = 8;

  /** The largest {@link Builder#maxLoopsPerSend}: 1,000. */
  public static final int MAX_MAX_LOOPS_PER_SEND = 1000;

  /** Where an injected pair joins the conversation; see the class Javadoc. */
  public enum Placement {
    /** At the end of the conversation. */
    APPEND,
    /** Before the user's turn when the conversation ends with one; otherwise at the end. */
    BEFORE_USER_TURN,
    /**
     * Kept by the kit with the turn it joined and put back in every request before that turn's user
     * message, for a host whose request is rebuilt from a history without the pairs; see the class
     * Javadoc for the rule, matching by text included.
     */
    AT_ITS_TURN
  }

  /** What the request of a resend in {@link #sendNow} carries. */
  public enum Resend {
    /** The previous request, the model's reply and what followed it (an agent loop's request). */
    AFTER_REPLY,
    /**
     * The host's request again, with every pair placed in it (a host whose request is rebuilt from
     * its own history on each call, which does not hold the model's reply).
     */
    REPEAT_REQUEST
  }

  private static final System.Logger LOG = System.getLogger(HostedChat.class.getName());

  private final String label;
  private final ModelCall<M> model;
  private final MessageMapper<M> mapper;
  private final HostedConversation<M> conversation;
  private final RegisteredTools tools = new RegisteredTools();
  private final PhaseCallbacks beforeSendLoop;
  private final PhaseCallbacks afterSend;
  private final SubmissionListeners submissions = new SubmissionListeners();
  private final HostedSendLoop<M> loop;

  private HostedChat(Builder<M> b) {
    this.label = b.label;
    this.model = b.model;
    this.mapper = b.mapper;
    this.conversation =
        new HostedConversation<>(
            b.mapper, b.transcript != null ? b.transcript : Transcript.inMemory(), b.placement);
    this.beforeSendLoop = new PhaseCallbacks("beforeSendLoop", label, LOG);
    this.afterSend = new PhaseCallbacks("afterSend", label, LOG);
    this.loop =
        new HostedSendLoop<>(
            conversation,
            b.mapper,
            tools,
            beforeSendLoop,
            afterSend,
            submissions,
            b.maxLoopsPerSend,
            b.callbackTimeout,
            b.executor != null ? b.executor : THREAD_PER_SEND);
  }

  /** A builder of a chat whose messages {@code mapper} maps. */
  public static <M> Builder<M> builder(MessageMapper<M> mapper) {
    return new Builder<>(Objects.requireNonNull(mapper, "mapper"));
  }

  /**
   * The default executor: a new daemon thread per send. A send blocks on the model for seconds, so
   * a shared pool would have to be sized for the host's concurrency; a thread per send needs no
   * lifecycle and costs nothing next to a model call.
   */
  private static final Executor THREAD_PER_SEND =
      task -> {
        Thread thread = new Thread(task, "memhook-send");
        thread.setDaemon(true);
        thread.start();
      };

  // ---- host side -------------------------------------------------------------------------

  /**
   * Queues a user's message, made by {@link MessageMapper#user}; it joins the conversation when the
   * next send loop starts.
   *
   * @return its chat message, as {@link #messages()} will hold it
   */
  public ChatMessage queueUser(String text) {
    return conversation.queueUser(Objects.requireNonNull(text, "text"));
  }

  /**
   * Adds a message the host wrote itself (a system message, a user's message an agent framework
   * added, a resumed message) to the transcript and to {@link #messages()} at once, outside any
   * send loop.
   */
  public void record(M message) {
    conversation.record(Objects.requireNonNull(message, "message"));
  }

  /** A snapshot of the messages queued and not yet in the conversation, in order. */
  public List<ChatMessage> queued() {
    return conversation.queued();
  }

  /** A snapshot of the transcript: the host's messages the model is sent next, oldest first. */
  public List<M> transcript() {
    return conversation.transcriptMessages();
  }

  /** The tools registered now, in registration order, as the model is offered them. */
  public List<ToolDefinition> tools() {
    return tools.definitions();
  }

  /**
   * Runs a tool call the model made, as a send runs the calls in a reply: the stage never fails; an
   * unknown tool or a failing handler give an error result the model reads. For a host that runs
   * the model's tool calls itself.
   */
  public CompletionStage<ToolResult> executeForModel(ToolCall call) {
    return HostedSendLoop.executeForModel(tools, Objects.requireNonNull(call, "call"));
  }

  /**
   * Runs a send, as {@link #send()} does, and completes with the model's last reply (after any
   * resends); empty if the send was interrupted before the model answered, or cancelled by {@code
   * interrupt(true)}. It completes exceptionally with what the model call threw.
   *
   * @throws IllegalStateException if the chat was built without a model
   */
  public CompletionStage<Optional<List<M>>> sendForReply() {
    if (model == null) {
      throw new IllegalStateException(label + " has no model: the host drives its sends");
    }
    return loop.enqueue(model);
  }

  /**
   * Runs one send on the calling thread for a host that owns the request and the tool loop (an
   * agent framework that calls the model with its own request, an advisor chain): the same loops as
   * {@link #send()}, except that the request starts from {@code request} (with queued messages and
   * pairs placed in it, and the transcript written as usual), the first model call is made even if
   * the send was interrupted before it, and a reply with tool calls ends the send after its {@code
   * afterSend} callbacks, for the host to run them (its next model call is then the resend). {@code
   * model} is called with each loop's request. Waits for the sends started before it.
   *
   * @return the model's last reply
   */
  public List<M> sendNow(List<M> request, ModelCall<M> model, Resend resend) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(resend, "resend");
    return loop.runNow(request, model, resend == Resend.AFTER_REPLY);
  }

  /**
   * Opens a send the host drives one loop at a time, around model calls it makes itself (a streamed
   * reply); see {@link HostedSend}. Blocks the calling thread until the sends started before it
   * have ended; the chat's other sends wait until it is closed.
   */
  public HostedSend<M> openSend() {
    return loop.open();
  }

  /**
   * Runs every {@code beforeSendLoop} callback now, outside the send loop, for a host that drives a
   * phase itself or a test harness; the stage completes after the last one's (never exceptionally:
   * failures are logged).
   */
  public CompletionStage<Void> fireBeforeSendLoop() {
    return beforeSendLoop.fire();
  }

  /**
   * Runs every {@code afterSend} callback now, outside the send loop, for a host that drives a
   * phase itself (a streamed reply's end) or a test harness; as {@link #fireBeforeSendLoop()}.
   */
  public CompletionStage<Void> fireAfterSend() {
    return afterSend.fire();
  }

  /** How many send loops have run in all, including loops interrupted before the model call. */
  public long loopsRun() {
    return loop.loopsRun();
  }

  // ---- ChatService -----------------------------------------------------------------------

  /**
   * {@inheritDoc}
   *
   * <p>Every message this chat has logged, including those a bounded transcript no longer sends;
   * not those its transcript held before it was built.
   */
  @Override
  public List<ChatMessage> messages() {
    return conversation.messages();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The stage also fails with an {@link IllegalArgumentException} when the mapper cannot express
   * the call (its arguments cannot be written as JSON, say).
   */
  @Override
  public CompletionStage<ToolResult> injectToolCall(String toolName, Map<String, Object> args) {
    Objects.requireNonNull(toolName, "toolName");
    Objects.requireNonNull(args, "args");
    ToolCall call;
    try {
      call = ToolCall.of(toolName, args);
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(e);
    }
    return tools
        .execute(call)
        .thenApply(
            result -> {
              List<M> pair = mapper.injectedPair(call, result);
              if (pair.size() != 2) {
                throw new IllegalStateException(
                    "the mapper gave " + pair.size() + " messages for an injected pair, not 2");
              }
              conversation.queuePair(pair);
              return result;
            });
  }

  @Override
  public void setNeedsResend() {
    loop.requestResend();
  }

  @Override
  public void interrupt(boolean clearQueue) {
    loop.interrupt(clearQueue);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Without a model ({@link Builder#model} unset) the host drives its sends with {@link
   * #sendNow}, and this returns a completed stage: queued messages go with the host's next send.
   */
  @Override
  public CompletionStage<Void> send() {
    if (model == null) {
      return CompletableFuture.completedFuture(null);
    }
    return loop.enqueue(model).thenApply(reply -> null);
  }

  @Override
  public Registration onBeforeSendLoop(ChatCallback callback) {
    return beforeSendLoop.register(callback);
  }

  @Override
  public Registration onAfterSend(ChatCallback callback) {
    return afterSend.register(callback);
  }

  /**
   * {@inheritDoc}
   *
   * <p>A submission is each model call of a send, reported right before it, on the thread running
   * the send, with attempt ids {@code attempt-1}, {@code attempt-2}, … in order. Its messages are
   * those of the request in its order: a message this chat logged is reported as the very message
   * of {@link #messages()} (same id), any other (one the transcript held before the chat was built,
   * a host's own) as a fresh translation. A loop interrupted before its model call reports nothing;
   * a failed model call was still submitted. A listener that throws is logged; the send goes on.
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

  @Override
  public String toString() {
    return label
        + "["
        + conversation.size()
        + " messages, tools="
        + tools.definitions().stream().map(ToolDefinition::name).toList()
        + "]";
  }

  /**
   * Builds a {@link HostedChat}. Each setter may be called once and checks its argument at once.
   * Not thread-safe.
   *
   * @param <M> the host's message type
   */
  public static final class Builder<M> {
    private final MessageMapper<M> mapper;
    private final BuilderSettings settings = new BuilderSettings();
    private ModelCall<M> model;
    private Transcript<M> transcript;
    private Placement placement = Placement.APPEND;
    private int maxLoopsPerSend = DEFAULT_MAX_LOOPS_PER_SEND;
    private Duration callbackTimeout;
    private Executor executor;
    private String label = "HostedChat";

    private Builder(MessageMapper<M> mapper) {
      this.mapper = mapper;
    }

    /**
     * How {@link #send()} calls the model. Without one, the host drives every send with {@link
     * #sendNow} and {@code send()} calls nothing.
     */
    public Builder<M> model(ModelCall<M> value) {
      Objects.requireNonNull(value, "model");
      settings.checkUnset("model");
      this.model = value;
      return settings.recorded(this, "model");
    }

    /**
     * Where the host's messages are kept for the model; by default {@link Transcript#inMemory()}.
     * What it holds already is sent to the model but is not in {@link #messages()}, so a hook
     * neither scans nor captures it again.
     */
    public Builder<M> transcript(Transcript<M> value) {
      Objects.requireNonNull(value, "transcript");
      settings.checkUnset("transcript");
      this.transcript = value;
      return settings.recorded(this, "transcript");
    }

    /** Where injected pairs go; default {@link Placement#APPEND}. */
    public Builder<M> placement(Placement value) {
      Objects.requireNonNull(value, "placement");
      settings.checkUnset("placement");
      this.placement = value;
      return settings.recorded(this, "placement");
    }

    /**
     * The most loops one send runs, 1 to {@link #MAX_MAX_LOOPS_PER_SEND}; a resend requested past
     * it is ignored. Default {@link #DEFAULT_MAX_LOOPS_PER_SEND}.
     */
    public Builder<M> maxLoopsPerSend(int value) {
      settings.checkUnset("maxLoopsPerSend");
      this.maxLoopsPerSend =
          BuilderSettings.inRange("maxLoopsPerSend", value, 1, MAX_MAX_LOOPS_PER_SEND);
      return settings.recorded(this, "maxLoopsPerSend");
    }

    /**
     * How long a send waits for one phase's callbacks before it goes on without them (logged);
     * positive, at most 5 minutes. By default it waits until they complete, as a hook's always do
     * within its recall timeout.
     */
    public Builder<M> callbackTimeout(Duration value) {
      Objects.requireNonNull(value, "callbackTimeout");
      settings.checkUnset("callbackTimeout");
      if (value.isNegative() || value.isZero() || value.compareTo(Duration.ofMinutes(5)) > 0) {
        throw new IllegalArgumentException(
            "callbackTimeout must be positive and at most 5 minutes, got " + value);
      }
      this.callbackTimeout = value;
      return settings.recorded(this, "callbackTimeout");
    }

    /**
     * Runs each {@link #send()}; a send blocks on the model. By default a new daemon thread per
     * send; {@code Runnable::run} runs it on the thread that calls {@code send()}, which then
     * returns when the send has ended.
     */
    public Builder<M> executor(Executor value) {
      Objects.requireNonNull(value, "executor");
      settings.checkUnset("executor");
      this.executor = value;
      return settings.recorded(this, "executor");
    }

    /** What logs and {@code toString()} call this chat, such as its conversation id. */
    public Builder<M> label(String value) {
      Objects.requireNonNull(value, "label");
      settings.checkUnset("label");
      if (value.isBlank()) {
        throw new IllegalArgumentException("label must not be blank");
      }
      this.label = value;
      return settings.recorded(this, "label");
    }

    /** Builds the chat. */
    public HostedChat<M> build() {
      return new HostedChat<>(this);
    }
  }
}
