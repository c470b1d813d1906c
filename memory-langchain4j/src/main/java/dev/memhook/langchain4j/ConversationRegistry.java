package dev.memhook.langchain4j;

import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.observability.api.listener.AiServiceCompletedListener;
import dev.langchain4j.observability.api.listener.AiServiceErrorListener;
import dev.langchain4j.observability.api.listener.AiServiceListener;
import dev.langchain4j.observability.api.listener.AiServiceStartedListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The conversations a {@link MemhookLangChain4j} holds, by AiServices memory id: at most {@code
 * maxConversations}, the least recently used idle one evicted when a new one would exceed that, and
 * never one whose memory id is in an AiServices call. The public contract of the bound is stated on
 * {@link MemhookLangChain4j} and {@link MemhookLangChain4j.Builder#maxConversations}.
 *
 * <h2>Design note</h2>
 *
 * One lock guards the map, the marks of the calls running and the once-only warning. The map's
 * insertion order is its recency order: each use moves its entry to the end, so eviction walks from
 * the front and skips the memory ids in a call. Those marks come from the AiServices listeners
 * ({@link #callListeners()}) and are kept apart from the map, so a call is known even before its
 * conversation is (re)opened. A conversation is opened outside the lock, since opening runs the
 * application's chat memory provider and hooks memory; a concurrent open of the same memory id may
 * win, and the loser is detached. Evicted conversations are detached outside the lock too.
 *
 * <p>Thread-safe. Memory ids are never null here: the public methods check them.
 */
final class ConversationRegistry {

  // logged under MemhookLangChain4j, as before this class was split out of it, so that the
  // logger settings of hosts still apply
  private static final Logger LOG = LoggerFactory.getLogger(MemhookLangChain4j.class);

  private final int maxConversations;
  private final BiFunction<Object, ChatMemory, AiServicesConversation> opener;
  private final List<AiServiceListener<?>> callListeners =
      List.of(
          (AiServiceStartedListener) event -> callStarted(event.invocationContext()),
          (AiServiceCompletedListener) event -> callEnded(event.invocationContext()),
          (AiServiceErrorListener) event -> callEnded(event.invocationContext()));

  private final Object lock = new Object();

  // guarded by lock; insertion order is recency order, as use() moves an entry to the end
  private final LinkedHashMap<Object, AiServicesConversation> conversations = new LinkedHashMap<>();

  // guarded by lock: the AiServices calls running per memory id, by invocation id; kept apart from
  // the conversations so a call is known even before its conversation is (re)opened
  private final Map<Object, Set<UUID>> calls = new HashMap<>();

  private boolean warnedOverBound; // guarded by lock

  private volatile boolean closed;

  /**
   * @param maxConversations the bound, already checked by the builder
   * @param opener opens (and hooks) the conversation of a memory id over its application chat
   *     memory; called outside the lock
   */
  ConversationRegistry(
      int maxConversations, BiFunction<Object, ChatMemory, AiServicesConversation> opener) {
    this.maxConversations = maxConversations;
    this.opener = opener;
  }

  /** Whether {@link #close} has run; a conversation opened after it must not stay hooked. */
  boolean isClosed() {
    return closed;
  }

  /** The AiServices listeners that mark which memory ids are in a call. */
  List<AiServiceListener<?>> callListeners() {
    return callListeners;
  }

  /** The conversation of a memory id, or null; not a use. */
  AiServicesConversation peek(Object memoryId) {
    synchronized (lock) {
      return conversations.get(memoryId);
    }
  }

  /** The memory ids of the conversations held, in no particular order. */
  Set<Object> memoryIds() {
    synchronized (lock) {
      return Set.copyOf(conversations.keySet());
    }
  }

  /**
   * The conversation of a memory id, made the most recently used; if absent, opened over the chat
   * memory {@code shortTerm} gives, outside the lock (a concurrent open of the same id may win, and
   * ours is dropped), and the least recently used idle conversations are evicted to keep the bound.
   */
  AiServicesConversation use(Object memoryId, Supplier<ChatMemory> shortTerm) {
    synchronized (lock) {
      AiServicesConversation c = touchLocked(memoryId);
      if (c != null) {
        return c;
      }
    }
    AiServicesConversation opened = opener.apply(memoryId, shortTerm.get());
    AiServicesConversation winner;
    List<AiServicesConversation> evicted = List.of();
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
    for (AiServicesConversation c : evicted) {
      LOG.debug(
          "conversation {} evicted, the least recently used of {}", c.memoryId(), maxConversations);
      c.detach();
    }
    return winner;
  }

  /** Forgets the conversation of a memory id, if held, and detaches its hook. */
  void evict(Object memoryId) {
    AiServicesConversation c;
    synchronized (lock) {
      c = conversations.remove(memoryId);
    }
    if (c != null) {
      c.detach();
    }
  }

  /** Forgets every conversation and detaches its hook; later opens are detached at once. */
  void close() {
    closed = true;
    List<AiServicesConversation> ended;
    synchronized (lock) {
      ended = List.copyOf(conversations.values());
      conversations.clear();
    }
    ended.forEach(AiServicesConversation::detach);
  }

  private AiServicesConversation touchLocked(Object memoryId) {
    AiServicesConversation c = conversations.remove(memoryId);
    if (c != null) {
      conversations.put(memoryId, c);
    }
    return c;
  }

  /** Removes idle conversations, least recently used first, until the bound holds again. */
  private List<AiServicesConversation> evictLocked(Object opened) {
    int excess = conversations.size() - maxConversations;
    if (excess <= 0) {
      return List.of();
    }
    List<AiServicesConversation> evicted = new ArrayList<>(excess);
    Iterator<Map.Entry<Object, AiServicesConversation>> it = conversations.entrySet().iterator();
    while (it.hasNext() && evicted.size() < excess) {
      Map.Entry<Object, AiServicesConversation> e = it.next();
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
}
