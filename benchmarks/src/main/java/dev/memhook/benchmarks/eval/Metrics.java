package dev.memhook.benchmarks.eval;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Ranking metrics of one query: recall@k, any@k and reciprocal rank, computed from the ranked ids a
 * recall returned and the set of relevant ids. Stateless and thread-safe.
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

  /** Sums of the per-query metrics of one group of queries; not thread-safe. */
  public static final class Sums {
    private int queries;
    private double recall5;
    private double recall10;
    private double any5;
    private double reciprocalRank;

    /** Adds one query's ranking. */
    public void add(List<String> ranked, Collection<String> relevant) {
      queries++;
      recall5 += recallAt(5, ranked, relevant);
      recall10 += recallAt(10, ranked, relevant);
      any5 += anyAt(5, ranked, relevant);
      reciprocalRank += reciprocalRank(ranked, relevant);
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

    private double mean(double sum) {
      return queries == 0 ? 0 : sum / queries;
    }
  }
}
