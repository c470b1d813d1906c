package dev.memhook.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.memhook.api.chat.ChatCallback;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.HostedChat;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolHandler;
import dev.memhook.api.chat.ToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A Memhook {@link ChatService} over any LangChain4j {@link ChatModel}: it owns one conversation
 * and runs the send loop a memory hook expects, so {@code memoryService.hookInto(chat)} gives a
 * plain LangChain4j chat long-term memory. It is the host kit's {@link HostedChat} over
 * LangChain4j's messages: this class maps them and calls the model; the kit owns the callbacks, the
 * tools, where pairs go, the loop and its bound, and the submission reports.
 *
 * <h2>How a send runs</h2>
 *
 * {@link #send()} runs a send loop, as {@link ChatService} and the test kit's {@code
 * FakeChatService} define it:
 *
 * <ol>
 *   <li>queued messages (user messages from {@link #queueUser}, injected tool calls) join the
 *       conversation;
 *   <li>every {@code beforeSendLoop} callback runs and is awaited, one after the other, in
 *       registration order;
 *   <li>messages they queued join the conversation, and the model is sent the conversation with a
 *       {@link ToolSpecification} for every registered tool; right before, the request is reported
 *       to the {@link #onRequestSubmitted} listeners;
 *   <li>the model's {@link AiMessage} joins the conversation: its {@code thinking()} as a {@link
 *       ChatRole#REASONING} message, its text as {@link ChatRole#ASSISTANT}, each tool execution
 *       request as a {@link ChatRole#TOOL_CALL}, all of {@link MessageOrigin#MODEL} origin;
 *   <li>the model's tool calls are executed with the registered handlers and their results join the
 *       conversation, and a resend is requested so the model reads them. An unknown tool, arguments
 *       that are not a JSON object, or a failing handler give an error result the model reads;
 *       nothing is thrown into the host;
 *   <li>every {@code afterSend} callback runs and is awaited;
 *   <li>if {@link #setNeedsResend()} was called during the loop, the loop runs again, up to {@link
 *       Builder#maxLoopsPerSend(int)} loops per send.
 * </ol>
 *
 * A callback whose stage fails is logged (by the kit, through {@link System.Logger}) and the send
 * goes on: the host's turn comes first. A failure of the model itself fails the send's stage.
 *
 * <h2>Where injected messages go</h2>
 *
 * {@link #injectToolCall} executes the tool at once and queues an {@link AiMessage} carrying one
 * {@link ToolExecutionRequest} and its {@link ToolExecutionResultMessage}, both of {@link
 * MessageOrigin#SYNTHETIC} origin. When the pair joins a conversation that ends with the user's
 * turn, it is placed before that turn, so the model reads (tool call, tool result, user message);
 * otherwise it is appended (the host kit's {@link HostedChat.Placement#BEFORE_USER_TURN}, which
 * says why).
 *
 * <h2>Threads</h2>
 *
 * Thread-safe: every method may be called from any thread, and callbacks run outside its locks.
 * Sends are serialised: a {@code send()} during a send starts when the earlier one ends. Each send
 * runs on the builder's {@linkplain Builder#executor executor} (by default a new daemon thread per
 * send, since a send blocks on the model); the returned stages complete on that thread. Null
 * arguments are rejected with {@link NullPointerException}.
 */
public final class LangChain4jChatService implements ChatService {

  /** The default bound of loops per send: 8, the host kit's. */
  public static final int DEFAULT_MAX_LOOPS_PER_SEND = HostedChat.DEFAULT_MAX_LOOPS_PER_SEND;

  /**
   * The default executor: a new daemon thread per send. A send blocks on the model for seconds, so
   * a shared pool would have to be sized for the host's concurrency; a thread per send needs no
   * lifecycle and costs nothing next to a model call.
   */
  private static final Executor THREAD_PER_SEND =
      task -> {
        Thread thread = new Thread(task, "memhook-langchain4j-send");
        thread.setDaemon(true);
        thread.start();
      };

  private final HostedChat<dev.langchain4j.data.message.ChatMessage> chat;

  /** What AiServices writes into the chat memory; null outside an AiServices view. */
  private final AiServicesWrites aiServices;

  private final ToolSpecifications specifications = new ToolSpecifications();

  /**
   * Messages already in {@code store} (null for a list of its own) are sent to the model but stay
   * out of {@link #messages()}: a conversation resumed from a persistent memory was scanned and
   * captured in its earlier life.
   */
  private LangChain4jChatService(
      ChatModel model,
      ChatMemory store,
      String systemMessage,
      int maxLoopsPerSend,
      Executor executor,
      boolean forAiServices) {
    ChatMemoryTranscript transcript = store == null ? null : new ChatMemoryTranscript(store);
    HostedChat.Builder<dev.langchain4j.data.message.ChatMessage> b =
        HostedChat.builder(LangChain4jMapper.INSTANCE)
            .model(new OwnSendModelCall(model, specifications))
            .placement(HostedChat.Placement.BEFORE_USER_TURN)
            .maxLoopsPerSend(maxLoopsPerSend)
            .executor(executor)
            .label("LangChain4jChatService");
    if (transcript != null) {
      b.transcript(transcript);
    }
    this.chat = b.build();
    this.aiServices = forAiServices ? new AiServicesWrites(chat, transcript) : null;
    if (systemMessage != null) {
      chat.record(SystemMessage.from(systemMessage));
    }
  }

  /** A chat service over {@code model} with the defaults. */
  public static LangChain4jChatService create(ChatModel model) {
    return builder().chatModel(model).build();
  }

  /** A builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A view of an AiServices conversation kept in {@code memory}; see {@link MemhookLangChain4j}.
   */
  static LangChain4jChatService view(ChatModel model, ChatMemory memory, int maxLoopsPerSend) {
    return new LangChain4jChatService(model, memory, null, maxLoopsPerSend, THREAD_PER_SEND, true);
  }

  // ---- host side -------------------------------------------------------------------------

  /** Queues a user message; it joins the conversation when the next send loop starts. */
  public ChatMessage queueUser(String text) {
    return chat.queueUser(text);
  }

  /**
   * Queues a user message and sends.
   *
   * @return a stage completing with the model's last reply of the send (after any resends); it
   *     completes exceptionally with the model's exception if the model fails, and with a {@link
   *     CancellationException} if the send was interrupted before the model answered
   */
  public CompletionStage<AiMessage> sendUser(String text) {
    queueUser(text);
    return chat.sendForReply()
        .thenApply(
            reply -> {
              if (reply.isEmpty()) {
                throw new CancellationException(
                    "the send was interrupted before the model answered");
              }
              return (AiMessage) reply.get().get(0);
            });
  }

  /**
   * A snapshot of the LangChain4j messages the model is sent next (the chat memory's content),
   * oldest first; injected pairs included.
   */
  public List<dev.langchain4j.data.message.ChatMessage> langChain4jMessages() {
    return chat.transcript();
  }

  // ---- ChatService -----------------------------------------------------------------------

  /**
   * {@inheritDoc}
   *
   * <p>Every message this service has seen, including those a bounded chat memory no longer sends;
   * not the messages its chat memory held before it was built (see {@link
   * Builder#chatMemory(ChatMemory)}).
   */
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
    return chat.onBeforeSendLoop(callback);
  }

  @Override
  public Registration onAfterSend(ChatCallback callback) {
    return chat.onAfterSend(callback);
  }

  /**
   * {@inheritDoc}
   *
   * <p>A submission is each call of the chat model: each loop of a send that reaches the model,
   * and, in an AiServices conversation ({@link MemhookLangChain4j}), each model call the decorated
   * model makes for it. It is reported right before the model is called, on the thread that calls
   * it, with attempt ids {@code attempt-1}, {@code attempt-2}, … in order. Its messages are those
   * of the LangChain4j request in the request's order, so an injected pair placed before the user's
   * turn is reported there; a message this service logged is reported as the very message of {@link
   * #messages()} (same id), any other (one the chat memory held before this service was built) as a
   * fresh translation. A loop interrupted before its model call reports nothing, and a failed model
   * call was still submitted. A listener that throws is logged; the send goes on.
   *
   * @return the registration, always present
   */
  @Override
  public Optional<Registration> onRequestSubmitted(Consumer<SubmittedRequest> listener) {
    return chat.onRequestSubmitted(listener);
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException if the definition's parameters schema cannot be expressed as a
   *     LangChain4j {@code JsonObjectSchema} (the message names the keyword and where it is)
   */
  @Override
  public Registration registerTool(ToolDefinition definition, ToolHandler handler) {
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(handler, "handler");
    ToolSpecification specification = ToolSpecifications.convert(definition);
    Registration registration = chat.registerTool(definition, handler);
    specifications.put(definition, specification);
    return () -> {
      registration.remove();
      if (!chat.tools().contains(definition)) {
        specifications.remove(definition);
      }
    };
  }

  @Override
  public String toString() {
    return "LangChain4jChatService["
        + chat.messages().size()
        + " messages, tools="
        + chat.tools().stream().map(ToolDefinition::name).toList()
        + "]";
  }

  // ---- AiServices side (package-private, used by MemhookLangChain4j) --------------------------

  /**
   * Adds a message AiServices put in the chat memory.
   *
   * @return false if it was the reply this service handed over, which is in the conversation
   *     already and ends AiServices' use of the conversation for this model call
   */
  boolean addFromAiServices(dev.langchain4j.data.message.ChatMessage message) {
    return aiServices.add(message);
  }

  /** The chat memory's messages, as AiServices reads them. */
  List<dev.langchain4j.data.message.ChatMessage> memoryMessages() {
    return aiServices.messages();
  }

  /** Replaces the chat memory's messages (AiServices does when it rewrites a tool result). */
  void setFromAiServices(Iterable<dev.langchain4j.data.message.ChatMessage> messages) {
    aiServices.set(messages);
  }

  /**
   * Empties the chat memory. The log and the hook stay: LangChain4j clears a memory to re-add all
   * but one of its messages, and those re-adds are recognised (in order, by equality) and not
   * logged twice, so nothing is captured or scanned again.
   */
  void clearFromAiServices() {
    aiServices.clear();
  }

  /** The registered tools as AiServices executes them. */
  Map<ToolSpecification, ToolExecutor> toolExecutors() {
    Map<ToolSpecification, ToolExecutor> out = new LinkedHashMap<>();
    for (ToolSpecification spec : specifications.of(chat.tools())) {
      out.put(spec, new AiServicesToolExecutor(chat));
    }
    return out;
  }

  /**
   * Runs one send for AiServices on the calling thread: the kit's {@link HostedChat#sendNow}, with
   * {@code request}'s messages and parameters (tools, response format) as the base; the model's
   * tool calls are returned for AiServices to execute. The reply returned is in the conversation
   * already; AiServices' own add of it is skipped.
   */
  ChatResponse chatForAiServices(ChatRequest request, Function<ChatRequest, ChatResponse> invoker) {
    aiServices.modelCallStarts();
    AtomicReference<ChatResponse> last = new AtomicReference<>();
    chat.sendNow(
        request.messages(),
        (messages, tools) -> {
          ChatResponse response =
              invoker.apply(
                  ChatRequest.builder()
                      .messages(List.copyOf(messages))
                      .parameters(request.parameters())
                      .build());
          last.set(response);
          return List.of(OwnSendModelCall.reply(response));
        },
        HostedChat.Resend.AFTER_REPLY);
    ChatResponse response = last.get();
    aiServices.handOver(response.aiMessage());
    return response;
  }

  /** Builds a {@link LangChain4jChatService}. Not thread-safe; each setter may be called once. */
  public static final class Builder {
    private ChatModel chatModel;
    private String systemMessage;
    private int maxLoopsPerSend = DEFAULT_MAX_LOOPS_PER_SEND;
    private boolean maxLoopsPerSendSet;
    private ChatMemory chatMemory;
    private Executor executor;

    private Builder() {}

    /** The model; required. */
    public Builder chatModel(ChatModel value) {
      checkUnset("chatModel", chatModel != null);
      this.chatModel = Objects.requireNonNull(value, "chatModel");
      return this;
    }

    /** A system message at the start of the conversation; none by default. */
    public Builder systemMessage(String value) {
      checkUnset("systemMessage", systemMessage != null);
      Objects.requireNonNull(value, "systemMessage");
      if (value.isBlank()) {
        throw new IllegalArgumentException("systemMessage must not be blank");
      }
      this.systemMessage = value;
      return this;
    }

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

    /**
     * Where the LangChain4j messages are kept, such as a {@code MessageWindowChatMemory} to bound
     * what the model is sent. Messages already in it (a resumed conversation) are sent to the model
     * but are not in {@link LangChain4jChatService#messages()}, so a hook neither scans nor
     * captures them again. By default every message is kept and sent. This service must be the
     * memory's only writer.
     */
    public Builder chatMemory(ChatMemory value) {
      checkUnset("chatMemory", chatMemory != null);
      this.chatMemory = Objects.requireNonNull(value, "chatMemory");
      return this;
    }

    /** Runs each send; a send blocks on the model. By default a new daemon thread per send. */
    public Builder executor(Executor value) {
      checkUnset("executor", executor != null);
      this.executor = Objects.requireNonNull(value, "executor");
      return this;
    }

    private static void checkUnset(String setter, boolean set) {
      if (set) {
        throw new IllegalStateException(
            setter + " was already set on this builder; each setter may be called once");
      }
    }

    /**
     * Builds the service.
     *
     * @throws IllegalStateException if no chat model was set
     */
    public LangChain4jChatService build() {
      if (chatModel == null) {
        throw new IllegalStateException("chatModel is required");
      }
      return new LangChain4jChatService(
          chatModel,
          chatMemory,
          systemMessage,
          maxLoopsPerSend,
          executor != null ? executor : THREAD_PER_SEND,
          false);
    }
  }
}
