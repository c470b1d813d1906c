package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_LIVE;
import static dev.memhook.lucene.IndexSchema.F_TEXT;

import dev.memhook.api.Scope;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.IOSupplier;

/**
 * The ceiling of a text query in one index: the sum, over its leaf clauses, of boost * idf.
 * Lucene's BM25 scores a term as {@code boost * idf * tf / (tf + k1 * norm)}, which approaches but
 * never reaches {@code boost * idf} whatever k1 and the weights, so no text score exceeds it.
 *
 * <p>What counts depends on the scope's own latest memories, never on what another scope holds, on
 * superseded versions or on deletions not yet merged away (it once did, and a write to any scope
 * could move a recall across the relevance gate's floors):
 *
 * <ul>
 *   <li>a term of the content field that the scope holds counts Lucene's idf (store-wide
 *       statistics, as the scores use); one the scope lacks counts as if one document held it, as
 *       rare as a match could have been: a word of the question that the scope lacks is evidence
 *       that the scope cannot answer it;
 *   <li>an exact-form or SHA term counts only if the scope holds it: those clauses rank among
 *       memories that match already, and a missing exact form (a plural, say) says nothing about
 *       the topic (an exact form spelled as its code term has no clause of its own: its weight is
 *       the part of the content term's boost above 1, and counts only if the scope holds the term,
 *       so a lacking word counts at weight 1 as before);
 *   <li>a phrase counts the sum of its terms' idf, as Lucene scores it, and nothing if the scope
 *       lacks one of them: it cannot match there.
 * </ul>
 *
 * <h2>Design note</h2>
 *
 * Each term is looked up once per segment: {@link #bind} gives every term query of a text query its
 * {@link TermStates} (docFreq and each segment's position in the term dictionary), Lucene's scoring
 * uses those instead of looking the terms up again, and the ceiling reads the same states, so the
 * scope check per term positions its postings without a second lookup. Looking each term up three
 * more times per segment cost about a third of a text search on an index of a dozen segments.
 *
 * <p>One instance per search, confined to its thread.
 */
final class TextCeiling {
  private final IndexSearcher searcher;

  /** The scope's {@code live} term and its states, looked up once per segment when first needed. */
  private final Term liveTerm;

  private TermStates live;

  private final Map<String, CollectionStatistics> stats = new HashMap<>();

  private TextCeiling(IndexSearcher searcher, Scope scope) {
    this.searcher = searcher;
    this.liveTerm = new Term(F_LIVE, scope.value());
  }

  /**
   * {@code query} (a query {@link TextQueryBuilder#build} made) with its term queries carrying
   * their statistics in {@code searcher}'s index, for searching there and for {@link #of}.
   */
  static Query bind(IndexSearcher searcher, Query query) throws IOException {
    if (query instanceof BoostQuery b) {
      return new BoostQuery(bind(searcher, b.getQuery()), b.getBoost());
    }
    if (query instanceof BooleanQuery bq) {
      BooleanQuery.Builder out = new BooleanQuery.Builder();
      out.setMinimumNumberShouldMatch(bq.getMinimumNumberShouldMatch());
      for (BooleanClause c : bq.clauses()) {
        out.add(bind(searcher, c.query()), c.occur());
      }
      return out.build();
    }
    if (query instanceof TermQuery tq) {
      return new TermQuery(tq.getTerm(), TermStates.build(searcher, tq.getTerm(), true));
    }
    return query;
  }

  /** The ceiling of {@code query} for the latest memories of {@code scope}; see the class. */
  static double of(IndexSearcher searcher, Query query, Scope scope) throws IOException {
    return new TextCeiling(searcher, scope).sum(query, 1.0);
  }

