package dev.memhook.springai;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.chat.ConversationRegistry;
import dev.memhook.api.chat.Registration;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.memory.ChatMemory;

/**
 * The conversations a {@link MemhookAdvisor} holds, by conversation id: the host kit's {@link
 * ConversationRegistry} of {@link ConversationChat} views, each with the {@link MemoryHook}
 * attached to it, opened on first use and dropped by {@link #end}, by {@link #close}, or when the
 * bound evicts it. A conversation is held busy from {@link #conversationFor} until its {@link
 * InCall} is released (its call, waiting for its turn included), so the bound never evicts it.
 * Without a memory service (tests) views are kept and no hook is attached. The public contract of
 * the bound is stated on {@link MemhookAdvisor} and {@link
 * MemhookAdvisor.Builder#maxConversations}.
 *
 * <p>Thread-safe. Null arguments are rejected with {@link NullPointerException}. Does not own the
 * memory service: {@link #close()} detaches every hook and leaves the service open.
 */
final class Conversations {

  private static final Logger LOG = LoggerFactory.getLogger(Conversations.class);

  private final MemoryService service;
  private final Function<String, HookOptions> hookOptions;
  private final Duration callbackTimeout;
  private final String defaultConversationId;
  private final int maxLoopsPerCall;
  private final ConversationRegistry<String, Conversation> registry;

  /** A view and the hook attached to it (null without a memory service). */
  private record Conversation(ConversationChat chat, MemoryHook hook) {}

  /**
   * A call's use of a conversation: its view, held busy until {@link #release()} (idempotent).
   *
   * @param chat the conversation's view
   * @param hold the registry's hold on the conversation id
   */
  record InCall(ConversationChat chat, Registration hold) {

    /** Ends the use; the conversation may be evicted once idle. */
    void release() {
      hold.remove();
    }
  }

  /**
   * Conversations hooking {@code service} (null for none) into each view with the options {@code
   * hookOptions} gives for its conversation id; {@code callbackTimeout} bounds each phase's
   * callbacks and the model's call of a registered tool, requests without a conversation id belong
   * to {@code defaultConversationId}, at most {@code maxConversations} (1 to {@link
   * ConversationRegistry#MAX_MAX_CONVERSATIONS}) are held while idle, and a call runs at most
   * {@code maxLoopsPerCall} loops.
   */
  Conversations(
      MemoryService service,
      Function<String, HookOptions> hookOptions,
      Duration callbackTimeout,
      String defaultConversationId,
      int maxConversations,
      int maxLoopsPerCall) {
    this.service = service;
    this.hookOptions = Objects.requireNonNull(hookOptions, "hookOptions");
    this.callbackTimeout = Objects.requireNonNull(callbackTimeout, "callbackTimeout");
    this.defaultConversationId =
        Objects.requireNonNull(defaultConversationId, "defaultConversationId");
    this.maxLoopsPerCall = maxLoopsPerCall;
    this.registry = new ConversationRegistry<>(maxConversations, new Ends());
  }

  /**
   * The view of a conversation, created (with its hook attached) on first use; counts as a use for
   * the bound, but does not keep the conversation from being evicted later.
   *
   * @throws IllegalStateException if closed, or the hook cannot be attached (for example, the
   *     memory service is closed)
   */
  ConversationChat chatService(String conversationId) {
    Objects.requireNonNull(conversationId, "conversationId");
    checkOpen();
    return registry.use(conversationId, this::open).chat();
  }

  /** The hook attached to a conversation held here, if any; not a use. */
  Optional<MemoryHook> hook(String conversationId) {
    Objects.requireNonNull(conversationId, "conversationId");
    return registry.peek(conversationId).map(Conversation::hook);
  }

  /**
   * Detaches a conversation's hook and drops its view; does nothing for an unknown id. A call still
   * running in it goes on without memory.
   */
  void end(String conversationId) {
    registry.end(Objects.requireNonNull(conversationId, "conversationId"));
  }

  /** The ids of the conversations held, in no particular order. */
  Set<String> ids() {
    return registry.keys();
  }

  /** Ends every conversation; later requests get no view. Idempotent. */
  void close() {
    registry.close();
  }

  /**
   * The request's conversation (its {@link ChatMemory#CONVERSATION_ID}, or the default conversation
   * when absent), held busy so the bound does not evict it, or null when memory is unavailable and
   * the call must pass through: when closed, or when the hook cannot be attached (logged). A
   * non-null use must be {@linkplain InCall#release released}.
   */
  InCall conversationFor(ChatClientRequest request) {
    if (registry.isClosed()) {
      return null;
    }
    Object id = request.context().get(ChatMemory.CONVERSATION_ID);
    String conversationId = id == null ? defaultConversationId : id.toString();
    Registration hold = registry.hold(conversationId);
    try {
      // closed since the check: the registry hands back a view already ended, without its hook,
      // so the call goes on without memory
      return new InCall(registry.use(conversationId, this::open).chat(), hold);
    } catch (RuntimeException e) {
      hold.remove();
      LOG.warn(
          "Memhook: cannot attach memory to conversation {}; the call goes on without memories",
          conversationId,
          e);
      return null;
    }
  }

  private void checkOpen() {
    if (registry.isClosed()) {
      throw new IllegalStateException("this MemhookAdvisor is closed");
    }
  }

  private Conversation open(String conversationId) {
    ConversationChat chat = new ConversationChat(conversationId, callbackTimeout, maxLoopsPerCall);
    MemoryHook hook = null;
    if (service != null) {
      hook = service.hookInto(chat, optionsFor(conversationId));
    }
    return new Conversation(chat, hook);
  }

  /**
   * The hook options for one conversation: the configured ones for its id, with the captured
   * session named after the conversation when the options name none, so each conversation captures
   * into its own session {@code spring-ai-<conversation id>}.
   *
   * @throws NullPointerException if the host's function returned null
   */
  private HookOptions optionsFor(String conversationId) {
    HookOptions o =
        Objects.requireNonNull(
            hookOptions.apply(conversationId),
            "the hook options function returned null for conversation " + conversationId);
    String session = "spring-ai-" + conversationId;
    if (o.sessionId() != null || session.length() > MemoryDraft.MAX_SESSION) {
      return o;
    }
    return o.withSessionId(session);
  }

  /** Ends what the registry drops, and logs what the bound does. */
  private static final class Ends implements ConversationRegistry.Lifecycle<String, Conversation> {

    @Override
    public void end(Conversation conversation) {
      if (conversation.hook() != null) {
        conversation.hook().dispose();
      }
    }

    @Override
    public void evicted(String conversationId, Conversation conversation) {
      LOG.debug("Memhook: conversation {} evicted, the least recently used", conversationId);
    }

    @Override
    public void overBound(int held, int bound) {
      LOG.warn(
          "Memhook: {} conversations are held, over the bound of {}, because the others are in a"
              + " call; idle ones are evicted as new conversations open. Raise"
              + " maxConversations if this persists (logged once)",
          held,
          bound);
    }
  }
}
