package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_VECTOR;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Executor;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.knn.KnnCollectorManager;

/**
 * The nearest neighbours of a vector in an index of several segments: each segment's graph walked
 * on its own, for as many candidates as its share of the scope is likely to hold, and walked again
 * for all of them if it may hold more.
 *
 * <h2>Design note</h2>
 *
 * Lucene's own query, on an index of several segments, lets each segment's graph walk stop early
 * against the best candidates all segments have gathered so far (its {@code
 * MultiLeafKnnCollector}). On this store's settled layout, a few large segments, that cost a large
 * share of the true nearest neighbours (benchmarks/RESULTS.md §1, "A million memories, settled"),
 * so each segment is walked as if it were the index.
 *
 * <p>Walking every segment for all {@code n} candidates does the work of {@code n} per segment for
 * {@code n} in all. A segment holding a share {@code p} of the scope's memories holds, if the
 * nearest neighbours fall among segments as the memories do, about {@code n·p} of the best {@code
 * n}, with a binomial spread; so it is first walked for {@code n·p} plus {@link #SPREAD} standard
 * deviations of that count, and for at least half of {@code n} ({@link #budget}). When every
 * candidate a segment gave made the merged best {@code n}, the neighbours did not fall as the
 * memories do (a topic told in the last weeks lives in the newest segment), and that segment may
 * hold more: it is walked again for all {@code n} and its candidates replaced. This is the
 * "optimistic" plan of Lucene 10's own query (per-segment counts from the segment's share, a second
 * pass for segments whose every candidate was competitive), here with the scope's share per segment
 * rather than the documents', and without the early stop across segments. A smaller first walk also
 * narrows the graph search's beam ({@code efSearch}), so a segment's few best are found a little
 * less surely; RESULTS.md measures the recall against an exact scan.
 *
 * <p>Stateless and thread-safe; a {@link Budgeted} query is built for one search and not reused.
 */
final class EachSegmentKnn {

  /**
   * Standard deviations of a segment's expected count of the best candidates added to its first
   * walk. Three leave about one search in a thousand per segment to the second walk when the
   * neighbours fall as the memories do.
   */
  static final double SPREAD = 3;

  private EachSegmentKnn() {}

  /**
   * The best {@code k} of the {@code n} nearest documents to {@code target} that match {@code
   * filter}, whose documents in the index number {@code inScope} and are counted per segment by
   * {@code scopeTerm}'s document frequency. The first walks of the segments are offered to {@code
   * walkers}, the calling thread walking every segment no helper has started ({@link
   * SegmentWalkers}); with {@code walkers} null, the calling thread walks them all.
   */
  static TopDocs nearest(
      IndexSearcher searcher,
      float[] target,
      Query filter,
      Term scopeTerm,
      int inScope,
      int n,
      int k,
      Executor walkers)
      throws IOException {
    IndexReader reader = searcher.getIndexReader();
    List<LeafReaderContext> leaves = reader.leaves();
    int[] budgets = new int[leaves.size()];
    for (LeafReaderContext leaf : leaves) {
      budgets[leaf.ord] = budget(n, leaf.reader().docFreq(scopeTerm) / (double) inScope);
    }
    double[] docShares = new double[leaves.size()];
    for (LeafReaderContext leaf : leaves) {
      docShares[leaf.ord] = leaf.reader().maxDoc() / (double) reader.maxDoc();
    }
    Budgeted first = firstWalk(target, budgets, docShares, n, filter);
    TopDocs top = (walkers == null ? searcher : lending(searcher, walkers)).search(first, n);
    List<ScoreDoc> merged = new ArrayList<>(List.of(top.scoreDocs));
    boolean again = false;
    for (LeafReaderContext leaf : leaves) {
      if (mayHoldMore(leaf, first, merged)) {
        merged.removeIf(sd -> inLeaf(sd, leaf));
        merged.addAll(walkAgain(searcher, leaf, target, filter, n));
        again = true;
      }
    }
    if (again) {
      merged.sort(BEST_FIRST);
    }
    List<ScoreDoc> best = merged.subList(0, Math.min(k, merged.size()));
    return new TopDocs(
        new TotalHits(best.size(), TotalHits.Relation.EQUAL_TO), best.toArray(ScoreDoc[]::new));
  }

