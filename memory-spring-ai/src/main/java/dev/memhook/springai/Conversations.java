package dev.memhook.springai;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.memory.ChatMemory;

/**
 * The conversations a {@link MemhookAdvisor} holds, by conversation id: each a {@link
 * ConversationChat} view with the {@link MemoryHook} attached to it, opened on first use and
 * dropped by {@link #end}, by {@link #close}, or when the bound evicts it. Without a memory service
 * (tests) views are kept and no hook is attached.
 *
 * <p>Design note. The map is bounded to {@code maxConversations} and evicts the least recently used
 * conversation that is idle, ending it as {@link #end} does. A conversation is in use from {@link
 * #conversationFor} until the matching {@link #release} (its call, waiting for its turn included),
 * and such a conversation is never evicted: when every other conversation is in use the map exceeds
 * the bound until a later open finds idle ones (logged once at WARN). A small insertion-ordered
 * {@link LinkedHashMap} under one lock rather than Caffeine: Caffeine's size eviction is not LRU
 * (its admission policy may reject the newest conversation, the one being opened) and cannot skip
 * entries that are in use. Hooks are attached and disposed outside the lock, so a slow memory
 * service never holds up other conversations.
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
  private final int maxConversations;
  private final Object lock = new Object();

  // guarded by lock; insertion order is recency order, as use() moves an entry to the end
  private final LinkedHashMap<String, Conversation> conversations = new LinkedHashMap<>();
  private boolean closed; // guarded by lock
  private boolean warnedOverBound; // guarded by lock

  private static final class Conversation {
    final ConversationChat chat;
    final MemoryHook hook;
    int users; // guarded by the Conversations lock: calls between conversationFor and release

    Conversation(ConversationChat chat, MemoryHook hook) {
      this.chat = chat;
      this.hook = hook;
    }

    void dispose() {
      if (hook != null) {
        hook.dispose();
      }
    }
  }

  /**
   * Conversations hooking {@code service} (null for none) into each view with {@code hookOptions};
   * {@code callbackTimeout} bounds the model's call of a registered tool, requests without a
   * conversation id belong to {@code defaultConversationId}, and at most {@code maxConversations}
   * (positive) are held while idle.
   */
  Conversations(
      MemoryService service,
      HookOptions hookOptions,
      Duration callbackTimeout,
      String defaultConversationId,
      int maxConversations) {
    if (maxConversations < 1) {
      throw new IllegalArgumentException(
          "maxConversations must be positive, got " + maxConversations);
    }
    this.service = service;
    this.hookOptions = Objects.requireNonNull(hookOptions, "hookOptions");
    this.callbackTimeout = Objects.requireNonNull(callbackTimeout, "callbackTimeout");
    this.defaultConversationId =
        Objects.requireNonNull(defaultConversationId, "defaultConversationId");
    this.maxConversations = maxConversations;
  }

  /**
   * The view of a conversation, created (with its hook attached) on first use; counts as a use for
   * the bound, but does not keep the conversation from being evicted later.
   *
   * @throws IllegalStateException if closed, or the hook cannot be attached (for example, the
   *     memory service is closed)
   */
  ConversationChat chatService(String conversationId) {
    return use(Objects.requireNonNull(conversationId, "conversationId"), false).chat;
  }

  /** The hook attached to a conversation held here, if any; not a use. */
  Optional<MemoryHook> hook(String conversationId) {
    Objects.requireNonNull(conversationId, "conversationId");
    synchronized (lock) {
      Conversation c = conversations.get(conversationId);
      return c == null ? Optional.empty() : Optional.ofNullable(c.hook);
    }
  }

  /**
   * Detaches a conversation's hook and drops its view; does nothing for an unknown id. A call still
   * running in it goes on without memory.
   */
  void end(String conversationId) {
    Objects.requireNonNull(conversationId, "conversationId");
    Conversation c;
    synchronized (lock) {
      c = conversations.remove(conversationId);
    }
    if (c != null) {
      c.dispose();
    }
  }

  /** The ids of the conversations held, in no particular order. */
  Set<String> ids() {
    synchronized (lock) {
      return Set.copyOf(conversations.keySet());
    }
  }

  /** Ends every conversation; later requests get no view. Idempotent. */
  void close() {
    List<Conversation> ended;
    synchronized (lock) {
      closed = true;
      ended = List.copyOf(conversations.values());
      conversations.clear();
    }
    ended.forEach(Conversation::dispose);
  }

  /**
   * The view of the request's conversation (its {@link ChatMemory#CONVERSATION_ID}, or the default
   * conversation when absent), marked in use so the bound does not evict it, or null when memory is
   * unavailable and the call must pass through: when closed, or when the hook cannot be attached
   * (logged). A non-null view must be given back with {@link #release} exactly once.
   */
  ConversationChat conversationFor(ChatClientRequest request) {
    Object id = request.context().get(ChatMemory.CONVERSATION_ID);
    String conversationId = id == null ? defaultConversationId : id.toString();
    try {
      return use(conversationId, true).chat;
    } catch (ClosedException e) {
      return null;
    } catch (RuntimeException e) {
      LOG.warn(
          "Memhook: cannot attach memory to conversation {}; the call goes on without memories",
          conversationId,
          e);
      return null;
    }
  }

  /** Ends a use begun by {@link #conversationFor}; the conversation may be evicted once idle. */
  void release(ConversationChat chat) {
    synchronized (lock) {
      Conversation c = conversations.get(chat.conversationId());
      // an ended conversation, or one opened anew under the same id, is not this use's
      if (c != null && c.chat == chat) {
        c.users--;
      }
    }
  }

  /** The conversation of an id, opened if absent, moved to most recent, and in use if asked. */
  private Conversation use(String conversationId, boolean inUse) {
    synchronized (lock) {
      Conversation c = lookUpLocked(conversationId, inUse);
      if (c != null) {
        return c;
      }
    }
    // attach outside the lock; a concurrent open of the same id may win, and ours is dropped
    Conversation opened = open(conversationId);
    Conversation winner;
    List<Conversation> evicted = List.of();
    try {
      synchronized (lock) {
        winner = lookUpLocked(conversationId, inUse);
        if (winner == null) {
          winner = opened;
          winner.users += inUse ? 1 : 0;
          conversations.put(conversationId, winner);
          evicted = evictLocked(conversationId);
        }
      }
    } catch (ClosedException e) {
      opened.dispose();
      throw e;
    }
    if (winner != opened) {
      opened.dispose();
    }
    for (Conversation c : evicted) {
      LOG.debug(
          "Memhook: conversation {} evicted, the least recently used of {}",
          c.chat.conversationId(),
          maxConversations);
      c.dispose();
    }
    return winner;
  }

  private Conversation lookUpLocked(String conversationId, boolean inUse) {
    if (closed) {
      throw new ClosedException();
    }
    Conversation c = conversations.remove(conversationId);
    if (c != null) {
      conversations.put(conversationId, c);
      c.users += inUse ? 1 : 0;
    }
    return c;
  }

  /** Removes idle conversations, least recently used first, until the bound holds again. */
  private List<Conversation> evictLocked(String opened) {
    int excess = conversations.size() - maxConversations;
    if (excess <= 0) {
      return List.of();
    }
    List<Conversation> evicted = new ArrayList<>(excess);
    Iterator<Conversation> it = conversations.values().iterator();
    while (it.hasNext() && evicted.size() < excess) {
      Conversation c = it.next();
      if (c.users == 0 && !c.chat.conversationId().equals(opened)) {
        it.remove();
        evicted.add(c);
      }
    }
    if (evicted.size() < excess && !warnedOverBound) {
      warnedOverBound = true;
      LOG.warn(
          "Memhook: {} conversations are held, over the bound of {}, because the others are in a"
              + " call; idle ones are evicted as new conversations open. Raise"
              + " maxConversations if this persists (logged once)",
          conversations.size(),
          maxConversations);
    }
    return evicted;
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

  /** Thrown by {@link #use} once closed. */
  private static final class ClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    ClosedException() {
      super("this MemhookAdvisor is closed");
    }
  }
}
