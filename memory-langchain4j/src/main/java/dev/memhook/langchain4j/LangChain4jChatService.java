package dev.memhook.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.memhook.api.chat.ChatCallback;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolHandler;
import dev.memhook.api.chat.ToolResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Memhook {@link ChatService} over any LangChain4j {@link ChatModel}: it owns one conversation
 * and runs the send loop a memory hook expects, so {@code memoryService.hookInto(chat)} gives a
 * plain LangChain4j chat long-term memory.
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
 *       {@link ToolSpecification} for every registered tool;
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
 * A callback whose stage fails is logged and the send goes on: the host's turn comes first. A
 * failure of the model itself fails the send's stage.
 *
 * <h2>Where injected messages go</h2>
 *
 * {@link #injectToolCall} executes the tool at once and queues an {@link AiMessage} carrying one
 * {@link ToolExecutionRequest} and its {@link ToolExecutionResultMessage}, both of {@link
 * MessageOrigin#SYNTHETIC} origin. When the pair joins a conversation that ends with the user's
 * turn (one or more user messages), it is placed <em>before</em> that turn, so the model reads
 * (tool call, tool result, user message): every provider accepts a request that ends with the
 * user's turn, while a request ending in a tool result after the user message would read as the
 * assistant having already answered, and Anthropic's and Gemini's strict user/assistant alternation
 * needs the tool exchange to sit between the previous assistant turn and the user's. Otherwise (a
 * resend after the model answered, or after tool results) the pair is appended.
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

  /** The default bound of loops per send: 8, as the test kit's fake uses. */
  public static final int DEFAULT_MAX_LOOPS_PER_SEND = 8;

  private static final Logger LOG = LoggerFactory.getLogger(LangChain4jChatService.class);

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

  private final ChatModel model;
  private final int maxLoopsPerSend;
  private final Executor executor;
  private final Object lock = new Object();

  /** The LangChain4j messages the model is sent; guarded by {@link #lock}. */
  private final ChatMemory store;

  /** Every message of the conversation as Memhook sees it; guarded by {@link #lock}. */
  private final List<ChatMessage> log = new ArrayList<>();

  /** Messages waiting for the next loop; guarded by {@link #lock}. */
  private final List<Queued> queue = new ArrayList<>();

  /** Guarded by {@link #lock}. */
  private final Map<String, Tool> tools = new LinkedHashMap<>();

  private final List<Callback> beforeSendLoop = new CopyOnWriteArrayList<>();
  private final List<Callback> afterSend = new CopyOnWriteArrayList<>();
  private final AtomicBoolean needsResend = new AtomicBoolean();
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private final AtomicInteger sendGeneration = new AtomicInteger();

  /** Completes when the last send queued so far has ended; guarded by {@link #lock}. */
  private CompletableFuture<Void> sendTail = CompletableFuture.completedFuture(null);

  /** Guarded by {@link #lock}. */
  private boolean sending;

  /**
   * The reply handed to AiServices, which adds it to the chat memory itself; that add is skipped,
   * since the reply is in the conversation already. Guarded by {@link #lock}.
   */
  private AiMessage handedOver;

  /**
   * What the last {@code clear()} took out of the chat memory and has not been added back yet,
   * oldest first; forgotten at the next other add or model call. Guarded by {@link #lock}.
   */
  private final List<dev.langchain4j.data.message.ChatMessage> cleared = new ArrayList<>();

  private record Tool(
      ToolDefinition definition, ToolSpecification specification, ToolHandler handler) {}

  /** Messages that join the conversation together; {@code beforeUserTurn} for injected pairs. */
  private record Queued(
      List<dev.langchain4j.data.message.ChatMessage> langChain4j,
      List<ChatMessage> memhook,
      boolean beforeUserTurn) {}

  /** One registration of a callback: its own identity, so removing it twice removes it once. */
  private record Callback(ChatCallback callback, AtomicBoolean removed) {}

  /**
   * Messages already in {@code store} are sent to the model but stay out of {@link #messages()}: a
   * conversation resumed from a persistent memory was scanned and captured in its earlier life, and
   * handing it to a new hook as new would capture it again and spend the first turn's recall on old
   * messages instead of the user's new one.
   */
  private LangChain4jChatService(
      ChatModel model,
      ChatMemory store,
      String systemMessage,
      int maxLoopsPerSend,
      Executor executor) {
    this.model = model;
    this.store = store;
    this.maxLoopsPerSend = maxLoopsPerSend;
    this.executor = executor;
    if (systemMessage != null) {
      SystemMessage system = SystemMessage.from(systemMessage);
      store.add(system);
      log.addAll(MessageMapping.toMemhook(system, MessageOrigin.MODEL, this::callById));
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
    return new LangChain4jChatService(model, memory, null, maxLoopsPerSend, THREAD_PER_SEND);
  }

  // ---- host side -------------------------------------------------------------------------

  /** Queues a user message; it joins the conversation when the next send loop starts. */
  public ChatMessage queueUser(String text) {
    Objects.requireNonNull(text, "text");
    UserMessage message = UserMessage.from(text);
    ChatMessage memhook = ChatMessage.user(text);
    synchronized (lock) {
      queue.add(new Queued(List.of(message), List.of(memhook), false));
    }
    return memhook;
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
    return enqueueSend()
        .thenApply(
            response -> {
              if (response == null) {
                throw new CancellationException(
                    "the send was interrupted before the model answered");
              }
              return response.aiMessage();
            });
  }

  /**
   * A snapshot of the LangChain4j messages the model is sent next (the chat memory's content),
   * oldest first; injected pairs included.
   */
  public List<dev.langchain4j.data.message.ChatMessage> langChain4jMessages() {
    synchronized (lock) {
      return List.copyOf(store.messages());
    }
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
    synchronized (lock) {
      return List.copyOf(log);
    }
  }

  @Override
  public CompletionStage<ToolResult> injectToolCall(String toolName, Map<String, Object> args) {
    Objects.requireNonNull(toolName, "toolName");
    Objects.requireNonNull(args, "args");
    ToolCall call;
    ToolExecutionRequest request;
    try {
      call = ToolCall.of(toolName, args);
      request = MessageMapping.request(call);
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(e);
    }
    return execute(call)
        .thenApply(
            result -> {
              Map<String, Object> synthetic = MessageMapping.syntheticAttributes();
              AiMessage ai =
                  AiMessage.builder()
                      .toolExecutionRequests(List.of(request))
                      .attributes(synthetic)
                      .build();
              ToolExecutionResultMessage resultMessage =
                  MessageMapping.resultMessage(request, result, synthetic);
              List<ChatMessage> memhook =
                  List.of(
                      ChatMessage.toolCall(call, MessageOrigin.SYNTHETIC),
                      ChatMessage.toolResult(call, result, MessageOrigin.SYNTHETIC));
              synchronized (lock) {
                queue.add(new Queued(List.of(ai, resultMessage), memhook, true));
              }
              return result;
            });
  }

  @Override
  public void setNeedsResend() {
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
    return enqueueSend().thenApply(response -> null);
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
   * @throws IllegalArgumentException if the definition's parameters schema cannot be expressed as a
   *     LangChain4j {@code JsonObjectSchema} (the message names the keyword and where it is)
   */
  @Override
  public Registration registerTool(ToolDefinition definition, ToolHandler handler) {
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(handler, "handler");
    ToolSpecification specification;
    try {
      specification =
          ToolSpecification.builder()
              .name(definition.name())
              .description(definition.description())
              .parameters(ToolSchemas.parameters(definition.parametersSchema()))
              .build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("tool " + definition.name() + ": " + e.getMessage(), e);
    }
    Tool tool = new Tool(definition, specification, handler);
    synchronized (lock) {
      if (tools.containsKey(definition.name())) {
        throw new IllegalStateException(
            "a tool named " + definition.name() + " is already registered");
      }
      tools.put(definition.name(), tool);
    }
    return () -> {
      synchronized (lock) {
        tools.remove(definition.name(), tool);
      }
    };
  }

  @Override
  public String toString() {
    synchronized (lock) {
      return "LangChain4jChatService[" + log.size() + " messages, tools=" + tools.keySet() + "]";
    }
  }

  // ---- AiServices side (package-private, used by MemhookLangChain4j) --------------------------

  /**
   * Adds a message AiServices put in the chat memory.
   *
   * @return false if it was the reply this service handed over, which is in the conversation
   *     already and ends AiServices' use of the conversation for this model call
   */
  boolean addFromAiServices(dev.langchain4j.data.message.ChatMessage message) {
    Objects.requireNonNull(message, "message");
    synchronized (lock) {
      if (message == handedOver) {
        handedOver = null; // already in the conversation: this service appended it
        return false;
      }
      if (!cleared.isEmpty() && cleared.get(0).equals(message)) {
        // putting back what a clear() took out (LangChain4j clears and re-adds to remove one
        // message): the memory gets it again, the log has it already
        cleared.remove(0);
        store.add(message);
        return true;
      }
      cleared.clear();
      if (message instanceof SystemMessage system && isCurrentSystemMessage(system)) {
        store.add(message); // the memory decides; the log records a system message once
        return true;
      }
      store.add(message);
      log.addAll(MessageMapping.toMemhook(message, MessageOrigin.MODEL, this::callById));
      return true;
    }
  }

  /** The chat memory's messages, as AiServices reads them. */
  List<dev.langchain4j.data.message.ChatMessage> memoryMessages() {
    synchronized (lock) {
      return store.messages();
    }
  }

  /** Replaces the chat memory's messages (AiServices does when it rewrites a tool result). */
  void setFromAiServices(Iterable<dev.langchain4j.data.message.ChatMessage> messages) {
    synchronized (lock) {
      store.set(messages);
    }
  }

  /**
   * Empties the chat memory. The log and the hook stay: LangChain4j clears a memory to re-add all
   * but one of its messages, and those re-adds are recognised (in order, by equality) and not
   * logged twice, so nothing is captured or scanned again.
   */
  void clearFromAiServices() {
    synchronized (lock) {
      cleared.clear();
      cleared.addAll(store.messages());
      store.clear();
      handedOver = null;
    }
  }

  /** The registered tools as AiServices executes them. */
  Map<ToolSpecification, ToolExecutor> toolExecutors() {
    Map<ToolSpecification, ToolExecutor> out = new LinkedHashMap<>();
    synchronized (lock) {
      for (Tool tool : tools.values()) {
        out.put(tool.specification(), new AiServicesToolExecutor());
      }
    }
    return out;
  }

  /**
   * Runs one send for AiServices on the calling thread: the same loop as {@link #send()}, with
   * {@code request}'s messages and parameters (tools, response format) as the base, except that the
   * model's tool calls are returned for AiServices to execute rather than executed here. The reply
   * returned is in the conversation already; AiServices' own add of it is skipped.
   */
  ChatResponse chatForAiServices(ChatRequest request, Function<ChatRequest, ChatResponse> invoker) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    CompletableFuture<Void> previous;
    synchronized (lock) {
      previous = sendTail;
      sendTail = done;
    }
    try {
      previous.join();
      return runLoops(request, invoker);
    } finally {
      done.complete(null);
    }
  }

  /** Executes model tool calls for AiServices with the registered handlers. */
  private final class AiServicesToolExecutor implements ToolExecutor {
    @Override
    public String execute(ToolExecutionRequest request, Object memoryId) {
      return await(executeForModel(request)).content();
    }

    @Override
    public ToolExecutionResult executeWithContext(
        ToolExecutionRequest request, InvocationContext context) {
      ToolResult result = await(executeForModel(request));
      return ToolExecutionResult.builder()
          .isError(result.error())
          .resultText(result.content())
          .build();
    }
  }

  // ---- the loop --------------------------------------------------------------------------

  private CompletableFuture<ChatResponse> enqueueSend() {
    int generation = sendGeneration.get();
    CompletableFuture<ChatResponse> result = new CompletableFuture<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    CompletableFuture<Void> previous;
    synchronized (lock) {
      previous = sendTail;
      sendTail = done;
    }
    previous.whenComplete(
        (ignored, error) -> {
          if (sendGeneration.get() != generation) {
            done.complete(null); // cancelled by interrupt(true)
            result.complete(null);
            return;
          }
          try {
            executor.execute(
                () -> {
                  ChatResponse response;
                  try {
                    response = runLoops(null, model::chat);
                  } catch (Throwable t) {
                    done.complete(null);
                    result.completeExceptionally(t);
                    return;
                  }
                  done.complete(null);
                  result.complete(response);
                });
          } catch (RuntimeException refused) {
            done.complete(null);
            result.completeExceptionally(refused);
          }
        });
    return result;
  }

  /**
   * Runs the loops of one send on the calling thread.
   *
   * @param external the request AiServices built, or null for a send of this service's own
   * @return the model's last response, or null if interrupted before the model answered
   */
  private ChatResponse runLoops(ChatRequest external, Function<ChatRequest, ChatResponse> invoker) {
    List<dev.langchain4j.data.message.ChatMessage> requestMessages =
        external == null ? null : new ArrayList<>(external.messages());
    synchronized (lock) {
      sending = true;
      interrupted.set(false);
    }
    ChatResponse last = null;
    try {
      for (int number = 1; ; number++) {
        needsResend.set(false);
        flushQueue(requestMessages);
        fire(beforeSendLoop, "beforeSendLoop");
        // AiServices must get an answer, so its first model call is never skipped
        if (interrupted.get() && (external == null || last != null)) {
          return handOver(last, external);
        }
        flushQueue(requestMessages);
        ChatRequest request;
        synchronized (lock) {
          request =
              external == null
                  ? ownRequest()
                  : ChatRequest.builder()
                      .messages(List.copyOf(requestMessages))
                      .parameters(external.parameters())
                      .build();
        }
        ChatResponse response = invoker.apply(request);
        AiMessage reply = Objects.requireNonNull(response.aiMessage(), "the model gave no message");
        last = response;
        synchronized (lock) {
          appendReply(reply);
          if (requestMessages != null) {
            requestMessages.add(reply);
          }
        }
        boolean toolCalls = reply.hasToolExecutionRequests();
        if (toolCalls && external == null) {
          for (ToolExecutionRequest call : reply.toolExecutionRequests()) {
            ToolResult result = await(executeForModel(call));
            ToolExecutionResultMessage message =
                MessageMapping.resultMessage(call, result, Map.of());
            synchronized (lock) {
              store.add(message);
              log.addAll(MessageMapping.toMemhook(message, MessageOrigin.MODEL, this::callById));
            }
          }
          needsResend.set(true);
        }
        fire(afterSend, "afterSend");
        if (toolCalls && external != null) {
          // AiServices executes them and calls the model again: that call is the resend, and the
          // pairs afterSend queued join it after the tool results
          return handOver(response, external);
        }
        if (!needsResend.get() || interrupted.get() || number >= maxLoopsPerSend) {
          return handOver(response, external);
        }
      }
    } finally {
      synchronized (lock) {
        sending = false;
      }
    }
  }

  private ChatResponse handOver(ChatResponse response, ChatRequest external) {
    if (external != null && response != null) {
      synchronized (lock) {
        handedOver = response.aiMessage();
      }
    }
    return response;
  }

  /** The request of this service's own send; under {@link #lock}. */
  private ChatRequest ownRequest() {
    List<ToolSpecification> specifications = new ArrayList<>(tools.size());
    for (Tool tool : tools.values()) {
      specifications.add(tool.specification());
    }
    ChatRequest.Builder builder = ChatRequest.builder().messages(List.copyOf(store.messages()));
    if (!specifications.isEmpty()) {
      builder.toolSpecifications(specifications);
    }
    return builder.build();
  }

  /** Appends the model's reply; under {@link #lock}. */
  private void appendReply(AiMessage reply) {
    store.add(reply);
    log.addAll(MessageMapping.toMemhook(reply, MessageOrigin.MODEL, this::callById));
  }

  /** Moves the queue into the conversation (and into {@code requestMessages}, if not null). */
  private void flushQueue(List<dev.langchain4j.data.message.ChatMessage> requestMessages) {
    synchronized (lock) {
      cleared.clear();
      for (Queued q : queue) {
        if (q.beforeUserTurn()) {
          insertBeforeUserTurn(q, requestMessages);
        } else {
          q.langChain4j().forEach(store::add);
          log.addAll(q.memhook());
          if (requestMessages != null) {
            requestMessages.addAll(q.langChain4j());
          }
        }
      }
      queue.clear();
    }
  }

  /** Inserts an injected pair before the trailing user turn, if any; under {@link #lock}. */
  private void insertBeforeUserTurn(
      Queued q, List<dev.langchain4j.data.message.ChatMessage> requestMessages) {
    List<dev.langchain4j.data.message.ChatMessage> current = new ArrayList<>(store.messages());
    int at = userTurnStart(current);
    if (at == current.size()) {
      q.langChain4j().forEach(store::add);
    } else {
      current.addAll(at, q.langChain4j());
      store.set(current);
    }
    int logAt = log.size();
    while (logAt > 0 && log.get(logAt - 1).role() == ChatRole.USER) {
      logAt--;
    }
    log.addAll(logAt, q.memhook());
    if (requestMessages != null) {
      requestMessages.addAll(userTurnStart(requestMessages), q.langChain4j());
    }
  }

  /** The index of the first of the trailing user messages; the size if the last is no user's. */
  private static int userTurnStart(List<dev.langchain4j.data.message.ChatMessage> messages) {
    int at = messages.size();
    while (at > 0 && messages.get(at - 1) instanceof UserMessage) {
      at--;
    }
    return at;
  }

  private boolean isCurrentSystemMessage(SystemMessage system) {
    for (int i = log.size() - 1; i >= 0; i--) {
      ChatMessage m = log.get(i);
      if (m.role() == ChatRole.SYSTEM) {
        return m.text().equals(system.text());
      }
    }
    return false;
  }

  /** The call with this id in the conversation, or null; under {@link #lock}. */
  private ToolCall callById(String id) {
    for (int i = log.size() - 1; i >= 0; i--) {
      ChatMessage m = log.get(i);
      if (m.role() == ChatRole.TOOL_CALL && m.toolCall().id().equals(id)) {
        return m.toolCall();
      }
    }
    return null;
  }

  /** Executes a registered tool: fails the stage for an unknown tool or a failing handler. */
  private CompletionStage<ToolResult> execute(ToolCall call) {
    Tool tool;
    synchronized (lock) {
      tool = tools.get(call.toolName());
    }
    if (tool == null) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException("no tool named " + call.toolName()));
    }
    try {
      return Objects.requireNonNull(tool.handler().execute(call), "the tool handler returned null");
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Executes a call the model made: every failure becomes an error result the model reads. */
  private CompletionStage<ToolResult> executeForModel(ToolExecutionRequest request) {
    ToolCall call;
    try {
      call =
          new ToolCall(
              MessageMapping.toolCall(request).id(),
              request.name(),
              MessageMapping.parseArguments(request.arguments()));
    } catch (IllegalArgumentException e) {
      return CompletableFuture.completedFuture(
          ToolResult.failure("tool " + request.name() + ": " + e.getMessage()));
    }
    return execute(call)
        .handle(
            (result, error) -> {
              if (error == null) {
                return result;
              }
              Throwable cause = unwrap(error);
              return ToolResult.failure(
                  "tool "
                      + request.name()
                      + " failed: "
                      + Objects.toString(cause.getMessage(), cause.getClass().getSimpleName()));
            });
  }

  private static void fire(List<Callback> callbacks, String phase) {
    for (Callback c : callbacks) {
      if (c.removed().get()) {
        continue;
      }
      try {
        Objects.requireNonNull(c.callback().run(), "the callback returned null")
            .toCompletableFuture()
            .join();
      } catch (RuntimeException e) {
        LOG.warn("a {} callback failed; the send goes on", phase, unwrap(e));
      }
    }
  }

  /** Waits for a stage that never completes exceptionally. */
  private static <T> T await(CompletionStage<T> stage) {
    return stage.toCompletableFuture().join();
  }

  private static Registration register(List<Callback> list, ChatCallback callback) {
    Callback entry = new Callback(callback, new AtomicBoolean());
    list.add(entry);
    return () -> {
      if (entry.removed().compareAndSet(false, true)) {
        list.remove(entry);
      }
    };
  }

  private static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
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
          chatMemory != null ? chatMemory : new ListChatMemory(),
          systemMessage,
          maxLoopsPerSend,
          executor != null ? executor : THREAD_PER_SEND);
    }
  }

  /** The default store: every message, in order. Guarded by the service's lock. */
  private static final class ListChatMemory implements ChatMemory {
    private final List<dev.langchain4j.data.message.ChatMessage> messages = new ArrayList<>();

    @Override
    public Object id() {
      return "default";
    }

    @Override
    public void add(dev.langchain4j.data.message.ChatMessage message) {
      messages.add(message);
    }

    @Override
    public void set(Iterable<dev.langchain4j.data.message.ChatMessage> replacement) {
      messages.clear();
      replacement.forEach(messages::add);
    }

    @Override
    public List<dev.langchain4j.data.message.ChatMessage> messages() {
      return new ArrayList<>(messages);
    }

    @Override
    public void clear() {
      messages.clear();
    }
  }
}