  /**
   * How many of the best {@code n} a segment with a share {@code p} of the scope is walked for
   * first: its expected count plus {@link #SPREAD} binomial standard deviations, rounded up, and at
   * least half of {@code n} ({@link #budgetFloor}), at most {@code n}.
   */
  static int budget(int n, double p) {
    if (!(p > 0) || p >= 1) { // no memory of the scope (then the budget is never used), or all
      return n;
    }
    double expected = n * p;
    int b = (int) Math.ceil(expected + SPREAD * Math.sqrt(expected * (1 - p)));
    return Math.min(n, Math.max(budgetFloor(n), b));
  }

  /**
   * The fewest candidates a first walk gathers: half of {@code n}, rounded up. The walk's count is
   * also its beam, and a beam much narrower than the {@code efSearch} the store was given finds a
   * segment's few best less surely: at a million memories in five segments, walks of a third of the
   * candidates found clearly fewer of the true ten nearest than walks of half, for little time
   * saved (benchmarks/RESULTS.md §1). {@code efSearch} stays the one knob for the search's
   * accuracy.
   */
  static int budgetFloor(int n) {
    return (n + 1) / 2;
  }

  /**
   * The fewest hits Lucene 10's kNN query accepts from a walk of a segment holding {@code share} of
   * the index's documents when the query's count is {@code k}: with fewer it searches the segment
   * exactly (its per-segment count, {@code k·share} plus 16 binomial deviations). A collector
   * smaller than this would turn every walk of that segment into a scan.
   */
  static int luceneLeafCount(int k, double share) {
    return (int) Math.max(1, k * share + 16 * Math.sqrt(k * share * (1 - share)));
  }

  /**
   * The first walk's query for segments with {@code budgets} and {@code docShares} of the index's
   * documents: the query's count is the smallest budget, each collector's size {@link
   * #collectorSizes}.
   */
  static Budgeted firstWalk(
      float[] target, int[] budgets, double[] docShares, int n, Query filter) {
    int queryK = Budgeted.smallest(budgets);
    return new Budgeted(target, collectorSizes(budgets, docShares, queryK), queryK, n, filter);
  }

  /**
   * What each segment's collector holds in the first walk: its budget, raised where needed to
   * {@link #luceneLeafCount} for the query's count {@code queryK} and the segment's share of the
   * index's documents, so that Lucene never turns a walk into a scan. {@code queryK} stays the
   * smallest budget: derived from the raised sizes instead, it would raise Lucene's counts too.
   */
  static int[] collectorSizes(int[] budgets, double[] docShares, int queryK) {
    int[] sizes = new int[budgets.length];
    for (int i = 0; i < budgets.length; i++) {
      sizes[i] = Math.max(budgets[i], luceneLeafCount(queryK, docShares[i]));
    }
    return sizes;
  }

  /**
   * Whether {@code leaf} may hold more of the best {@code n} than its first walk gave: it gave what
   * its collector holds, or the query's smallest count (what an exact search of a segment gives),
   * fewer than {@code n}, and every one of them is among the merged best. A segment that gave
   * another count ran out of documents of the scope.
   */
  private static boolean mayHoldMore(
      LeafReaderContext leaf, Budgeted first, List<ScoreDoc> merged) {
    int gave = first.returned(leaf.ord);
    if ((gave != first.sizes[leaf.ord] && gave != first.getK()) || gave >= first.n) {
      return false;
    }
    int kept = 0;
    for (ScoreDoc sd : merged) {
      if (inLeaf(sd, leaf)) {
        kept++;
      }
    }
    return kept >= gave;
  }

