package dev.memhook.api.chat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The conversations a host holds, by key (a conversation id, an agent framework's memory id), at
 * most a bound of them: for a host with a conversation per user or per request, so that what it
 * holds per conversation (a {@link HostedChat} with its log, a live hook) cannot grow without
 * limit. A conversation is opened on first use ({@link #use}) and ended by {@link #end}, by {@link
 * #close}, or by the bound, which ends the least recently used idle one when opening one more would
 * exceed it.
 *
 * <p>A conversation is busy while the host holds it ({@link #hold}, say for the length of a call,
 * or from an agent framework's "call started" to "call ended"), and a busy conversation is never
 * ended by the bound: when every other one is busy, more than the bound are held until a later open
 * finds idle ones, and {@link Lifecycle#overBound} is told once. Holds are counted by key, apart
 * from the conversations, so a call is known even before its conversation is (re)opened.
 *
 * <h2>Design note</h2>
 *
 * One lock guards an insertion-ordered map whose order is the recency order (each use moves its
 * entry to the end, so eviction walks from the front and skips busy keys), the holds and the
 * once-only notice. Not a cache library's size eviction: that is not least-recently-used (an
 * admission policy may refuse the newest entry, the one being opened) and cannot skip entries in
 * use. The {@link Lifecycle} is called outside the lock: a conversation is opened without it, so a
 * slow open (attaching a hook) never holds up other conversations, and a concurrent open of the
 * same key may win, in which case the loser is ended; ended conversations are ended outside it too.
 *
 * <p>Thread-safe. Null arguments are rejected with {@link NullPointerException}.
 *
 * @param <K> the key type; keys are compared with {@code equals}
 * @param <C> the conversation type
 */
public final class ConversationRegistry<K, C> implements AutoCloseable {

  /**
   * Default bound: 10,000. Each held conversation keeps its whole log and a live hook, so the bound
   * is what keeps a host with a conversation per user or per request from growing without limit;
   * 10,000 is far more than the conversations one instance has in flight, so an evicted
   * conversation is one nobody has used for a while.
   */
  public static final int DEFAULT_MAX_CONVERSATIONS = 10_000;

  /** The largest bound: 1,000,000. */
  public static final int MAX_MAX_CONVERSATIONS = 1_000_000;

  /**
   * How a registry ends its conversations, and what it tells the host; the host's. Called outside
   * the registry's lock, possibly from several threads at once; must not throw.
   *
   * @param <K> the key type
   * @param <C> the conversation type
   */
  public interface Lifecycle<K, C> {

    /**
     * Ends a conversation the registry no longer holds (ended, closed, evicted, or the loser of a
     * concurrent open): detaches its hook, say. Called once per conversation opened and not
     * returned held.
     */
    void end(C conversation);

    /**
     * Told the first time the registry holds more than its bound because every other conversation
     * is busy, with how many it holds and the bound; a host logs it. The default does nothing.
     */
    default void overBound(int held, int bound) {}

    /**
     * Told when the bound ends the idle {@code conversation} of {@code key}, just before it is
     * ended; a host logs it. The default does nothing.
     */
    default void evicted(K key, C conversation) {}
  }

  private final int maxConversations;
  private final Lifecycle<K, C> lifecycle;
  private final Object lock = new Object();

  /** Guarded by {@link #lock}; insertion order is recency order. */
  private final LinkedHashMap<K, C> conversations = new LinkedHashMap<>();

  /** How many holds each busy key has; guarded by {@link #lock}. */
  private final Map<K, Integer> holds = new HashMap<>();

  private boolean warnedOverBound; // guarded by lock
  private volatile boolean closed;

  /**
   * A registry holding at most {@code maxConversations} idle conversations, 1 to {@link
   * #MAX_MAX_CONVERSATIONS}.
   */
  public ConversationRegistry(int maxConversations, Lifecycle<K, C> lifecycle) {
    Objects.requireNonNull(lifecycle, "lifecycle");
    if (maxConversations < 1 || maxConversations > MAX_MAX_CONVERSATIONS) {
      throw new IllegalArgumentException(
          "maxConversations must be in [1, "
              + MAX_MAX_CONVERSATIONS
              + "], got "
              + maxConversations);
    }
    this.maxConversations = maxConversations;
    this.lifecycle = lifecycle;
  }

  /** The bound. */
  public int maxConversations() {
    return maxConversations;
  }

  /**
   * The conversation of {@code key}, made the most recently used; if absent, opened by {@code
   * opener} (outside the lock; it must not return null) and the least recently used idle
   * conversations are ended to keep the bound. Once closed, a conversation is still opened for the
   * caller, but it is ended at once and not held: the caller gets one that works without what
   * {@link Lifecycle#end} took away.
   */
  public C use(K key, Function<? super K, ? extends C> opener) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(opener, "opener");
    if (!closed) {
      synchronized (lock) {
        C c = touchLocked(key);
        if (c != null) {
          return c;
        }
      }
    }
    C opened = Objects.requireNonNull(opener.apply(key), "the opener returned null");
    C winner;
    List<Map.Entry<K, C>> evicted = List.of();
    int overBound = 0;
    synchronized (lock) {
      winner = closed ? null : touchLocked(key);
      if (winner == null && !closed) {
        conversations.put(key, opened);
        evicted = evictLocked(key);
        if (conversations.size() > maxConversations && !warnedOverBound) {
          warnedOverBound = true;
          overBound = conversations.size();
        }
        winner = opened;
      }
    }
    if (winner != opened) {
      // the loser of a concurrent open, or one opened once closed: none may stay live
      lifecycle.end(opened);
    }
    if (overBound > 0) {
      lifecycle.overBound(overBound, maxConversations);
    }
    for (Map.Entry<K, C> e : evicted) {
      lifecycle.evicted(e.getKey(), e.getValue());
      lifecycle.end(e.getValue());
    }
    return winner != null ? winner : opened;
  }

  /**
   * Marks {@code key} busy until the registration is removed (idempotent): the bound never ends a
   * busy conversation. A key may be held several times; it is idle once every hold is removed.
   * Holding does not open the conversation; {@link #use} does.
   */
  public Registration hold(K key) {
    Objects.requireNonNull(key, "key");
    synchronized (lock) {
      holds.merge(key, 1, Integer::sum);
    }
    AtomicBoolean released = new AtomicBoolean();
    return () -> {
      if (released.compareAndSet(false, true)) {
        synchronized (lock) {
          holds.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
        }
      }
    };
  }

  /** The conversation of {@code key}, if held; not a use. */
  public Optional<C> peek(K key) {
    Objects.requireNonNull(key, "key");
    synchronized (lock) {
      return Optional.ofNullable(conversations.get(key));
    }
  }

  /** The keys of the conversations held, in no particular order. */
  public Set<K> keys() {
    synchronized (lock) {
      return Set.copyOf(conversations.keySet());
    }
  }

  /** Ends the conversation of {@code key}, if held; the next use opens a fresh one. */
  public void end(K key) {
    Objects.requireNonNull(key, "key");
    C c;
    synchronized (lock) {
      c = conversations.remove(key);
    }
    if (c != null) {
      lifecycle.end(c);
    }
  }

  /** Whether {@link #close} has run. */
  public boolean isClosed() {
    return closed;
  }

  /** Ends every conversation; later uses get conversations ended at once. Idempotent. */
  @Override
  public void close() {
    List<C> ended;
    synchronized (lock) {
      closed = true;
      ended = List.copyOf(conversations.values());
      conversations.clear();
    }
    ended.forEach(lifecycle::end);
  }

  private C touchLocked(K key) {
    C c = conversations.remove(key);
    if (c != null) {
      conversations.put(key, c);
    }
    return c;
  }

  /** Removes idle conversations, least recently used first, until the bound holds again. */
  private List<Map.Entry<K, C>> evictLocked(K opened) {
    int excess = conversations.size() - maxConversations;
    if (excess <= 0) {
      return List.of();
    }
    List<Map.Entry<K, C>> evicted = new ArrayList<>(excess);
    Iterator<Map.Entry<K, C>> it = conversations.entrySet().iterator();
    while (it.hasNext() && evicted.size() < excess) {
      Map.Entry<K, C> e = it.next();
      if (!holds.containsKey(e.getKey()) && !e.getKey().equals(opened)) {
        evicted.add(Map.entry(e.getKey(), e.getValue()));
        it.remove();
      }
    }
    return evicted;
  }

  @Override
  public String toString() {
    synchronized (lock) {
      return "ConversationRegistry[" + conversations.size() + " of " + maxConversations + "]";
    }
  }
}
