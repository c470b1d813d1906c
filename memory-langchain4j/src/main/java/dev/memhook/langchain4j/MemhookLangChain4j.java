package dev.memhook.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.ChatMemoryProvider;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.ChatRequestOptions;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;
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
 *       thread.
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
 * <p>Thread-safe. Conversations with different memory ids are independent; one conversation must
 * not be used by two AiServices calls at once (AiServices itself does not support that). Null
 * arguments are rejected with {@link NullPointerException}.
 */
public final class MemhookLangChain4j implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(MemhookLangChain4j.class);

  private final ChatModel model;
  private final MemoryService memory;
  private final Function<Object, HookOptions> options;
  private final int maxLoopsPerSend;
  private final HookedChatModel hookedModel = new HookedChatModel();
  private final ConcurrentMap<Object, Conversation> conversations = new ConcurrentHashMap<>();

  /** The conversation AiServices is working on, on this thread; set by the chat memory wrapper. */
  private final ThreadLocal<Conversation> current = new ThreadLocal<>();

  private volatile boolean closed;

  private MemhookLangChain4j(
      ChatModel model,
      MemoryService memory,
      Function<Object, HookOptions> options,
      int maxLoopsPerSend) {
    this.model = model;
    this.memory = memory;
    this.options = options;
    this.maxLoopsPerSend = maxLoopsPerSend;
  }

  /**
   * Memory for AiServices over {@code model}, hooking each conversation with {@code options} and at
   * most {@link LangChain4jChatService#DEFAULT_MAX_LOOPS_PER_SEND} model calls per AiServices model
   * call.
   *
   * <p>With a fixed {@link HookOptions#sessionId()}, every conversation captures into that one
   * session; leave it unset to get a session per conversation.
   */
  public static MemhookLangChain4j create(
      ChatModel model, MemoryService memory, HookOptions options) {
    Objects.requireNonNull(options, "options");
    return create(model, memory, memoryId -> options);
  }

  /**
   * Memory for AiServices over {@code model}, hooking the conversation of each chat memory id with
   * the options {@code optionsByMemoryId} gives for it: typically its own {@link
   * dev.memhook.api.Scope} when the memory id names a user or tenant, so conversations never recall
   * each other's memories.
   *
   * @param optionsByMemoryId called once per conversation, with AiServices' memory id; it must not
   *     return null
   */
  public static MemhookLangChain4j create(
      ChatModel model, MemoryService memory, Function<Object, HookOptions> optionsByMemoryId) {
    return new MemhookLangChain4j(
        Objects.requireNonNull(model, "model"),
        Objects.requireNonNull(memory, "memory"),
        Objects.requireNonNull(optionsByMemoryId, "optionsByMemoryId"),
        LangChain4jChatService.DEFAULT_MAX_LOOPS_PER_SEND);
  }

  /**
   * Sets the chat model, the chat memory provider and the tool provider of {@code builder}. Other
   * tool providers may be added before or after; do not set another chat model or chat memory.
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
        .toolProvider(toolProvider());
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
   * memory.
   */
  public ChatMemoryProvider chatMemoryProvider(ChatMemoryProvider shortTerm) {
    Objects.requireNonNull(shortTerm, "shortTerm");
    return memoryId ->
        conversations.computeIfAbsent(
                Objects.requireNonNull(memoryId, "memoryId"),
                id ->
                    new Conversation(
                        id,
                        Objects.requireNonNull(
                            shortTerm.get(id), "the chat memory provider returned null")))
            .chatMemory;
  }

  /** Offers each conversation's registered tools ({@code get_memory}) and executes them. */
  public ToolProvider toolProvider() {
    return this::provideTools;
  }

  /** The conversation of a memory id, if AiServices has used it. */
  public Optional<LangChain4jChatService> conversation(Object memoryId) {
    Conversation c = conversations.get(Objects.requireNonNull(memoryId, "memoryId"));
    return c == null ? Optional.empty() : Optional.of(c.chat);
  }

  /** The live hook of a memory id's conversation, if any. */
  public Optional<MemoryHook> hook(Object memoryId) {
    Conversation c = conversations.get(Objects.requireNonNull(memoryId, "memoryId"));
    return c == null ? Optional.empty() : Optional.ofNullable(c.hook);
  }

  /**
   * Detaches the hook of a memory id's conversation and forgets it; the next use of the id starts a
   * fresh conversation on what the application's chat memory holds. Call it with AiServices' own
   * {@code evictChatMemory}.
   */
  public void evict(Object memoryId) {
    Conversation c = conversations.remove(Objects.requireNonNull(memoryId, "memoryId"));
    if (c != null) {
      c.detach();
    }
  }

  /** Detaches every hook; conversations go on without memory. Idempotent. */
  @Override
  public void close() {
    closed = true;
    for (Object id : List.copyOf(conversations.keySet())) {
      evict(id);
    }
  }

  private ToolProviderResult provideTools(ToolProviderRequest request) {
    Object id = request.chatMemoryId();
    Conversation c = id == null ? null : conversations.get(id);
    ToolProviderResult.Builder result = ToolProviderResult.builder();
    if (c != null) {
      result.addAll(c.chat.toolExecutors());
    }
    return result.build();
  }

  /** One AiServices conversation: its chat service, its memory wrapper and its hook. */
  private final class Conversation {
    final Object memoryId;
    final LangChain4jChatService chat;
    final ChatMemory chatMemory;
    final HookOptions options;
    volatile MemoryHook hook;

    Conversation(Object memoryId, ChatMemory shortTerm) {
      this.memoryId = memoryId;
      this.chat = LangChain4jChatService.view(model, shortTerm, maxLoopsPerSend);
      this.chatMemory = new HookedChatMemory(shortTerm.id(), this);
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

  /** The chat memory AiServices sees: the application's memory, behind a conversation. */
  private final class HookedChatMemory implements ChatMemory {
    private final Object id;
    private final Conversation conversation;

    HookedChatMemory(Object id, Conversation conversation) {
      this.id = id;
      this.conversation = conversation;
    }

    @Override
    public Object id() {
      return id;
    }

    @Override
    public void add(ChatMessage message) {
      if (conversation.chat.addFromAiServices(message)) {
        current.set(conversation);
      } else {
        current.remove(); // the turn's answer: no model call of this conversation follows it
      }
    }

    @Override
    public void set(Iterable<ChatMessage> messages) {
      current.set(conversation);
      conversation.chat.setFromAiServices(messages);
    }

    @Override
    public List<ChatMessage> messages() {
      current.set(conversation);
      return conversation.chat.memoryMessages();
    }

    @Override
    public void clear() {
      conversation.chat.clearFromAiServices();
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
}
