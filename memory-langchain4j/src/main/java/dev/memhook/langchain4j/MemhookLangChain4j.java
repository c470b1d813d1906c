package dev.memhook.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.ChatMemoryProvider;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.ChatRequestOptions;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.observability.api.listener.AiServiceCompletedListener;
import dev.langchain4j.observability.api.listener.AiServiceErrorListener;
import dev.langchain4j.observability.api.listener.AiServiceListener;
import dev.langchain4j.observability.api.listener.AiServiceStartedListener;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Long-term memory for LangChain4j {@link AiServices}: one Memhook hook per chat memory id, wired
 * in through the three extension points AiServices offers.
 *
 * <pre>{@code
 * MemhookLangChain4j memhook = MemhookLangChain4j.create(model, memoryService, HookOptions.defaults());
 * Assistant assistant = memhook.configure(
 *         AiServices.builder(Assistant.class),
 *         id -> MessageWindowChatMemory.withMaxMessages(20))
 *     .build();
 * }</pre>
 *
 * <h2>Design note</h2>
 *
 * AiServices owns the turn: it adds the user message to the chat memory, calls the model, executes
 * the model's tool calls and calls the model again until it answers. The hook contract needs three
 * things from that loop, and each comes from the extension point that can give it exactly:
 *
 * <ul>
 *   <li><b>A conversation per memory id</b> ({@link #chatMemoryProvider}): the chat memory
 *       AiServices gets wraps the application's own (so its window still applies) and is, behind
 *       it, a {@link LangChain4jChatService} with a hook of its own. Injected pairs are written
 *       into that memory, so later turns still send them, and the hook's set of injected ids lives
 *       as long as the conversation: each memory is injected at most once per conversation.
 *   <li><b>The callbacks around each model call, and the resend</b> ({@link #chatModel()}): the
 *       model decorator runs the conversation's send loop around every call AiServices makes:
 *       {@code beforeSendLoop} before it (its pair goes into the request before the user's
 *       message), {@code afterSend} after it, and, when {@code afterSend} injected and the model
 *       made no tool call, the model is called again with the pair before AiServices sees the
 *       answer. A ChatModelListener cannot change the request or call again, and a request
 *       transformer cannot see the reply, so neither could do this alone. The decorator finds the
 *       conversation through the chat memory: AiServices reads or writes the memory on its own
 *       thread right before each model call, and the wrapper records the conversation for that
 *       thread. Each model call the decorator makes for a conversation (AiServices' calls and the
 *       resends) is a submission its hook hears of, with the request's messages, so the hook's
 *       receipts say which calls carried each injected pair ({@link
 *       LangChain4jChatService#onRequestSubmitted}).
 *   <li><b>The model's own {@code get_memory} calls</b> ({@link #toolProvider()}): the provider
 *       offers each conversation's registered tools, so AiServices executes them like any tool and
 *       writes the results into the conversation.
 * </ul>
 *
 * <h2>What is not exact</h2>
 *
 * When the model answers with tool calls, {@code afterSend} runs before AiServices executes them
 * (the pairs it queued join the next call, after the tool results), and that next call is
 * AiServices' own, bounded by its {@code maxToolCallingRoundTrips} rather than by {@code
 * maxLoopsPerSend}. A turn whose tools return immediately leaves such pairs queued for the next
 * turn. Every model reply joins the conversation, also the answer to an output guardrail's
 * reprompt, which AiServices would not keep. Streaming models are not supported. See the module's
 * README.
 *
 * <h2>How many conversations</h2>
 *
 * At most {@linkplain Builder#maxConversations maxConversations} conversations are held ({@link
 * #DEFAULT_MAX_CONVERSATIONS} by default). When a new memory id would exceed it, the least recently
 * used conversation is ended exactly as {@link #evict} ends it: its hook is closed and its view,
 * with its log and its record of injected memories, is dropped. The next use of that id starts a
 * fresh conversation on what the application's chat memory holds, whose new hook may inject the
 * same memories once more. A conversation in an AiServices call is never evicted (the listeners
 * {@link #configure} registers, {@link #aiServiceListeners()}, say which calls are running): while
 * every other conversation is in a call, more than the bound are held for a while, and a warning
 * says so once. The bound covers what Memhook holds per id; AiServices keeps its own chat memory
 * per id until its {@code evictChatMemory}, so hosts that know when a conversation ends should
 * still call both.
 *
 * <p>Thread-safe. Conversations with different memory ids are independent; one conversation must
 * not be used by two AiServices calls at once (AiServices itself does not support that). Null
 * arguments are rejected with {@link NullPointerException}.
 */
public final class MemhookLangChain4j implements AutoCloseable {

  /**
   * Default {@link Builder#maxConversations}: 10,000. Each held conversation keeps its view (the
   * log of the whole conversation), its record of injected memories and a live hook, so the bound
   * is what keeps an application with a memory id per user or per request from growing without
   * limit; 10,000 is far more than the conversations one instance has in flight, so an evicted
   * conversation is one nobody has used for a while.
   */
  public static final int DEFAULT_MAX_CONVERSATIONS = 10_000;

  /** The largest {@link Builder#maxConversations}: 1,000,000. */
  public static final int MAX_MAX_CONVERSATIONS = 1_000_000;

  private static final Logger LOG = LoggerFactory.getLogger(MemhookLangChain4j.class);

  private final ChatModel model;
  private final MemoryService memory;
  private final Function<Object, HookOptions> options;
  private final int maxLoopsPerSend;
  private final int maxConversations;
  private final HookedChatModel hookedModel = new HookedChatModel();
  private final List<AiServiceListener<?>> listeners =
      List.of(
          (AiServiceStartedListener) event -> callStarted(event.invocationContext()),
          (AiServiceCompletedListener) event -> callEnded(event.invocationContext()),
          (AiServiceErrorListener) event -> callEnded(event.invocationContext()));

  private final Object lock = new Object();

  // guarded by lock; insertion order is recency order, as use() moves an entry to the end
  private final LinkedHashMap<Object, Conversation> conversations = new LinkedHashMap<>();

  // guarded by lock: the AiServices calls running per memory id, by invocation id; kept apart from
  // the conversations so a call is known even before its conversation is (re)opened
  private final Map<Object, Set<UUID>> calls = new HashMap<>();

  private boolean warnedOverBound; // guarded by lock

  /** The conversation AiServices is working on, on this thread; set by the chat memory wrapper. */
  private final ThreadLocal<Conversation> current = new ThreadLocal<>();

  private volatile boolean closed;

  private MemhookLangChain4j(Builder b) {
    this.model = b.model;
    this.memory = b.memory;
    this.options = b.options != null ? b.options : memoryId -> HookOptions.defaults();
    this.maxLoopsPerSend = LangChain4jChatService.DEFAULT_MAX_LOOPS_PER_SEND;
    this.maxConversations = b.maxConversations;
  }

  /**
   * A builder for memory for AiServices over {@code model}; without {@link Builder#hookOptions} nor
   * {@link Builder#hookOptionsByMemoryId}, each conversation is hooked with {@link
   * HookOptions#defaults()}.
   */
  public static Builder builder(ChatModel model, MemoryService memory) {
    return new Builder(
        Objects.requireNonNull(model, "model"), Objects.requireNonNull(memory, "memory"));
  }

  /**
   * Memory for AiServices over {@code model}, hooking each conversation with {@code options}, with
   * at most {@link LangChain4jChatService#DEFAULT_MAX_LOOPS_PER_SEND} model calls per AiServices
   * model call and at most {@link #DEFAULT_MAX_CONVERSATIONS} conversations; {@link #builder} sets
   * the bound.
   *
   * <p>With a fixed {@link HookOptions#sessionId()}, every conversation captures into that one
   * session; leave it unset to get a session per conversation.
   */
  public static MemhookLangChain4j create(
      ChatModel model, MemoryService memory, HookOptions options) {
    return builder(model, memory).hookOptions(options).build();
  }

  /**
   * Memory for AiServices over {@code model}, hooking the conversation of each chat memory id with
   * the options {@code optionsByMemoryId} gives for it: typically its own {@link
   * dev.memhook.api.Scope} when the memory id names a user or tenant, so conversations never recall
   * each other's memories. At most {@link #DEFAULT_MAX_CONVERSATIONS} conversations are held;
   * {@link #builder} sets the bound.
   *
   * @param optionsByMemoryId called once per conversation opened (again after an eviction), with
   *     AiServices' memory id; it must not return null
   */
  public static MemhookLangChain4j create(
      ChatModel model, MemoryService memory, Function<Object, HookOptions> optionsByMemoryId) {
    return builder(model, memory).hookOptionsByMemoryId(optionsByMemoryId).build();
  }

  /**
   * Sets the chat model, the chat memory provider and the tool provider of {@code builder}, and
   * registers the {@linkplain #aiServiceListeners() listeners} that keep a conversation in a call
   * from being evicted. Other tool providers and listeners may be added before or after; do not set
   * another chat model or chat memory.
   *
   * @param shortTerm the application's own chat memories, such as {@code id ->
   *     MessageWindowChatMemory.withMaxMessages(20)}
   * @return {@code builder}
   */
  public <T> AiServices<T> configure(AiServices<T> builder, ChatMemoryProvider shortTerm) {
    Objects.requireNonNull(builder, "builder");
    return builder
        .chatModel(chatModel())
        .chatMemoryProvider(chatMemoryProvider(shortTerm))
        .toolProvider(toolProvider())
        .registerListeners(listeners);
  }

  /**
   * The model decorator: runs the hook's callbacks around each model call of a conversation and
   * calls the model again for a resend. A call not preceded by the use of one of this object's chat
   * memories on the same thread goes straight to the model.
   */
  public ChatModel chatModel() {
    return hookedModel;
  }

  /**
   * Chat memories that are, per memory id, a hooked conversation kept in the chat memory {@code
   * shortTerm} gives for that id. If the memory service is closed, a new conversation works without
   * memory. A chat memory whose conversation was evicted opens a fresh one, on the same short-term
   * memory, at its next use.
   */
  public ChatMemoryProvider chatMemoryProvider(ChatMemoryProvider shortTerm) {
    Objects.requireNonNull(shortTerm, "shortTerm");
    return memoryId -> {
      Objects.requireNonNull(memoryId, "memoryId");
      Conversation c =
          use(
              memoryId,
              () ->
                  Objects.requireNonNull(
                      shortTerm.get(memoryId), "the chat memory provider returned null"));
      return c.chatMemory;
    };
  }

  /**
   * The AiServices listeners that tell which conversations are in a call, so the bound never evicts
   * one under its caller. {@link #configure} registers them; hosts that wire {@link #chatModel()},
   * {@link #chatMemoryProvider} and {@link #toolProvider()} themselves register them with {@code
   * AiServices.registerListeners}.
   */
  public List<AiServiceListener<?>> aiServiceListeners() {
    return listeners;
  }

  /** Offers each conversation's registered tools ({@code get_memory}) and executes them. */
  public ToolProvider toolProvider() {
    return this::provideTools;
  }

  /** The conversation of a memory id, if AiServices has used it and it is held; not a use. */
  public Optional<LangChain4jChatService> conversation(Object memoryId) {
    Conversation c = peek(Objects.requireNonNull(memoryId, "memoryId"));
    return c == null ? Optional.empty() : Optional.of(c.chat);
  }

  /** The live hook of a memory id's conversation, if any; not a use. */
  public Optional<MemoryHook> hook(Object memoryId) {
    Conversation c = peek(Objects.requireNonNull(memoryId, "memoryId"));
    return c == null ? Optional.empty() : Optional.ofNullable(c.hook);
  }

  /** The memory ids of the conversations held, in no particular order. */
  public Set<Object> memoryIds() {
    synchronized (lock) {
      return Set.copyOf(conversations.keySet());
    }
  }

  /**
   * Detaches the hook of a memory id's conversation and forgets it; the next use of the id starts a
   * fresh conversation on what the application's chat memory holds, whose new hook may inject the
   * same memories again. Call it with AiServices' own {@code evictChatMemory}. The {@linkplain
   * Builder#maxConversations bound} evicts the least recently used idle conversation the same way.
   */
  public void evict(Object memoryId) {
    Objects.requireNonNull(memoryId, "memoryId");
    Conversation c;
    synchronized (lock) {
      c = conversations.remove(memoryId);
    }
    if (c != null) {
      c.detach();
    }
  }

  /** Detaches every hook; conversations go on without memory. Idempotent. */
  @Override
  public void close() {
    closed = true;
    List<Conversation> ended;
    synchronized (lock) {
      ended = List.copyOf(conversations.values());
      conversations.clear();
    }
    ended.forEach(Conversation::detach);
  }

  private Conversation peek(Object memoryId) {
    synchronized (lock) {
      return conversations.get(memoryId);
    }
  }

  /**
   * The conversation of a memory id, made the most recently used; if absent, opened over the chat
   * memory {@code shortTerm} gives, outside the lock (a concurrent open of the same id may win, and
   * ours is dropped), and the least recently used idle conversations are evicted to keep the bound.
   */
  private Conversation use(Object memoryId, Supplier<ChatMemory> shortTerm) {
    synchronized (lock) {
      Conversation c = touchLocked(memoryId);
      if (c != null) {
        return c;
      }
    }
    Conversation opened = new Conversation(memoryId, shortTerm.get());
    Conversation winner;
    List<Conversation> evicted = List.of();
    synchronized (lock) {
      winner = touchLocked(memoryId);
      if (winner == null) {
        winner = opened;
        conversations.put(memoryId, opened);
        evicted = evictLocked(memoryId);
      }
    }
    if (winner != opened || closed) {
      // a loser of the race, or one opened while close() ran: no live hook may outlive close()
      opened.detach();
    }
    for (Conversation c : evicted) {
      LOG.debug(
          "conversation {} evicted, the least recently used of {}", c.memoryId, maxConversations);
      c.detach();
    }
    return winner;
  }

  private Conversation touchLocked(Object memoryId) {
    Conversation c = conversations.remove(memoryId);
    if (c != null) {
      conversations.put(memoryId, c);
    }
    return c;
  }

  /** Removes idle conversations, least recently used first, until the bound holds again. */
  private List<Conversation> evictLocked(Object opened) {
    int excess = conversations.size() - maxConversations;
    if (excess <= 0) {
      return List.of();
    }
    List<Conversation> evicted = new ArrayList<>(excess);
    Iterator<Map.Entry<Object, Conversation>> it = conversations.entrySet().iterator();
    while (it.hasNext() && evicted.size() < excess) {
      Map.Entry<Object, Conversation> e = it.next();
      if (!calls.containsKey(e.getKey()) && !e.getKey().equals(opened)) {
        it.remove();
        evicted.add(e.getValue());
      }
    }
    if (evicted.size() < excess && !warnedOverBound) {
      warnedOverBound = true;
      LOG.warn(
          "{} conversations are held, over the bound of {}, because the others are in an"
              + " AiServices call; idle ones are evicted as new conversations open. Raise"
              + " maxConversations if this persists (logged once)",
          conversations.size(),
          maxConversations);
    }
    return evicted;
  }

  private void callStarted(InvocationContext call) {
    if (call == null || call.chatMemoryId() == null || call.invocationId() == null) {
      return;
    }
    synchronized (lock) {
      calls.computeIfAbsent(call.chatMemoryId(), id -> new HashSet<>()).add(call.invocationId());
    }
  }

  private void callEnded(InvocationContext call) {
    if (call == null || call.chatMemoryId() == null || call.invocationId() == null) {
      return;
    }
    synchronized (lock) {
      Set<UUID> running = calls.get(call.chatMemoryId());
      // an error before the call started (no started event) finds nothing to remove
      if (running != null && running.remove(call.invocationId()) && running.isEmpty()) {
        calls.remove(call.chatMemoryId());
      }
    }
  }

  private ToolProviderResult provideTools(ToolProviderRequest request) {
    Object id = request.chatMemoryId();
    Conversation c = id == null ? null : peek(id);
    ToolProviderResult.Builder result = ToolProviderResult.builder();
    if (c != null) {
      result.addAll(c.chat.toolExecutors());
    }
    return result.build();
  }

  /** One AiServices conversation: its chat service over the application's memory, and its hook. */
  private final class Conversation {
    final Object memoryId;
    final ChatMemory shortTerm;
    final LangChain4jChatService chat;
    final ChatMemory chatMemory;
    final HookOptions options;
    volatile MemoryHook hook;

    Conversation(Object memoryId, ChatMemory shortTerm) {
      this.memoryId = memoryId;
      this.shortTerm = shortTerm;
      this.chat = LangChain4jChatService.view(model, shortTerm, maxLoopsPerSend);
      this.chatMemory = new HookedChatMemory(memoryId, shortTerm);
      this.options =
          Objects.requireNonNull(
              MemhookLangChain4j.this.options.apply(memoryId),
              "the hook options function returned null for " + memoryId);
      attach();
    }

    private synchronized void attach() {
      if (closed) {
        return;
      }
      try {
        hook = memory.hookInto(chat, options);
      } catch (RuntimeException e) {
        // a closed memory service: the conversation goes on without memory
        LOG.warn("conversation {}: hooking memory failed; it goes on without memory", memoryId, e);
      }
    }

    synchronized void detach() {
      MemoryHook h = hook;
      hook = null;
      if (h != null) {
        h.close();
      }
    }
  }

  /**
   * The chat memory AiServices sees: the application's memory, behind the memory id's conversation.
   * It holds no conversation itself, since AiServices keeps it as long as it likes: each use finds
   * the held one, or opens a fresh one over the same application memory after an eviction.
   */
  private final class HookedChatMemory implements ChatMemory {
    private final Object memoryId;
    private final ChatMemory shortTerm;

    HookedChatMemory(Object memoryId, ChatMemory shortTerm) {
      this.memoryId = memoryId;
      this.shortTerm = shortTerm;
    }

    private Conversation conversation() {
      return use(memoryId, () -> shortTerm);
    }

    @Override
    public Object id() {
      return shortTerm.id();
    }

    @Override
    public void add(ChatMessage message) {
      Conversation conversation = conversation();
      if (conversation.chat.addFromAiServices(message)) {
        current.set(conversation);
      } else {
        current.remove(); // the turn's answer: no model call of this conversation follows it
      }
    }

    @Override
    public void set(Iterable<ChatMessage> messages) {
      Conversation conversation = conversation();
      current.set(conversation);
      conversation.chat.setFromAiServices(messages);
    }

    @Override
    public List<ChatMessage> messages() {
      Conversation conversation = conversation();
      current.set(conversation);
      return conversation.chat.memoryMessages();
    }

    @Override
    public void clear() {
      conversation().chat.clearFromAiServices();
    }
  }

  /** The model AiServices calls. */
  private final class HookedChatModel implements ChatModel {

    @Override
    public ChatResponse chat(ChatRequest request) {
      return chat(request, ChatRequestOptions.EMPTY);
    }

    @Override
    public ChatResponse chat(ChatRequest request, ChatRequestOptions requestOptions) {
      Objects.requireNonNull(request, "request");
      Conversation conversation = current.get();
      current.remove();
      if (conversation == null) {
        return model.chat(request, requestOptions);
      }
      return conversation.chat.chatForAiServices(request, r -> model.chat(r, requestOptions));
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
      return chat(request);
    }

    @Override
    public ChatRequestParameters defaultRequestParameters() {
      return model.defaultRequestParameters();
    }

    @Override
    public ModelProvider provider() {
      return model.provider();
    }

    @Override
    public Set<Capability> supportedCapabilities() {
      return model.supportedCapabilities();
    }

    @Override
    public String toString() {
      return "MemhookLangChain4j.chatModel[" + model + "]";
    }
  }

  /**
   * Builds a {@link MemhookLangChain4j}. Each setter may be called once and checks its argument at
   * once; {@link #hookOptions} and {@link #hookOptionsByMemoryId} exclude each other. Not
   * thread-safe.
   */
  public static final class Builder {
    private final ChatModel model;
    private final MemoryService memory;
    private Function<Object, HookOptions> options;
    private int maxConversations = DEFAULT_MAX_CONVERSATIONS;
    private final Set<String> set = new HashSet<>();

    private Builder(ChatModel model, MemoryService memory) {
      this.model = model;
      this.memory = memory;
    }

    /**
     * The options every conversation is hooked with; default {@link HookOptions#defaults()}. With a
     * fixed {@link HookOptions#sessionId()}, every conversation captures into that one session;
     * leave it unset to get a session per conversation.
     */
    public Builder hookOptions(HookOptions value) {
      Objects.requireNonNull(value, "hookOptions");
      setOptions("hookOptions", memoryId -> value);
      return this;
    }

    /**
     * The options of each memory id's conversation, typically its own {@link dev.memhook.api.Scope}
     * when the memory id names a user or tenant; called once per conversation opened (again after
     * an eviction), and it must not return null.
     */
    public Builder hookOptionsByMemoryId(Function<Object, HookOptions> value) {
      setOptions("hookOptionsByMemoryId", Objects.requireNonNull(value, "hookOptionsByMemoryId"));
      return this;
    }

    /**
     * The most conversations held, 1 to {@link #MAX_MAX_CONVERSATIONS}; default {@link
     * #DEFAULT_MAX_CONVERSATIONS}. Opening one more ends the least recently used idle conversation
     * exactly as {@link MemhookLangChain4j#evict} does; a conversation in an AiServices call is
     * never evicted, so while every other one is in a call more than this are held, and a warning
     * says so once.
     */
    public Builder maxConversations(int value) {
      once("maxConversations");
      if (value < 1 || value > MAX_MAX_CONVERSATIONS) {
        throw new IllegalArgumentException(
            "maxConversations must be in [1, " + MAX_MAX_CONVERSATIONS + "], got " + value);
      }
      this.maxConversations = value;
      return this;
    }

    private void setOptions(String setter, Function<Object, HookOptions> value) {
      once(setter);
      if (options != null) {
        throw new IllegalStateException(
            "hookOptions and hookOptionsByMemoryId exclude each other; set one of them");
      }
      this.options = value;
    }

    private void once(String setter) {
      if (!set.add(setter)) {
        throw new IllegalStateException(
            setter + " was already set on this builder; each setter may be called once");
      }
    }

    /** Builds it. Nothing is hooked before a conversation's first use. */
    public MemhookLangChain4j build() {
      return new MemhookLangChain4j(this);
    }
  }
}
