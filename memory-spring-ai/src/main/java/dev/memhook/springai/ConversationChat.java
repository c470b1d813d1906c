package dev.memhook.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.tool.ToolCallback;

/**
 * One Spring AI conversation seen as a {@link ChatService}: the view a {@link MemhookAdvisor} keeps
 * per conversation id, and the one a memory hook is attached to.
 *
 * <p>Design note. Spring AI owns the conversation (the host's {@code ChatMemory}, or nothing at
 * all), so this view keeps only what a hook needs: the user turns, replies and tool calls it saw
 * pass through the advisor ({@link #messages()}), the registered callbacks and tools, and the
 * injected {@code get_memory} pairs. Each pair is remembered with the user turn it was injected for
 * (its anchor) and is put back into every later prompt of the conversation right before that turn's
 * user message, or, when the host's window no longer holds that message, after the leading system
 * messages; a memory is injected at most once per hook, so a model that lost the pair would lose
 * the memory for good. The view cannot call the model by itself: {@link #send()} does not start a
 * model call, and queued messages reach the model with the next {@code ChatClient} call of the
 * conversation.
 *
 * <p>Thread-safe: state is guarded by one lock, callbacks run outside it; turns of one conversation
 * are serialised by the advisor with {@link #turnPermit()}. Null arguments are rejected with {@link
 * NullPointerException}.
 */
final class ConversationChat implements ChatService {

  private static final Logger LOG = LoggerFactory.getLogger(ConversationChat.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> ARGS = new TypeReference<>() {};

  private final String conversationId;
  private final Duration toolTimeout;
  private final Object lock = new Object();
  private final List<ChatMessage> history = new ArrayList<>();
  private final List<ChatMessage> queue = new ArrayList<>();
  private final List<Pair> pairs = new ArrayList<>();
  private final Map<String, Tool> tools = new LinkedHashMap<>();
  private final List<ChatCallback> beforeSendLoop = new CopyOnWriteArrayList<>();
  private final List<ChatCallback> afterSend = new CopyOnWriteArrayList<>();
  private final AtomicBoolean needsResend = new AtomicBoolean();
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private final Semaphore turnPermit = new Semaphore(1);
  private boolean sending;
  private int turn;
  private String turnAnchor;

  private record Tool(ToolDefinition definition, ToolHandler handler) {}

  /**
   * An injected pair: the call and its result, injected during {@code turn} whose user message read
   * {@code anchor} (null when the turn had none).
   */
  record Pair(int turn, String anchor, ToolCall call, String result) {}

  ConversationChat(String conversationId, Duration toolTimeout) {
    this.conversationId = Objects.requireNonNull(conversationId, "conversationId");
    this.toolTimeout = Objects.requireNonNull(toolTimeout, "toolTimeout");
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

  @Override
  public Registration registerTool(ToolDefinition definition, ToolHandler handler) {
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(handler, "handler");
    Tool tool = new Tool(definition, handler);
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

  // ---- what the advisor drives --------------------------------------------------------------

  /** Starts a turn: the user's message (null for none) joins the conversation. */
  void beginTurn(UserMessage user) {
    synchronized (lock) {
      turn++;
      sending = true;
      interrupted.set(false);
      turnAnchor = user == null ? null : user.getText();
      if (user != null) {
        history.add(ChatMessage.user(user.getText() == null ? "" : user.getText()));
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
          pairs.add(new Pair(turn, turnAnchor, m.toolCall(), m.text()));
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
    return fire(beforeSendLoop);
  }

  CompletionStage<Void> fireAfterSend() {
    return fire(afterSend);
  }

  /** The pairs injected so far, oldest first. */
  List<Pair> pairs() {
    synchronized (lock) {
      return List.copyOf(pairs);
    }
  }

  int currentTurn() {
    synchronized (lock) {
      return turn;
    }
  }

  /** The registered tools as Spring AI callbacks, in registration order. */
  List<ToolCallback> toolCallbacks() {
    List<Tool> now;
    synchronized (lock) {
      now = List.copyOf(tools.values());
    }
    List<ToolCallback> out = new ArrayList<>(now.size());
    for (Tool t : now) {
      out.add(new ViewToolCallback(t.definition()));
    }
    return out;
  }

  /** The pair's two Spring AI messages: the assistant's tool call, then the tool's response. */
  static List<Message> springMessages(Pair pair) {
    ToolCall call = pair.call();
    AssistantMessage assistant =
        AssistantMessage.builder()
            .content("")
            .toolCalls(
                List.of(
                    new AssistantMessage.ToolCall(
                        call.id(), "function", call.toolName(), toJson(call.arguments()))))
            .build();
    ToolResponseMessage response =
        ToolResponseMessage.builder()
            .responses(
                List.of(
                    new ToolResponseMessage.ToolResponse(
                        call.id(), call.toolName(), pair.result())))
            .build();
    return List.of(assistant, response);
  }

  // ---- internals -----------------------------------------------------------------------

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
      return Objects.requireNonNull(tool.handler().execute(call), "the tool returned null");
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
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
    // a wrapper per registration, so removing one registration never removes an equal callback
    // registered twice
    ChatCallback own = callback::run;
    list.add(own);
    return () -> list.remove(own);
  }

  static String toJson(Map<String, Object> args) {
    try {
      return JSON.writeValueAsString(args);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("tool arguments are not JSON-serialisable: " + args, e);
    }
  }

  private static String errorJson(String message) {
    return toJson(Map.of("error", message));
  }

  /**
   * A registered tool offered to the model through Spring AI. Spring AI's tool loop executes it;
   * the call and its result join this view's messages so hooks see (and capture) the model's own
   * tool use. A tool removed after the request was built answers with an error result.
   */
  private final class ViewToolCallback implements ToolCallback {
    private final ToolDefinition definition;
    private final org.springframework.ai.tool.definition.ToolDefinition springDefinition;

    ViewToolCallback(ToolDefinition definition) {
      this.definition = definition;
      this.springDefinition =
          org.springframework.ai.tool.definition.ToolDefinition.builder()
              .name(definition.name())
              .description(definition.description())
              .inputSchema(definition.parametersSchema())
              .build();
    }

    @Override
    public org.springframework.ai.tool.definition.ToolDefinition getToolDefinition() {
      return springDefinition;
    }

    @Override
    public String call(String toolInput) {
      Map<String, Object> args;
      try {
        args =
            toolInput == null || toolInput.isBlank() ? Map.of() : JSON.readValue(toolInput, ARGS);
      } catch (JsonProcessingException | RuntimeException e) {
        return errorJson("arguments are not a JSON object: " + e.getMessage());
      }
      if (args == null) {
        args = Map.of();
      }
      ToolCall call = ToolCall.of(definition.name(), args);
      ToolResult result;
      try {
        result =
            execute(call).toCompletableFuture().get(toolTimeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        result = ToolResult.failure(errorJson("interrupted"));
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        LOG.warn(
            "Memhook: tool {} failed in conversation {}", definition.name(), conversationId, cause);
        result = ToolResult.failure(errorJson(String.valueOf(cause.getMessage())));
      } catch (TimeoutException e) {
        LOG.warn(
            "Memhook: tool {} took longer than {} in conversation {}",
            definition.name(),
            toolTimeout,
            conversationId);
        result = ToolResult.failure(errorJson("timed out after " + toolTimeout));
      }
      synchronized (lock) {
        history.add(ChatMessage.toolCall(call, MessageOrigin.MODEL));
        history.add(ChatMessage.toolResult(call, result, MessageOrigin.SYNTHETIC));
      }
      return result.content();
    }
  }
}
