package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The places of a recall's result, and which candidates can take them, as {@link ResultAssembly}
 * will fill them: a candidate the gate lets through on its own evidence, whose memory assembly
 * would return, within its source session's cap. The stages between fusion and assembly that read
 * records ask it which candidates hold the places, so that they read only what can still change
 * them.
 *
 * <p>Immutable and thread-safe if its predicates are.
 *
 * @param count how many places: the limit, or more when a reranker or the graph's seeds look
 *     deeper; {@link Integer#MAX_VALUE} never fills
 * @param maxPerSession the most places one source session takes ({@link Integer#MAX_VALUE}: no cap)
 * @param passesGate whether the relevance gate lets a candidate through
 * @param returnable whether assembly would return a memory: not gone, superseded, moved or left out
 *     by the recall's exclusion
 */
record Places(
    int count, int maxPerSession, Predicate<Candidate> passesGate, Predicate<Memory> returnable) {

  /**
   * How far {@link #hold} read.
   *
   * @param read how many of the first candidates it read
   * @param bar the score of the last place's holder; {@link Double#NEGATIVE_INFINITY} if the places
   *     were not all held
   */
  record Held(int read, double bar) {}

  /**
   * Reads the records of {@code ranked}'s candidates, best first and at most the first {@code end},
   * in chunks (the places not yet held plus a margin, as assembly reads them) until the places are
   * held or no candidate is left; says how far it read and the last holder's score.
   */
  Held hold(List<Candidate> ranked, RecordReader records, int end) {
    Map<String, Integer> perSession = new HashMap<>();
    int held = 0;
    double bar = Double.NEGATIVE_INFINITY;
    int read = 0;
    while (read < end && held < count) {
      int need = Math.min(count - held, end - read);
      int next = Math.min(end, read + need + Math.max(2, need / 4));
      List<Candidate> chunk = ranked.subList(read, next);
      records.read(chunk);
      for (Candidate c : chunk) {
        if (held < count && takes(c, records.get(c.id), perSession)) {
          held++;
          bar = c.fused;
        }
      }
      read = next;
    }
    return new Held(read, held == count ? bar : Double.NEGATIVE_INFINITY);
  }

  /** Whether {@code c}, whose record is {@code m} (null if gone), takes a place. */
  private boolean takes(Candidate c, Memory m, Map<String, Integer> perSession) {
    if (m == null || !passesGate.test(c) || !returnable.test(m)) {
      return false;
    }
    String session = m.sourceSession();
    return session == null
        || maxPerSession == Integer.MAX_VALUE
        || perSession.merge(session, 1, Integer::sum) <= maxPerSession;
  }
}
