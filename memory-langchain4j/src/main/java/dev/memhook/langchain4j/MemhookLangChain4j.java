package dev.memhook.langchain4j;

import dev.langchain4j.memory.chat.ChatMemoryProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.observability.api.listener.AiServiceListener;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolProvider;
import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.chat.ConversationRegistry;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

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
 *       transformer cannot see the reply, so neither could do this alone. How the decorator finds
 *       the conversation: see {@code HookedChatModel}. Each model call the decorator makes for a
 *       conversation (AiServices' calls and the resends) is a submission its hook hears of, with
 *       the request's messages, so the hook's receipts say which calls carried each injected pair
 *       ({@link LangChain4jChatService#onRequestSubmitted}).
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
  public static final int MAX_MAX_CONVERSATIONS = ConversationRegistry.MAX_MAX_CONVERSATIONS;

  private final AiServicesConversations conversations;
  private final HookedChatModel hookedModel;
  private final ConversationTools tools;

  private MemhookLangChain4j(Builder b) {
    this.hookedModel = new HookedChatModel(b.model);
    this.conversations =
        new AiServicesConversations(
            b.model,
            b.memory,
            b.options != null ? b.options : memoryId -> HookOptions.defaults(),
            LangChain4jChatService.DEFAULT_MAX_LOOPS_PER_SEND,
            b.maxConversations,
            hookedModel);
    this.tools = new ConversationTools(conversations);
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
        .registerListeners(aiServiceListeners());
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
      AiServicesConversation c =
          conversations.use(
              memoryId,
              Objects.requireNonNull(
                  shortTerm.get(memoryId), "the chat memory provider returned null"));
      return c.chatMemory();
    };
  }

  /**
   * The AiServices listeners that tell which conversations are in a call, so the bound never evicts
   * one under its caller, and that end a call's hold on its thread, so a later model call on that
   * thread outside an AiServices conversation goes straight to the model even when the call ended
   * without a model call after its last use of the chat memory (a tool that returns immediately).
   * {@link #configure} registers them; hosts that wire {@link #chatModel()}, {@link
   * #chatMemoryProvider} and {@link #toolProvider()} themselves register them with {@code
   * AiServices.registerListeners}.
   */
  public List<AiServiceListener<?>> aiServiceListeners() {
    return conversations.callListeners();
  }

  /** Offers each conversation's registered tools ({@code get_memory}) and executes them. */
  public ToolProvider toolProvider() {
    return tools;
  }

  /** The conversation of a memory id, if AiServices has used it and it is held; not a use. */
  public Optional<LangChain4jChatService> conversation(Object memoryId) {
    AiServicesConversation c = conversations.peek(Objects.requireNonNull(memoryId, "memoryId"));
    return c == null ? Optional.empty() : Optional.of(c.chat());
  }

  /** The live hook of a memory id's conversation, if any; not a use. */
  public Optional<MemoryHook> hook(Object memoryId) {
    AiServicesConversation c = conversations.peek(Objects.requireNonNull(memoryId, "memoryId"));
    return c == null ? Optional.empty() : Optional.ofNullable(c.hook());
  }

  /** The memory ids of the conversations held, in no particular order. */
  public Set<Object> memoryIds() {
    return conversations.memoryIds();
  }

  /**
   * Detaches the hook of a memory id's conversation and forgets it; the next use of the id starts a
   * fresh conversation on what the application's chat memory holds, whose new hook may inject the
   * same memories again. Call it with AiServices' own {@code evictChatMemory}. The {@linkplain
   * Builder#maxConversations bound} evicts the least recently used idle conversation the same way.
   */
  public void evict(Object memoryId) {
    conversations.evict(Objects.requireNonNull(memoryId, "memoryId"));
  }

  /** Detaches every hook; conversations go on without memory. Idempotent. */
  @Override
  public void close() {
    conversations.close();
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