  /**
   * A searcher over {@code searcher}'s reader whose query rewrites run their per-segment work as a
   * task group on {@code walkers}: Lucene's kNN query walks each segment in a task of its own.
   */
  private static IndexSearcher lending(IndexSearcher searcher, Executor walkers) {
    IndexSearcher lending = new IndexSearcher(searcher.getIndexReader(), walkers);
    sameCaching(searcher, lending);
    return lending;
  }

  /**
   * {@code to} with {@code from}'s query cache (the scope filter's bits), policy and similarity.
   */
  private static void sameCaching(IndexSearcher from, IndexSearcher to) {
    to.setQueryCache(from.getQueryCache()); // the scope filter's cached bits, by segment
    to.setQueryCachingPolicy(from.getQueryCachingPolicy());
    to.setSimilarity(from.getSimilarity());
  }

  /** The best {@code n} of {@code leaf}, walked as if it were the index, in the index's numbers. */
  private static List<ScoreDoc> walkAgain(
      IndexSearcher searcher, LeafReaderContext leaf, float[] target, Query filter, int n)
      throws IOException {
    IndexSearcher alone = new IndexSearcher(leaf.reader());
    sameCaching(searcher, alone);
    TopDocs top = alone.search(new KnnFloatVectorQuery(F_VECTOR, target, n, filter), n);
    List<ScoreDoc> out = new ArrayList<>(top.scoreDocs.length);
    for (ScoreDoc sd : top.scoreDocs) {
      out.add(new ScoreDoc(leaf.docBase + sd.doc, sd.score));
    }
    return out;
  }

  private static boolean inLeaf(ScoreDoc sd, LeafReaderContext leaf) {
    return sd.doc >= leaf.docBase && sd.doc < leaf.docBase + leaf.reader().maxDoc();
  }

  /** Best score first, then the lower document, as Lucene orders hits. */
  private static final Comparator<ScoreDoc> BEST_FIRST =
      Comparator.<ScoreDoc>comparingDouble(sd -> -sd.score).thenComparingInt(sd -> sd.doc);

  /**
   * The first walk: each segment's graph searched on its own for its budget of candidates, the
   * segments' candidates merged into the best {@code n}, and how many each segment gave kept for
   * the second walk's decision.
   *
   * <p>Lucene's query takes one count, {@code k}, and derives from it a count per segment ({@link
   * #luceneLeafCount}): it searches a segment exactly when the filter leaves it at most that many
   * documents or when a walk gave fewer, and an exact search gives {@code k}. So {@code k} here is
   * the smallest budget, each segment's collector holds its own budget, raised to Lucene's count
   * for the segment where that is larger, and the merge keeps {@code n}.
   */
  static final class Budgeted extends KnnFloatVectorQuery {
    final int[] sizes;
    final int n;
    private final int[] returned;

    /**
     * @param sizes what each segment's collector holds ({@link #collectorSizes})
     * @param queryK the query's count: the smallest budget before {@link #collectorSizes}
     */
    Budgeted(float[] target, int[] sizes, int queryK, int n, Query filter) {
      super(F_VECTOR, target, queryK, filter);
      this.sizes = sizes;
      this.n = n;
      this.returned = new int[sizes.length];
    }

    @Override
    protected KnnCollectorManager getKnnCollectorManager(int k, IndexSearcher searcher) {
      return (visitedLimit, strategy, context) ->
          new TopKnnCollector(sizes[context.ord], visitedLimit, strategy);
    }

    @Override
    protected TopDocs mergeLeafResults(TopDocs[] perLeafResults) {
      // one result per segment, in the reader's order of segments
      for (int i = 0; i < perLeafResults.length && i < returned.length; i++) {
        returned[i] = perLeafResults[i].scoreDocs.length;
      }
      return TopDocs.merge(n, perLeafResults);
    }

    /** How many candidates segment {@code ord} gave in the first walk. */
    int returned(int ord) {
      return returned[ord];
    }

    static int smallest(int[] budgets) {
      int min = Integer.MAX_VALUE;
      for (int b : budgets) {
        min = Math.min(min, b);
      }
      return Math.max(1, min);
    }
  }
}
