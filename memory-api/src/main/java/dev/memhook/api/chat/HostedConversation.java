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
 * the messages the transcript and the request still hold (and, with {@link
 * HostedChat.Placement#AT_ITS_TURN}, the pairs kept for their turns), so a bounded transcript
 * bounds it too.
 *
 * <h2>Turns</h2>
 *
 * Each send is a turn, numbered from 1 ({@link #beginTurn}). Its user message is the last user
 * message that joined the conversation during the send (recorded or queued), or else the last one
 * of the request a host's own send started from. With {@link HostedChat.Placement#AT_ITS_TURN}
 * every pair is kept with the turn it joined and that turn's user text, and {@link #atTheirTurns}
 * places them all in a request the host rebuilt without them.
 *
 * <p>Thread-safe: one lock guards the transcript, the log, the queue and what is remembered; the
 * mapper and the transcript are called under it, and nothing else is.
 */
final class HostedConversation<M> {

  /** Messages that join the conversation together; {@code pair} for an injected pair. */
  private record Queued<M>(List<M> host, List<ChatMessage> chat, boolean pair) {}

  /**
   * A pair as {@link HostedChat.Placement#AT_ITS_TURN} keeps it: its host messages, the turn it
   * joined and that turn's user text (null when the turn had none).
   */
  private record TurnPair<M>(int turn, String userText, List<M> host) {}

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

  /** Every pair with its turn, oldest first, kept for {@code AT_ITS_TURN}; guarded by lock. */
  private final List<TurnPair<M>> turnPairs = new ArrayList<>();

  /** The current turn, from 1 (0 before the first send); guarded by {@link #lock}. */
  private int turn;

  /** The current turn's user text, or null; guarded by {@link #lock}. */
  private String turnUser;

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
      for (TurnPair<M> p : turnPairs) {
        held.addAll(p.host());
      }
      loggedAs.keySet().retainAll(held);
      return carried;
    }
  }

  /**
   * {@code request}, a host's request rebuilt without the pairs, with every pair kept for its turn
   * put back, as {@link HostedChat.Placement#AT_ITS_TURN} states: the current turn's pairs right
   * before the request's last user message (at its end when it has none); an older pair right
   * before its turn's user message: the one the turn's previous pair went before, or else the first
   * user message of the turn's text after the one the previous older turn's pairs went before;
   * failing that (no such message, or a turn without one), after the request's leading system
   * messages, after the older pairs placed there before it. With another placement, a copy of
   * {@code request}.
   */
  List<M> atTheirTurns(List<M> request) {
    synchronized (lock) {
      if (placement != HostedChat.Placement.AT_ITS_TURN || turnPairs.isEmpty()) {
        return List.copyOf(request);
      }
      int split = request.size();
      for (int i = request.size() - 1; i >= 0; i--) {
        if (mapper.isUser(request.get(i))) {
          split = i;
          break;
        }
      }
      List<M> out = new ArrayList<>(request.size() + 2 * turnPairs.size());
      out.addAll(request.subList(0, split));
      int floatAt = 0;
      while (floatAt < out.size() && isSystem(out.get(floatAt))) {
        floatAt++;
      }
      int cursor = floatAt; // where the next turn's user message is looked for
      int previousTurn = 0;
      int previousUser = -1; // the user message the previous pair went before, or -1
      List<M> current = new ArrayList<>();
      for (TurnPair<M> p : turnPairs) {
        if (p.turn() == turn) {
          current.addAll(p.host());
          continue;
        }
        int n = p.host().size();
        int at;
        if (p.turn() == previousTurn && previousUser >= 0) {
          at = previousUser; // the same turn: before the same message, after its earlier pairs
        } else {
          at = p.userText() == null ? -1 : indexOfUser(out, p.userText(), cursor);
        }
        previousTurn = p.turn();
        if (at < 0) {
          out.addAll(floatAt, p.host());
          floatAt += n;
          cursor += n;
          previousUser = -1;
        } else {
          out.addAll(at, p.host());
          previousUser = at + n;
          cursor = previousUser + 1;
        }
      }
      out.addAll(current);
      out.addAll(request.subList(split, request.size()));
      return out;
    }
  }

  // ---- writing ---------------------------------------------------------------------------

  /**
   * Starts the next turn (a send); its user message is, until one joins the conversation, the last
   * user message of {@code request}, the request a host's own send starts from (empty for others).
   */
  void beginTurn(List<M> request) {
    synchronized (lock) {
      turn++;
      turnUser = null;
      for (int i = request.size() - 1; i >= 0 && turnUser == null; i--) {
        if (mapper.isUser(request.get(i))) {
          turnUser = userText(request.get(i));
        }
      }
    }
  }

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
      noteUser(logAs(message));
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
        } else if (q.pair() && placement == HostedChat.Placement.AT_ITS_TURN) {
          // kept out of the transcript and the request: each request gets every pair from
          // atTheirTurns
          log.addAll(userTurnStartInLog(), q.chat());
          turnPairs.add(new TurnPair<>(turn, turnUser, q.host()));
        } else {
          q.host().forEach(transcript::add);
          log.addAll(q.chat());
          noteUser(q.chat());
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
    log.addAll(userTurnStartInLog(), q.chat());
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

  /** Makes the last user message among {@code chat}, if any, the turn's; under {@link #lock}. */
  private void noteUser(List<ChatMessage> chat) {
    for (ChatMessage c : chat) {
      if (c.role() == ChatRole.USER) {
        turnUser = c.text();
      }
    }
  }

  /** The text of a user's message, as its chat message has it. */
  private String userText(M message) {
    for (ChatMessage c : mapper.toChat(message, id -> null)) {
      if (c.role() == ChatRole.USER) {
        return c.text();
      }
    }
    return null;
  }

  /** Whether a host message is a system message: one or more {@code SYSTEM} chat messages. */
  private boolean isSystem(M message) {
    List<ChatMessage> chat = mapper.toChat(message, id -> null);
    return !chat.isEmpty() && chat.stream().allMatch(c -> c.role() == ChatRole.SYSTEM);
  }

  /** The first user message at or after {@code from} whose text is {@code text}, or -1. */
  private int indexOfUser(List<M> messages, String text, int from) {
    for (int i = Math.max(0, from); i < messages.size(); i++) {
      if (mapper.isUser(messages.get(i)) && text.equals(userText(messages.get(i)))) {
        return i;
      }
    }
    return -1;
  }

  /** The index of the log's first trailing user message; its size if the last is no user's. */
  private int userTurnStartInLog() {
    int at = log.size();
    while (at > 0 && log.get(at - 1).role() == ChatRole.USER) {
      at--;
    }
    return at;
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
