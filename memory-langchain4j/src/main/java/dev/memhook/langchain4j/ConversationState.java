package dev.memhook.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The conversation of one {@link LangChain4jChatService}, held twice: as the LangChain4j messages
 * the model is sent (kept in a {@link ChatMemory}, which may bound them), and as the log of every
 * Memhook {@link ChatMessage} the service has seen. Messages queued by the host wait here until the
 * next send loop moves them in.
 *
 * <h2>Where injected messages go</h2>
 *
 * An injected tool call is queued as an {@link AiMessage} carrying one {@link ToolExecutionRequest}
 * and its {@link ToolExecutionResultMessage}, both of {@link MessageOrigin#SYNTHETIC} origin. When
 * the pair joins a conversation that ends with the user's turn (one or more user messages), it is
 * placed <em>before</em> that turn, so the model reads (tool call, tool result, user message):
 * every provider accepts a request that ends with the user's turn, while a request ending in a tool
 * result after the user message would read as the assistant having already answered, and
 * Anthropic's and Gemini's strict user/assistant alternation needs the tool exchange to sit between
 * the previous assistant turn and the user's. Otherwise (a resend after the model answered, or
 * after tool results) the pair is appended. The same rule places the pair in the log and in the
 * request of an AiServices send.
 *
 * <h2>Messages it did not write</h2>
 *
 * Messages already in the chat memory when the conversation is made are sent to the model but stay
 * out of {@link #messages()}: a conversation resumed from a persistent memory was scanned and
 * captured in its earlier life, and handing it to a new hook as new would capture it again and
 * spend the first turn's recall on old messages instead of the user's new one. When AiServices
 * writes the memory too, its add of the reply this service handed over, its re-adds after a {@code
 * clear()}, and a repeated system message go to the memory only, so nothing is logged twice.
 *
 * <h2>What a request carried</h2>
 *
 * Each LangChain4j message this class logs is remembered, by identity, with the Memhook messages it
 * was logged as, so a request's messages translate back to the very messages of {@link
 * #messages()}, same ids ({@link #carriedBy}). A message it never logged (one the chat memory held
 * before, or gives back as a copy) is translated afresh, with new ids. What is remembered is pruned
 * to the messages the chat memory still holds at each request, so a bounded memory bounds it too.
 *
 * <p>Thread-safe: one lock guards the memory, the log and the queue, and nothing outside this class
 * is called while it is held (the chat memory's own methods aside).
 */
final class ConversationState {

  /** Messages that join the conversation together; {@code beforeUserTurn} for injected pairs. */
  private record Queued(
      List<dev.langchain4j.data.message.ChatMessage> langChain4j,
      List<ChatMessage> memhook,
      boolean beforeUserTurn) {}

  private final Object lock = new Object();

  /** The LangChain4j messages the model is sent; guarded by {@link #lock}. */
  private final ChatMemory store;

  /** Every message of the conversation as Memhook sees it; guarded by {@link #lock}. */
  private final List<ChatMessage> log = new ArrayList<>();

  /** Messages waiting for the next loop; guarded by {@link #lock}. */
  private final List<Queued> queue = new ArrayList<>();

  /**
   * The Memhook messages each LangChain4j message was logged as, by identity; guarded by {@link
   * #lock}.
   */
  private final Map<dev.langchain4j.data.message.ChatMessage, List<ChatMessage>> loggedAs =
      new IdentityHashMap<>();

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

  /**
   * @param store the chat memory; what it holds already is sent but not logged
   * @param systemMessage a system message to add first, or null for none
   */
  ConversationState(ChatMemory store, String systemMessage) {
    this.store = store;
    if (systemMessage != null) {
      SystemMessage system = SystemMessage.from(systemMessage);
      store.add(system);
      logAs(system, MessageMapping.toMemhook(system, MessageOrigin.MODEL, this::callById));
    }
  }

  // ---- the host's messages ---------------------------------------------------------------

  /** Queues a user message, appended when the next loop starts; returns its Memhook message. */
  ChatMessage queueUser(String text) {
    Objects.requireNonNull(text, "text");
    UserMessage message = UserMessage.from(text);
    ChatMessage memhook = ChatMessage.user(text);
    synchronized (lock) {
      queue.add(new Queued(List.of(message), List.of(memhook), false));
    }
    return memhook;
  }

  /** Queues an executed injected call and its result, placed by the rule above. */
  void queueInjectedPair(ToolCall call, ToolExecutionRequest request, ToolResult result) {
    Map<String, Object> synthetic = MessageMapping.syntheticAttributes();
    AiMessage ai =
        AiMessage.builder().toolExecutionRequests(List.of(request)).attributes(synthetic).build();
    ToolExecutionResultMessage resultMessage =
        MessageMapping.resultMessage(request, result, synthetic);
    List<ChatMessage> memhook =
        List.of(
            ChatMessage.toolCall(call, MessageOrigin.SYNTHETIC),
            ChatMessage.toolResult(call, result, MessageOrigin.SYNTHETIC));
    synchronized (lock) {
      queue.add(new Queued(List.of(ai, resultMessage), memhook, true));
    }
  }

  // ---- reading ---------------------------------------------------------------------------

  /** A snapshot of the log, oldest first. */
  List<ChatMessage> messages() {
    synchronized (lock) {
      return List.copyOf(log);
    }
  }

  /** The number of messages in the log. */
  int size() {
    synchronized (lock) {
      return log.size();
    }
  }

  /** A snapshot of the LangChain4j messages the model is sent next, oldest first. */
  List<dev.langchain4j.data.message.ChatMessage> langChain4jMessages() {
    synchronized (lock) {
      return List.copyOf(store.messages());
    }
  }

  /** The request of the service's own send: the memory's messages and the tools, if any. */
  ChatRequest request(List<ToolSpecification> specifications) {
    ChatRequest.Builder builder;
    synchronized (lock) {
      builder = ChatRequest.builder().messages(List.copyOf(store.messages()));
    }
    if (!specifications.isEmpty()) {
      builder.toolSpecifications(specifications);
    }
    return builder.build();
  }

  /**
   * The Memhook messages {@code request} carries, in its order: for each message this class logged,
   * the messages of the log it was logged as; for any other, a fresh translation. Forgets what it
   * remembered of messages the chat memory and the request no longer hold.
   */
  List<ChatMessage> carriedBy(List<dev.langchain4j.data.message.ChatMessage> request) {
    synchronized (lock) {
      List<ChatMessage> carried = new ArrayList<>(request.size() + 2);
      for (dev.langchain4j.data.message.ChatMessage m : request) {
        List<ChatMessage> known = loggedAs.get(m);
        carried.addAll(
            known != null
                ? known
                : MessageMapping.toMemhook(
                    m, MessageOrigin.MODEL, id -> callIn(carried, id, this::callById)));
      }
      Set<dev.langchain4j.data.message.ChatMessage> held =
          Collections.newSetFromMap(new IdentityHashMap<>());
      held.addAll(store.messages());
      held.addAll(request);
      loggedAs.keySet().retainAll(held);
      return carried;
    }
  }

  // ---- the send loop ---------------------------------------------------------------------

  /**
   * Moves the queue into the conversation, and into {@code requestMessages} (the request of an
   * AiServices send) if not null; forgets what the last {@code clear()} took out.
   */
  void flushQueue(List<dev.langchain4j.data.message.ChatMessage> requestMessages) {
    synchronized (lock) {
      cleared.clear();
      for (Queued q : queue) {
        if (q.beforeUserTurn()) {
          insertBeforeUserTurn(q, requestMessages);
        } else {
          q.langChain4j().forEach(store::add);
          log.addAll(q.memhook());
          remember(q);
          if (requestMessages != null) {
            requestMessages.addAll(q.langChain4j());
          }
        }
      }
      queue.clear();
    }
  }

  /** Appends the model's reply, also to {@code requestMessages} if not null. */
  void appendReply(
      AiMessage reply, List<dev.langchain4j.data.message.ChatMessage> requestMessages) {
    synchronized (lock) {
      store.add(reply);
      logAs(reply, MessageMapping.toMemhook(reply, MessageOrigin.MODEL, this::callById));
      if (requestMessages != null) {
        requestMessages.add(reply);
      }
    }
  }

  /** Appends the result of a tool call the model made. */
  void appendToolResult(ToolExecutionResultMessage message) {
    synchronized (lock) {
      store.add(message);
      logAs(message, MessageMapping.toMemhook(message, MessageOrigin.MODEL, this::callById));
    }
  }

  /** Records the reply handed to AiServices, so that its add of it is skipped. */
  void handOver(AiMessage reply) {
    synchronized (lock) {
      handedOver = reply;
    }
  }

  // ---- AiServices' writes ----------------------------------------------------------------

  /**
   * Adds a message AiServices put in the chat memory.
   *
   * @return false if it was the reply handed over, which is in the conversation already
   */
  boolean addFromAiServices(dev.langchain4j.data.message.ChatMessage message) {
    Objects.requireNonNull(message, "message");
    synchronized (lock) {
      if (message == handedOver) {
        handedOver = null; // already in the conversation: the send loop appended it
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
      logAs(message, MessageMapping.toMemhook(message, MessageOrigin.MODEL, this::callById));
      return true;
    }
  }

  /** The chat memory's messages, as AiServices reads them. */
  List<dev.langchain4j.data.message.ChatMessage> memoryMessages() {
    synchronized (lock) {
      return store.messages();
    }
  }

  /** Replaces the chat memory's messages; the log is unchanged. */
  void setFromAiServices(Iterable<dev.langchain4j.data.message.ChatMessage> messages) {
    synchronized (lock) {
      store.set(messages);
    }
  }

  /** Empties the chat memory and remembers what it held, to recognise the re-adds. */
  void clearFromAiServices() {
    synchronized (lock) {
      cleared.clear();
      cleared.addAll(store.messages());
      store.clear();
      handedOver = null;
    }
  }

  // ---- under the lock --------------------------------------------------------------------

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
    remember(q);
    if (requestMessages != null) {
      requestMessages.addAll(userTurnStart(requestMessages), q.langChain4j());
    }
  }

  /** Appends {@code memhook} to the log as what {@code message} is; under {@link #lock}. */
  private void logAs(dev.langchain4j.data.message.ChatMessage message, List<ChatMessage> memhook) {
    log.addAll(memhook);
    loggedAs.put(message, List.copyOf(memhook));
  }

  /**
   * Remembers what a queued entry's LangChain4j messages were logged as: one Memhook message each
   * (a user message; an injected call, then its result); under {@link #lock}.
   */
  private void remember(Queued q) {
    if (q.langChain4j().size() == q.memhook().size()) {
      for (int i = 0; i < q.memhook().size(); i++) {
        loggedAs.put(q.langChain4j().get(i), List.of(q.memhook().get(i)));
      }
    }
  }

  /** The call with this id among {@code messages}, else {@code otherwise}'s. */
  private static ToolCall callIn(
      List<ChatMessage> messages, String id, Function<String, ToolCall> otherwise) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      ChatMessage m = messages.get(i);
      if (m.role() == ChatRole.TOOL_CALL && m.toolCall().id().equals(id)) {
        return m.toolCall();
      }
    }
    return otherwise.apply(id);
  }

  /** The index of the first of the trailing user messages; the size if the last is no user's. */
  private static int userTurnStart(List<dev.langchain4j.data.message.ChatMessage> messages) {
    int at = messages.size();
    while (at > 0 && messages.get(at - 1) instanceof UserMessage) {
      at--;
    }
    return at;
  }

  /** Whether {@code system} is the last system message in the log; under {@link #lock}. */
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
}
