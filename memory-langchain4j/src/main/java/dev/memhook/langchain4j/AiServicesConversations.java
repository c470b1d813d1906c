package dev.memhook.langchain4j;

import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.observability.api.listener.AiServiceCompletedListener;
import dev.langchain4j.observability.api.listener.AiServiceErrorListener;
import dev.langchain4j.observability.api.listener.AiServiceListener;
import dev.langchain4j.observability.api.listener.AiServiceStartedListener;
import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryService;
import dev.memhook.api.chat.ConversationRegistry;
import dev.memhook.api.chat.Registration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The conversations a {@link MemhookLangChain4j} holds, by AiServices memory id: the host kit's
 * {@link ConversationRegistry}, which bounds them and never evicts a busy one, opened over the
 * application's chat memory and hooked, and held busy from AiServices' "call started" to its "call
 * completed" or "call failed" ({@link #callListeners()}). The public contract of the bound is
 * stated on {@link MemhookLangChain4j} and {@link MemhookLangChain4j.Builder#maxConversations}. The
 * end of a call also ends the calling thread's record of its conversation ({@link
 * HookedChatModel#clearCurrent}), which AiServices' last use of the chat memory may have left.
 *
 * <p>Thread-safe. Memory ids are never null here: the public methods check them.
 */
final class AiServicesConversations {

  // logged under MemhookLangChain4j, whose logger settings hosts configure
  private static final Logger LOG = LoggerFactory.getLogger(AiServicesConversations.class);

  private final ChatModel model;
  private final MemoryService memory;
  private final Function<Object, HookOptions> options;
  private final int maxLoopsPerSend;
  private final HookedChatModel hookedModel;
  private final ConversationRegistry<Object, AiServicesConversation> registry;
  private final List<AiServiceListener<?>> callListeners =
      List.of(
          (AiServiceStartedListener) event -> callStarted(event.invocationContext()),
          (AiServiceCompletedListener) event -> callEnded(event.invocationContext()),
          (AiServiceErrorListener) event -> callEnded(event.invocationContext()));

  /** The hold of each AiServices call running, by invocation id; guarded by itself. */
  private final Map<UUID, Registration> calls = new HashMap<>();

  AiServicesConversations(
      ChatModel model,
      MemoryService memory,
      Function<Object, HookOptions> options,
      int maxLoopsPerSend,
      int maxConversations,
      HookedChatModel hookedModel) {
    this.model = model;
    this.memory = memory;
    this.options = options;
    this.maxLoopsPerSend = maxLoopsPerSend;
    this.hookedModel = hookedModel;
    this.registry = new ConversationRegistry<>(maxConversations, new Ends());
  }

  /** The AiServices listeners that mark which memory ids are in a call. */
  List<AiServiceListener<?>> callListeners() {
    return callListeners;
  }

  /** The conversation of a memory id, or null; not a use. */
  AiServicesConversation peek(Object memoryId) {
    return registry.peek(memoryId).orElse(null);
  }

  Set<Object> memoryIds() {
    return registry.keys();
  }

  /**
   * The conversation of a memory id, made the most recently used; if absent, opened and hooked over
   * the chat memory {@code shortTerm} (the application's for that id).
   */
  AiServicesConversation use(Object memoryId, ChatMemory shortTerm) {
    return registry.use(memoryId, id -> open(id, shortTerm));
  }

  /** Forgets the conversation of a memory id, if held, and detaches its hook. */
  void evict(Object memoryId) {
    registry.end(memoryId);
  }

  /** Forgets every conversation and detaches its hook; later opens are detached at once. */
  void close() {
    registry.close();
  }

  private AiServicesConversation open(Object memoryId, ChatMemory shortTerm) {
    Objects.requireNonNull(shortTerm, "the chat memory provider returned null");
    LangChain4jChatService chat = LangChain4jChatService.view(model, shortTerm, maxLoopsPerSend);
    ChatMemory chatMemory = new MemhookChatMemory(memoryId, shortTerm, this, hookedModel);
    HookOptions hookOptions =
        Objects.requireNonNull(
            options.apply(memoryId), "the hook options function returned null for " + memoryId);
    return new AiServicesConversation(
        memoryId, chat, chatMemory, memory, hookOptions, registry::isClosed);
  }

  private void callStarted(InvocationContext call) {
    if (call == null || call.chatMemoryId() == null || call.invocationId() == null) {
      return;
    }
    Registration hold = registry.hold(call.chatMemoryId());
    Registration previous;
    synchronized (calls) {
      previous = calls.put(call.invocationId(), hold);
    }
    if (previous != null) {
      previous.remove();
    }
  }

  private void callEnded(InvocationContext call) {
    // a call can end without a model call after its last use of the chat memory (a tool that
    // returns immediately, a failing request transformer): the next model call on this thread is
    // not that conversation's
    hookedModel.clearCurrent();
    if (call == null || call.invocationId() == null) {
      return;
    }
    Registration hold;
    synchronized (calls) {
      // an error before the call started (no started event) finds nothing to release
      hold = calls.remove(call.invocationId());
    }
    if (hold != null) {
      hold.remove();
    }
  }

  /** Ends what the registry drops, and logs what the bound does. */
  private static final class Ends
      implements ConversationRegistry.Lifecycle<Object, AiServicesConversation> {

    @Override
    public void end(AiServicesConversation conversation) {
      conversation.detach();
    }

    @Override
    public void evicted(Object memoryId, AiServicesConversation conversation) {
      LOG.debug("conversation {} evicted, the least recently used", memoryId);
    }

    @Override
    public void overBound(int held, int bound) {
      LOG.warn(
          "{} conversations are held, over the bound of {}, because the others are in an"
              + " AiServices call; idle ones are evicted as new conversations open. Raise"
              + " maxConversations if this persists (logged once)",
          held,
          bound);
    }
  }
}
