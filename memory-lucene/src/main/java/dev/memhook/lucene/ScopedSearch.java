package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_LIVE;
import static dev.memhook.lucene.IndexSchema.F_VECTOR;

import dev.memhook.api.Scope;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.Executor;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.CollectionTerminatedException;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FilterLeafCollector;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopDocsCollector;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Searches confined to the latest memories of one scope: the best {@code k} hits of a scoring
 * query, the nearest neighbours of a vector, and the scope filter itself ({@link #inScope}).
 *
 * <h2>Design note</h2>
 *
 * The plan of a scoring query depends on how much of the index the scope is. When it holds at least
 * half of the documents, the query runs unfiltered and a collector drops other documents by their
 * {@link IndexSchema#F_LIVE} doc values, which keeps Lucene's fast scoring of a pure disjunction
 * (MaxScore); a smaller scope is intersected with the query as a filter instead, so the scorer
 * skips what is outside it. Both return the same hits. Dynamic pruning starts once {@code k} hits
 * are collected (not at Lucene's default of 1,000): no total hit count is needed. A vector search
 * takes the scope filter as the HNSW pre-filter, whose bit set per segment the searchers cache
 * ({@link FreshSearchers}); on an index of several segments each segment's graph is walked on its
 * own, for its share of the candidates ({@link EachSegmentKnn}).
 *
 * <p>Stateless and thread-safe.
 */
final class ScopedSearch {
  private ScopedSearch() {}

  /** The latest memories of {@code scope}: a filter whose per-segment bit sets are cached. */
  static Query inScope(Scope scope) {
    return new TermQuery(new Term(F_LIVE, scope.value()));
  }

  /**
   * The best {@code k} hits of the scoring {@code query} among the latest memories of {@code
   * scope}.
   */
  static TopDocs top(IndexSearcher searcher, Query query, Scope scope, int k) throws IOException {
    int n = cap(searcher, k);
    Term live = new Term(F_LIVE, scope.value());
    int inScope = searcher.getIndexReader().docFreq(live); // counts deleted documents until merged
    if (inScope == 0) {
      return TopDocsCollector.EMPTY_TOPDOCS;
    }
    if (2L * inScope >= searcher.getIndexReader().numDocs()) {
      return searcher.search(query, new TopInScope(searcher, n, new BytesRef(scope.value())));
    }
    Query filtered =
        new BooleanQuery.Builder().add(query, Occur.MUST).add(inScope(scope), Occur.FILTER).build();
    return searcher.search(filtered, new TopInScope(searcher, n, null));
  }

  /**
   * Scopes of at most this many documents are searched exactly: every vector of the scope is
   * compared with the target. HNSW with the scope as a pre-filter lost a quarter of the vector
   * signal's recall on the coding dev set, where two scopes share one index and many memories are
   * near-duplicates (see benchmarks/RESULTS.md), while comparing a few thousand vectors costs about
   * what one graph search does. Larger scopes keep the graph.
   */
  static final int EXACT_SEARCH_MAX_DOCS = 4_096;

  /**
   * The nearest latest memories of {@code scope} to {@code target}, a unit vector: exactly for a
   * scope of at most {@link #EXACT_SEARCH_MAX_DOCS} documents ({@link #exactNearest}), else
   * approximately, by HNSW with the scope as pre-filter, gathering {@code max(k, candidates)}
   * before the cut to {@code k} (on several segments, each walked for its share, the walks offered
   * to {@code walkers} when not null: {@link EachSegmentKnn}). Scores are Lucene's for the index's
   * similarity either way.
   */
  static TopDocs nearest(
      IndexSearcher searcher, float[] target, Scope scope, int k, int candidates, Executor walkers)
      throws IOException {
    Term live = new Term(F_LIVE, scope.value());
    int inScope = searcher.getIndexReader().docFreq(live);
    if (inScope == 0) {
      return TopDocsCollector.EMPTY_TOPDOCS;
    }
    if (inScope <= EXACT_SEARCH_MAX_DOCS) {
      return exactNearest(searcher, target, scope, cap(searcher, k));
    }
    int gathered = cap(searcher, Math.max(k, candidates));
    if (searcher.getIndexReader().leaves().size() > 1) {
      return EachSegmentKnn.nearest(
          searcher, target, inScope(scope), live, inScope, gathered, cap(searcher, k), walkers);
    }
    return searcher.search(
        new KnnFloatVectorQuery(F_VECTOR, target, gathered, inScope(scope)), cap(searcher, k));
  }

  /**
   * Every latest memory of {@code scope} compared with {@code target}, the best {@code k} kept in a
   * small heap: the scope's postings walked beside the vectors, segment by segment, deleted
   * documents and documents without a vector skipped. Ties go to the lower document.
   */
  static TopDocs exactNearest(IndexSearcher searcher, float[] target, Scope scope, int k)
      throws IOException {
    PriorityQueue<ScoreDoc> best =
        new PriorityQueue<>(
            k + 1,
            Comparator.<ScoreDoc>comparingDouble(d -> d.score)
                .thenComparing(d -> d.doc, Comparator.reverseOrder()));
    Term live = new Term(F_LIVE, scope.value());
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      LeafReader reader = leaf.reader();
      PostingsEnum inScope = reader.postings(live, PostingsEnum.NONE);
      FloatVectorValues vectors = inScope == null ? null : reader.getFloatVectorValues(F_VECTOR);
      if (vectors == null) {
        continue;
      }
      VectorSimilarityFunction similarity =
          reader.getFieldInfos().fieldInfo(F_VECTOR).getVectorSimilarityFunction();
      Bits liveDocs = reader.getLiveDocs();
      KnnVectorValues.DocIndexIterator it = vectors.iterator();
      for (int doc = inScope.nextDoc();
          doc != DocIdSetIterator.NO_MORE_DOCS;
          doc = inScope.nextDoc()) {
        if ((liveDocs != null && !liveDocs.get(doc))
            || (it.docID() < doc && it.advance(doc) != doc)
            || it.docID() != doc) {
          continue;
        }
        best.add(
            new ScoreDoc(
                leaf.docBase + doc, similarity.compare(target, vectors.vectorValue(it.index()))));
        if (best.size() > k) {
          best.poll();
        }
      }
    }
    ScoreDoc[] hits = new ScoreDoc[best.size()];
    for (int i = hits.length - 1; i >= 0; i--) {
      hits[i] = best.poll();
    }
    return new TopDocs(new TotalHits(hits.length, TotalHits.Relation.EQUAL_TO), hits);
  }

  /** {@code k} bounded by the number of documents, so a huge {@code k} allocates nothing huge. */
  private static int cap(IndexSearcher searcher, int k) {
    return Math.max(1, Math.min(k, searcher.getIndexReader().maxDoc()));
  }

  /**
   * The best {@code n} hits, behind the scope check by doc values when {@code scope} is set (null:
   * the query filters by scope itself). Each slice of the index gets a {@link TopScoreDocCollector}
   * that prunes once it holds {@code n} hits; their pruning state is shared only when the searcher
   * searches several slices at once, as in Lucene's own {@code IndexSearcher.search(Query, int)}.
   */
  private static final class TopInScope implements CollectorManager<InScopeCollector, TopDocs> {
    private final TopScoreDocCollectorManager tops;
    private final BytesRef scope;

    TopInScope(IndexSearcher searcher, int n, BytesRef scope) {
      this.tops = new TopScoreDocCollectorManager(n, null, n);
      this.scope = scope;
    }

    @Override
    public InScopeCollector newCollector() {
      return new InScopeCollector(tops.newCollector(), scope);
    }

    @Override
    public TopDocs reduce(Collection<InScopeCollector> collectors) throws IOException {
      if (collectors.size() == 1) {
        // One slice, as on this store's searchers (they have no executor): nothing to merge.
        return collectors.iterator().next().top.topDocs();
      }
      List<TopScoreDocCollector> slices = new ArrayList<>(collectors.size());
      for (InScopeCollector c : collectors) {
        slices.add(c.top);
      }
      return tops.reduce(slices);
    }
  }

  /**
   * One slice's collector: passes on to {@code top} only the documents whose {@link
   * IndexSchema#F_LIVE} doc value is {@code scope}, or every document if {@code scope} is null.
   */
  private static final class InScopeCollector implements Collector {
    final TopScoreDocCollector top;
    private final BytesRef scope;

    InScopeCollector(TopScoreDocCollector top, BytesRef scope) {
      this.top = top;
      this.scope = scope;
    }

    @Override
    public LeafCollector getLeafCollector(LeafReaderContext context) throws IOException {
      if (scope == null) {
        return top.getLeafCollector(context);
      }
      SortedDocValues live = DocValues.getSorted(context.reader(), F_LIVE);
      int ord = live.lookupTerm(scope);
      if (ord < 0) {
        throw new CollectionTerminatedException(); // nothing of this scope in the segment
      }
      return new FilterLeafCollector(top.getLeafCollector(context)) {
        @Override
        public void collect(int doc) throws IOException {
          if (live.advanceExact(doc) && live.ordValue() == ord) {
            in.collect(doc);
          }
        }
      };
    }

    @Override
    public ScoreMode scoreMode() {
      return top.scoreMode();
    }
  }
}
