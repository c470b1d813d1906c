package dev.memhook.benchmarks.eval;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Ranking metrics of one query: recall@k, any@k and reciprocal rank, computed from the ranked ids a
 * recall returned and the set of relevant ids, at turn level (memory ids) and at session level (the
 * sessions of those ids, see {@link EvalSessions}). Stateless and thread-safe.
 *
 * <p>Session level: the ranked ids become the ranked distinct sessions, each at the place of its
 * best-ranked memory, so session@k means the first {@code k} distinct sessions, however many
 * memories that takes; the relevant ids become the sessions that hold them. Session recall@k is
 * then |relevant sessions among the first k| / |relevant sessions| (fractional) and session any@k
 * is 1 when at least one relevant session is among them (any-hit). A session counts as found when
 * any of its memories is ranked, not only the relevant ones. {@link Sums} also reads the sessions
 * of the top 10 memories alone, however few distinct sessions they span, which is how harnesses
 * that rank turns and map them to sessions afterwards count.
 */
public final class Metrics {

  private Metrics() {}

  /** |relevant ∩ top-k| / |relevant|; 0 when nothing is relevant. */
  public static double recallAt(int k, List<String> ranked, Collection<String> relevant) {
    if (relevant.isEmpty()) {
      return 0;
    }
    Set<String> wanted = new HashSet<>(relevant);
    int hits = 0;
    for (int i = 0; i < Math.min(k, ranked.size()); i++) {
      if (wanted.remove(ranked.get(i))) {
        hits++;
      }
    }
    return (double) hits / new HashSet<>(relevant).size();
  }

  /** 1 if at least one relevant id is in the top {@code k}, else 0. */
  public static double anyAt(int k, List<String> ranked, Collection<String> relevant) {
    for (int i = 0; i < Math.min(k, ranked.size()); i++) {
      if (relevant.contains(ranked.get(i))) {
        return 1;
      }
    }
    return 0;
  }

  /** 1 / (rank of the first relevant id), ranks from 1; 0 if none is returned. */
  public static double reciprocalRank(List<String> ranked, Collection<String> relevant) {
    for (int i = 0; i < ranked.size(); i++) {
      if (relevant.contains(ranked.get(i))) {
        return 1.0 / (i + 1);
      }
    }
    return 0;
  }

  /**
   * |relevant sessions among the first {@code k} distinct sessions of {@code ranked}| / |relevant
   * sessions|; 0 when nothing is relevant.
   */
  public static double sessionRecallAt(
      int k, List<String> ranked, Collection<String> relevant, EvalSessions sessions) {
    return recallAt(k, sessions.rankedSessions(ranked), sessions.sessionsOf(relevant));
  }

  /** 1 if a relevant session is among the first {@code k} distinct sessions of {@code ranked}. */
  public static double sessionAnyAt(
      int k, List<String> ranked, Collection<String> relevant, EvalSessions sessions) {
    return anyAt(k, sessions.rankedSessions(ranked), sessions.sessionsOf(relevant));
  }

  /** Sums of the per-query metrics of one group of queries; not thread-safe. */
  public static final class Sums {
    private int queries;
    private double recall5;
    private double recall10;
    private double any5;
    private double reciprocalRank;
    private double sessionRecall5;
    private double sessionRecall10;
    private double sessionAny5;
    private double sessionAny10;
    private double topTurnsSessionRecall;
    private double topTurnsSessionAny;

    /**
     * Adds one query: the turn-level metrics from {@code ranked}, the session-level ones from
     * {@code sessionRanked}, the same recall's ranking taken deeper so that it can hold ten
     * distinct sessions (when it is {@code ranked} itself, a session metric sees only the sessions
     * of those memories), and the sessions of the top 10 of {@code ranked} however few they are.
     */
    public void add(
        List<String> ranked,
        List<String> sessionRanked,
        Collection<String> relevant,
        EvalSessions sessions) {
      queries++;
      recall5 += recallAt(5, ranked, relevant);
      recall10 += recallAt(10, ranked, relevant);
      any5 += anyAt(5, ranked, relevant);
      reciprocalRank += reciprocalRank(ranked, relevant);
      List<String> rankedSessions = sessions.rankedSessions(sessionRanked);
      Set<String> relevantSessions = sessions.sessionsOf(relevant);
      sessionRecall5 += recallAt(5, rankedSessions, relevantSessions);
      sessionRecall10 += recallAt(10, rankedSessions, relevantSessions);
      sessionAny5 += anyAt(5, rankedSessions, relevantSessions);
      sessionAny10 += anyAt(10, rankedSessions, relevantSessions);
      List<String> topTurnsSessions =
          sessions.rankedSessions(ranked.subList(0, Math.min(10, ranked.size())));
      topTurnsSessionRecall += recallAt(10, topTurnsSessions, relevantSessions);
      topTurnsSessionAny += anyAt(10, topTurnsSessions, relevantSessions);
    }

    public int queries() {
      return queries;
    }

    public double recall5() {
      return mean(recall5);
    }

    public double recall10() {
      return mean(recall10);
    }

    public double any5() {
      return mean(any5);
    }

    public double mrr() {
      return mean(reciprocalRank);
    }

    /** Mean session recall@5, fractional. */
    public double sessionRecall5() {
      return mean(sessionRecall5);
    }

    /** Mean session recall@10, fractional. */
    public double sessionRecall10() {
      return mean(sessionRecall10);
    }

    /** Share of queries with a relevant session among the first 5 distinct sessions. */
    public double sessionAny5() {
      return mean(sessionAny5);
    }

    /** Share of queries with a relevant session among the first 10 distinct sessions. */
    public double sessionAny10() {
      return mean(sessionAny10);
    }

    /**
     * Mean share of the relevant sessions among the sessions of the top 10 memories (as many
     * sessions as those memories span, at most 10).
     */
    public double topTurnsSessionRecall() {
      return mean(topTurnsSessionRecall);
    }

    /** Share of queries with a relevant session among the sessions of the top 10 memories. */
    public double topTurnsSessionAny() {
      return mean(topTurnsSessionAny);
    }

    private double mean(double sum) {
      return queries == 0 ? 0 : sum / queries;
    }
  }
}
