package dev.memhook.springai;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.memory.ChatMemory;

/**
 * The conversations a {@link MemhookAdvisor} holds, by conversation id: each a {@link
 * ConversationChat} view with the {@link MemoryHook} attached to it, opened on first use and
 * dropped by {@link #end} or {@link #close}. Without a memory service (tests) views are kept and no
 * hook is attached.
 *
 * <p>Thread-safe. Null arguments are rejected with {@link NullPointerException}. Does not own the
 * memory service: {@link #close()} detaches every hook and leaves the service open.
 */
final class Conversations {

  // logs under the advisor's name, which is the one hosts know and configure
  private static final Logger LOG = LoggerFactory.getLogger(MemhookAdvisor.class);

  private final MemoryService service;
  private final HookOptions hookOptions;
  private final Duration callbackTimeout;
  private final String defaultConversationId;
  private final Map<String, Conversation> conversations = new ConcurrentHashMap<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  private record Conversation(ConversationChat chat, MemoryHook hook) {}

  /**
   * Conversations hooking {@code service} (null for none) into each view with {@code hookOptions};
   * {@code callbackTimeout} bounds the model's call of a registered tool, and requests without a
   * conversation id belong to {@code defaultConversationId}.
   */
  Conversations(
      MemoryService service,
      HookOptions hookOptions,
      Duration callbackTimeout,
      String defaultConversationId) {
    this.service = service;
    this.hookOptions = Objects.requireNonNull(hookOptions, "hookOptions");
    this.callbackTimeout = Objects.requireNonNull(callbackTimeout, "callbackTimeout");
    this.defaultConversationId =
        Objects.requireNonNull(defaultConversationId, "defaultConversationId");
  }

  /**
   * The view of a conversation, created (with its hook attached) on first use.
   *
   * @throws IllegalStateException if closed, or the hook cannot be attached (for example, the
   *     memory service is closed)
   */
  ConversationChat chatService(String conversationId) {
    Objects.requireNonNull(conversationId, "conversationId");
    if (closed.get()) {
      throw new IllegalStateException("this MemhookAdvisor is closed");
    }
    return conversations.computeIfAbsent(conversationId, this::open).chat();
  }

  /** The hook attached to a conversation held here, if any. */
  Optional<MemoryHook> hook(String conversationId) {
    Objects.requireNonNull(conversationId, "conversationId");
    Conversation c = conversations.get(conversationId);
    return c == null ? Optional.empty() : Optional.ofNullable(c.hook());
  }

  /** Detaches a conversation's hook and drops its view; does nothing for an unknown id. */
  void end(String conversationId) {
    Objects.requireNonNull(conversationId, "conversationId");
    Conversation c = conversations.remove(conversationId);
    if (c != null && c.hook() != null) {
      c.hook().dispose();
    }
  }

  /** The ids of the conversations held, in no particular order. */
  Set<String> ids() {
    return Set.copyOf(conversations.keySet());
  }

  /** Ends every conversation; later requests get no view. Idempotent. */
  void close() {
    if (closed.compareAndSet(false, true)) {
      for (String id : List.copyOf(conversations.keySet())) {
        end(id);
      }
    }
  }

  /**
   * The view of the request's conversation (its {@link ChatMemory#CONVERSATION_ID}, or the default
   * conversation when absent), or null when memory is unavailable and the call must pass through:
   * when closed, or when the hook cannot be attached (logged).
   */
  ConversationChat conversationFor(ChatClientRequest request) {
    if (closed.get()) {
      return null;
    }
    Object id = request.context().get(ChatMemory.CONVERSATION_ID);
    String conversationId = id == null ? defaultConversationId : id.toString();
    try {
      return chatService(conversationId);
    } catch (RuntimeException e) {
      LOG.warn(
          "Memhook: cannot attach memory to conversation {}; the call goes on without memories",
          conversationId,
          e);
      return null;
    }
  }

  private Conversation open(String conversationId) {
    ConversationChat chat = new ConversationChat(conversationId, callbackTimeout);
    MemoryHook hook = null;
    if (service != null) {
      hook = service.hookInto(chat, optionsFor(conversationId));
    }
    return new Conversation(chat, hook);
  }

  /**
   * The hook options for one conversation: the configured ones, with the captured session named
   * after the conversation when the options name none, so each conversation captures into its own
   * session {@code spring-ai-<conversation id>}.
   */
  private HookOptions optionsFor(String conversationId) {
    HookOptions o = hookOptions;
    String session = "spring-ai-" + conversationId;
    if (o.sessionId() != null || session.length() > MemoryDraft.MAX_SESSION) {
      return o;
    }
    return o.withSessionId(session);
  }
}