  private double sum(Query q, double boost) throws IOException {
    if (q instanceof BoostQuery b) {
      return sum(b.getQuery(), boost * b.getBoost());
    }
    if (q instanceof BooleanQuery bq) {
      double sum = 0;
      for (BooleanClause c : bq.clauses()) {
        if (c.occur() == Occur.SHOULD || c.occur() == Occur.MUST) {
          sum += sum(c.query(), boost);
        }
      }
      return sum;
    }
    if (q instanceof TermQuery tq) {
      TermStates states = states(tq);
      boolean held = inScope(tq.getTerm(), states);
      // a content term boosted above 1 carries its exact form's weight, which counts only if held
      return (held ? boost : Math.min(boost, 1.0)) * idf(tq.getTerm(), states, held);
    }
    if (q instanceof PhraseQuery pq) {
      double sum = 0;
      for (Term t : pq.getTerms()) {
        TermStates states = TermStates.build(searcher, t, true);
        if (!inScope(t, states)) {
          return 0;
        }
        sum += idf(t, states, true);
      }
      return boost * sum;
    }
    throw new IllegalStateException("unexpected query in a text query: " + q.getClass().getName());
  }

  /** The query's own states if {@link #bind} gave it states for this searcher; else looked up. */
  private TermStates states(TermQuery tq) throws IOException {
    TermStates bound = tq.getTermStates();
    return bound != null && bound.wasBuiltFor(searcher.getTopReaderContext())
        ? bound
        : TermStates.build(searcher, tq.getTerm(), true);
  }

  /** What {@code term} counts once it is known whether the scope holds it. */
  private double idf(Term term, TermStates states, boolean held) throws IOException {
    if (!held && !term.field().equals(F_TEXT)) {
      return 0;
    }
    CollectionStatistics field = stats.get(term.field());
    if (field == null && !stats.containsKey(term.field())) {
      field = searcher.collectionStatistics(term.field());
      stats.put(term.field(), field);
    }
    long docCount = field == null ? 0 : field.docCount();
    int docFreq = held ? states.docFreq() : 1;
    // BM25's idf as Lucene computes it
    return (float) Math.log(1 + (Math.max(docCount, docFreq) - docFreq + 0.5D) / (docFreq + 0.5D));
  }

  /**
   * Whether some latest memory of the scope holds {@code term}: its postings intersected with the
   * scope's, segment by segment, each positioned by its term state, stopping at the first live
   * document in both. Deleted documents, older versions and other scopes do not count.
   */
  private boolean inScope(Term term, TermStates states) throws IOException {
    if (states.docFreq() == 0) {
      return false;
    }
    if (live == null) {
      live = TermStates.build(searcher, liveTerm, false);
    }
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      PostingsEnum withTerm = postings(leaf, term, states);
      PostingsEnum inScope = withTerm == null ? null : postings(leaf, liveTerm, live);
      if (inScope == null) {
        continue;
      }
      Bits liveDocs = leaf.reader().getLiveDocs();
      int doc = withTerm.nextDoc();
      int other = inScope.nextDoc();
      while (doc != DocIdSetIterator.NO_MORE_DOCS && other != DocIdSetIterator.NO_MORE_DOCS) {
        if (doc < other) {
          doc = withTerm.advance(other);
        } else if (other < doc) {
          other = inScope.advance(doc);
        } else if (liveDocs == null || liveDocs.get(doc)) {
          return true;
        } else {
          doc = withTerm.nextDoc();
        }
      }
    }
    return false;
  }

  /** The postings of {@code term} in {@code leaf}, positioned by its state; null if absent. */
  private static PostingsEnum postings(LeafReaderContext leaf, Term term, TermStates states)
      throws IOException {
    IOSupplier<TermState> supplier = states.get(leaf);
    TermState state = supplier == null ? null : supplier.get();
    Terms terms = state == null ? null : leaf.reader().terms(term.field());
    if (terms == null) {
      return null;
    }
    TermsEnum te = terms.iterator();
    te.seekExact(term.bytes(), state);
    return te.postings(null, PostingsEnum.NONE);
  }
}
