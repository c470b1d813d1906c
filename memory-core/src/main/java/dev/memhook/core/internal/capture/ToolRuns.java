package dev.memhook.core.internal.capture;

import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One observation per tool run: a tool start ({@link LifecycleEventType#PRE_TOOL_USE}) is held
 * until the end of its run ({@link LifecycleEventType#POST_TOOL_USE} or {@link
 * LifecycleEventType#TOOL_FAILURE}) arrives, and is then stored as no memory of its own; the end's
 * observation says what ran, with the start's input when the end carries none. A start whose end
 * never comes (the session died mid-run) is released when its session ends, by its end event or as
 * idle, and stored as its own observation then; so is the oldest start of a session holding more
 * than {@value #MAX_HELD} unended ones.
 *
 * <p>An end matches the oldest held start of its session with the same tool-use id (the part of
 * their event ids after the hook name, as {@code memhook hook} writes them: {@code
 * PreToolUse:toolu_01} and {@code PostToolUse:toolu_01}), else, when neither carries one, the
 * oldest with the same tool name and input (any input, when the end carries none).
 *
 * <p>Held starts are in memory only: their journal records stay unfinished until their run ends or
 * is released, so an open replays them and holds them again. Used under the worker's lock.
 */
final class ToolRuns {

  /** The most unended tool starts held per session: {@value}. */
  static final int MAX_HELD = 32;

  /** A tool start held, with its journal sequence number. */
  record Held(long seq, AcceptedEvent event) {}

  private final Map<String, Deque<Held>> held = new LinkedHashMap<>();

  /** Whether the event starts a tool run. */
  static boolean starts(AcceptedEvent a) {
    return a.event().type() == LifecycleEventType.PRE_TOOL_USE;
  }

  /** Whether the event ends a tool run. */
  static boolean ends(AcceptedEvent a) {
    LifecycleEventType t = a.event().type();
    return t == LifecycleEventType.POST_TOOL_USE || t == LifecycleEventType.TOOL_FAILURE;
  }

  /**
   * Holds a tool start.
   *
   * @return the session's oldest held start when it holds more than {@link #MAX_HELD}: released, to
   *     be stored as its own observation
   */
  Optional<Held> hold(long seq, AcceptedEvent start) {
    Deque<Held> session = held.computeIfAbsent(start.event().sessionId(), k -> new ArrayDeque<>());
    session.addLast(new Held(seq, start));
    return session.size() > MAX_HELD ? Optional.of(session.removeFirst()) : Optional.empty();
  }

  /** Removes and returns the held start {@code end} ends, if any. */
  Optional<Held> match(AcceptedEvent end) {
    Deque<Held> session = held.get(end.event().sessionId());
    if (session == null) {
      return Optional.empty();
    }
    String endId = toolUseId(end.event());
    for (Iterator<Held> it = session.iterator(); it.hasNext(); ) {
      Held h = it.next();
      String startId = toolUseId(h.event().event());
      boolean same =
          endId != null || startId != null
              ? Objects.equals(endId, startId)
              : sameCall(h.event().event().data(), end.event().data());
      if (same) {
        it.remove();
        if (session.isEmpty()) {
          held.remove(end.event().sessionId());
        }
        return Optional.of(h);
      }
    }
    return Optional.empty();
  }

  /** Removes and returns every start the session holds, oldest first. */
  List<Held> release(String sessionId) {
    Deque<Held> session = held.remove(sessionId);
    return session == null ? List.of() : new ArrayList<>(session);
  }

  /** Forgets the held starts among {@code seqs}: their batch failed, they replay on next open. */
  void drop(Set<Long> seqs) {
    held.values().forEach(d -> d.removeIf(h -> seqs.contains(h.seq())));
    held.values().removeIf(Deque::isEmpty);
  }

  /**
   * The end as it is stored: with the start's input when the end carries none, so the one
   * observation of the run says what ran.
   */
  static AcceptedEvent completed(AcceptedEvent end, AcceptedEvent start) {
    EventData d = end.event().data();
    String input = start.event().data().input();
    if (d.input() != null || input == null) {
      return end;
    }
    LifecycleEvent e = end.event();
    EventData withInput =
        new EventData(
            d.toolName() != null ? d.toolName() : start.event().data().toolName(),
            input,
            d.output(),
            d.prompt(),
            d.error(),
            d.agentName(),
            d.message(),
            d.speaker());
    LifecycleEvent merged =
        new LifecycleEvent(
            e.type(), e.sessionId(), e.project(), e.cwd(), e.timestamp(), e.eventId(), withInput);
    return new AcceptedEvent(
        merged, end.key(), end.observationId(), end.scope(), end.capturedAt(), end.truncated());
  }

  /** The tool-use id of a tool event's id ({@code "<hook name>:<id>"}), or null. */
  private static String toolUseId(LifecycleEvent e) {
    String id = e.eventId();
    String prefix = e.type().wireName() + ":";
    return id != null && id.startsWith(prefix) && id.length() > prefix.length()
        ? id.substring(prefix.length())
        : null;
  }

  private static boolean sameCall(EventData start, EventData end) {
    return Objects.equals(start.toolName(), end.toolName())
        && (end.input() == null || Objects.equals(start.input(), end.input()));
  }
}
