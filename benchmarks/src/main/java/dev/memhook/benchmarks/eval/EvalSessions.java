package dev.memhook.benchmarks.eval;

import dev.memhook.benchmarks.eval.EvalData.EvalMemory;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The session each memory of an evaluation set was said in, for session-level metrics: a ranking of
 * memory ids becomes a ranking of sessions, and a question's relevant ids the set of sessions that
 * hold its evidence. Immutable and thread-safe.
 *
 * <p>A session is identified by its conversation and its session name together, since LoCoMo's
 * {@code session_1} recurs in every conversation. A memory without a session, and an id that is no
 * memory of the set (a relevant id missing from the data, or a ranked id the harness could not map
 * back), each count as a session of their own: such a relevant id can never be found, as at turn
 * level, and such a ranked id takes a place in the session ranking without matching anything.
 */
public final class EvalSessions {

  private final Map<String, String> sessionOfId;

  private EvalSessions(Map<String, String> sessionOfId) {
    this.sessionOfId = Map.copyOf(sessionOfId);
  }

  /** The sessions of {@code data}'s memories. */
  public static EvalSessions of(EvalData data) {
    return of(data.memories());
  }

  /** The sessions of {@code memories}. */
  public static EvalSessions of(List<EvalMemory> memories) {
    Map<String, String> sessionOfId = new HashMap<>();
    for (EvalMemory m : memories) {
      if (m.session() != null) {
        // the separator cannot occur in a JSON id that anyone writes by hand, and the prefixes keep
        // a session key apart from the key of an id that is a session of its own
        sessionOfId.put(m.id(), "session\u0000" + m.conv() + "\u0000" + m.session());
      }
    }
    return new EvalSessions(sessionOfId);
  }

  /** The key of the session memory {@code id} belongs to; see the class comment. */
  public String sessionOf(String id) {
    Objects.requireNonNull(id, "id");
    String session = sessionOfId.get(id);
    return session != null ? session : "id\u0000" + id;
  }

  /**
   * The sessions of {@code rankedIds} in rank order, each once, at the place of its best-ranked
   * memory: element {@code i} is the {@code (i+1)}-th distinct session of the ranking.
   */
  public List<String> rankedSessions(List<String> rankedIds) {
    Set<String> out = new LinkedHashSet<>();
    rankedIds.forEach(id -> out.add(sessionOf(id)));
    return List.copyOf(out);
  }

  /** The sessions that hold {@code ids}. */
  public Set<String> sessionsOf(Collection<String> ids) {
    Set<String> out = new LinkedHashSet<>();
    ids.forEach(id -> out.add(sessionOf(id)));
    return Collections.unmodifiableSet(out);
  }
}
