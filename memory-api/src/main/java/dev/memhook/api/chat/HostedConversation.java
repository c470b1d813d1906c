package dev.memhook.api.chat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The conversation of one {@link HostedChat}, held twice: as the host's messages the model is sent
 * (its {@link Transcript}), and as the log of every {@link ChatMessage} the chat has seen, which
 * hooks read. Messages queued by the host and by injections wait here until the next loop moves
 * them in, where the chat's {@link HostedChat.Placement} puts injected pairs.
 *
 * <h2>What a request carried</h2>
 *
 * Each host message logged here is remembered, by identity, with the {@code ChatMessage}s it was
 * logged as, so a request's messages translate back to the very messages of {@link #messages()},
 * same ids ({@link #carriedBy}). A message never logged (one the transcript held before, or a
 * host's copy) is translated afresh, with new ids. What is remembered is pruned at each request to
 * the messages the transcript and the request still hold, so a bounded transcript bounds it too.
 *
 * <p>Thread-safe: one lock guards the transcript, the log, the queue and what is remembered; the
 * mapper and the transcript are called under it, and nothing else is.
 */
final class HostedConversation<M> {

  /** Messages that join the conversation together; {@code pair} for an injected pair. */
  private record Queued<M>(List<M> host, List<ChatMessage> chat, boolean pair) {}

  private final MessageMapper<M> mapper;
  private final Transcript<M> transcript;
  private final HostedChat.Placement placement;
  private final Object lock = new Object();

  /** Every message of the conversation as hooks see it; guarded by {@link #lock}. */
  private final List<ChatMessage> log = new ArrayList<>();

  /** Messages waiting for the next loop; guarded by {@link #lock}. */
  private final List<Queued<M>> queue = new ArrayList<>();

  /** The chat messages each host message was logged as, by identity; guarded by {@link #lock}. */
  private final Map<M, List<ChatMessage>> loggedAs = new IdentityHashMap<>();

  HostedConversation(
      MessageMapper<M> mapper, Transcript<M> transcript, HostedChat.Placement placement) {
    this.mapper = mapper;
    this.transcript = transcript;
    this.placement = placement;
  }

  // ---- reading ---------------------------------------------------------------------------

  List<ChatMessage> messages() {
    synchronized (lock) {
      return List.copyOf(log);
    }
  }

  List<ChatMessage> queued() {
    synchronized (lock) {
      List<ChatMessage> out = new ArrayList<>();
      for (Queued<M> q : queue) {
        out.addAll(q.chat());
      }
      return out;
    }
  }

  int size() {
    synchronized (lock) {
      return log.size();
    }
  }

  /** A copy of the transcript's messages, oldest first. */
  List<M> transcriptMessages() {
    synchronized (lock) {
      return List.copyOf(transcript.messages());
    }
  }

  /**
   * The chat messages {@code request} carries, in its order: for each host message logged here, the
   * messages it was logged as; for any other, a fresh translation. Forgets what it remembered of
   * messages the transcript and the request no longer hold.
   */
  List<ChatMessage> carriedBy(List<M> request) {
    synchronized (lock) {
      List<ChatMessage> carried = new ArrayList<>(request.size() + 2);
      for (M m : request) {
        List<ChatMessage> known = loggedAs.get(m);
        carried.addAll(known != null ? known : mapper.toChat(m, lookup(carried)));
      }
      Set<M> held = Collections.newSetFromMap(new IdentityHashMap<>());
      held.addAll(transcript.messages());
      held.addAll(request);
      loggedAs.keySet().retainAll(held);
      return carried;
    }
  }

  // ---- writing ---------------------------------------------------------------------------

  /** Queues a user's message for the next loop; returns its chat message. */
  ChatMessage queueUser(String text) {
    M message = mapper.user(text);
    synchronized (lock) {
      List<ChatMessage> chat = translate(List.of(message));
      queue.add(new Queued<>(List.of(message), chat, false));
      return chat.stream().filter(c -> c.role() == ChatRole.USER).findFirst().orElseThrow();
    }
  }

  /** Queues an injected pair for the next loop. */
  void queuePair(List<M> pair) {
    synchronized (lock) {
      queue.add(new Queued<>(List.copyOf(pair), translate(pair), true));
    }
  }

  /** Adds a message the host wrote to the transcript and the log at once. */
  void record(M message) {
    synchronized (lock) {
      transcript.add(message);
      logAs(message);
    }
  }

  /**
   * Moves the queue into the conversation, and into {@code request} (the request of a send of the
   * host's own) if not null.
   */
  void flushQueue(List<M> request) {
    synchronized (lock) {
      for (Queued<M> q : queue) {
        if (q.pair() && placement == HostedChat.Placement.BEFORE_USER_TURN) {
          insertBeforeUserTurn(q, request);
        } else {
          q.host().forEach(transcript::add);
          log.addAll(q.chat());
          if (request != null) {
            request.addAll(q.host());
          }
        }
        remember(q);
      }
      queue.clear();
    }
  }

  /**
   * Appends the model's reply, also to {@code request} if not null.
   *
   * @return the tool calls the reply makes, each with the host message that made it and its index
   *     among that message's calls
   */
  List<ModelToolCall<M>> appendReply(List<M> reply, List<M> request) {
    synchronized (lock) {
      List<ModelToolCall<M>> calls = new ArrayList<>();
      for (M m : reply) {
        transcript.add(m);
        int index = 0;
        for (ChatMessage c : logAs(m)) {
          if (c.role() == ChatRole.TOOL_CALL) {
            calls.add(new ModelToolCall<>(m, index++, c.toolCall()));
          }
        }
        if (request != null) {
          request.add(m);
        }
      }
      return calls;
    }
  }

  /** A tool call the model made: the host message that made it and its index there. */
  record ModelToolCall<M>(M message, int index, ToolCall call) {}

  // ---- under the lock --------------------------------------------------------------------

  /** Inserts an injected pair before the trailing user turn, if any; under {@link #lock}. */
  private void insertBeforeUserTurn(Queued<M> q, List<M> request) {
    List<M> current = new ArrayList<>(transcript.messages());
    int at = userTurnStart(current);
    if (at == current.size()) {
      q.host().forEach(transcript::add);
    } else {
      current.addAll(at, q.host());
      transcript.set(current);
    }
    int logAt = log.size();
    while (logAt > 0 && log.get(logAt - 1).role() == ChatRole.USER) {
      logAt--;
    }
    log.addAll(logAt, q.chat());
    if (request != null) {
      request.addAll(userTurnStart(request), q.host());
    }
  }

  /** The chat messages of {@code messages}, each call found for the results after it. */
  private List<ChatMessage> translate(List<M> messages) {
    List<ChatMessage> out = new ArrayList<>();
    for (M m : messages) {
      out.addAll(mapper.toChat(m, lookup(out)));
    }
    return List.copyOf(out);
  }

  /** Appends {@code message}'s chat messages to the log, remembered; under {@link #lock}. */
  private List<ChatMessage> logAs(M message) {
    List<ChatMessage> chat = List.copyOf(mapper.toChat(message, lookup(List.of())));
    log.addAll(chat);
    loggedAs.put(message, chat);
    return chat;
  }

  /**
   * Remembers what a queued entry's host messages were logged as: split by translating each alone
   * would give new ids, so the entry's chat messages are dealt out in order, as many to each host
   * message as it translates to; under {@link #lock}.
   */
  private void remember(Queued<M> q) {
    if (q.host().size() == 1) {
      loggedAs.put(q.host().get(0), q.chat());
      return;
    }
    if (q.host().size() == q.chat().size()) {
      for (int i = 0; i < q.host().size(); i++) {
        loggedAs.put(q.host().get(i), List.of(q.chat().get(i)));
      }
    }
  }

  /** Finds a call by id among {@code batch}, then in the log, newest first. */
  private Function<String, ToolCall> lookup(List<ChatMessage> batch) {
    return id -> {
      ToolCall inBatch = callIn(batch, id);
      return inBatch != null ? inBatch : callIn(log, id);
    };
  }

  private static ToolCall callIn(List<ChatMessage> messages, String id) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      ChatMessage m = messages.get(i);
      if (m.role() == ChatRole.TOOL_CALL && m.toolCall().id().equals(id)) {
        return m.toolCall();
      }
    }
    return null;
  }

  /** The index of the first of the trailing user messages; the size if the last is no user's. */
  private int userTurnStart(List<M> messages) {
    int at = messages.size();
    while (at > 0 && mapper.isUser(messages.get(at - 1))) {
      at--;
    }
    return at;
  }

  @Override
  public String toString() {
    return Objects.toString(transcript);
  }
}
