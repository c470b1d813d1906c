package dev.memhook.core.lucene;

import static dev.memhook.core.lucene.IndexSchema.F_PHRASE;
import static dev.memhook.core.lucene.IndexSchema.F_SHA;
import static dev.memhook.core.lucene.IndexSchema.F_TEXT;
import static dev.memhook.core.lucene.IndexSchema.F_TEXT_EXACT;

import dev.memhook.api.Scope;
import dev.memhook.core.internal.index.CodeAwareAnalyzer;
import dev.memhook.core.internal.index.CodeAwareAnalyzer.PositionedTerm;
import dev.memhook.core.internal.index.SimpleTokens;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

/**
 * Turns the plain text of a text search into its Lucene query, and bounds what that query can score
 * in a given index (its ceiling).
 *
 * <p>The text is analysed by the index's own chains, never parsed as query syntax, into one flat
 * disjunction that Lucene's MaxScore/WAND scoring can skip in: a term query per distinct term on
 * the weighted fields (the field weights are in the index, so one clause per term covers every
 * part), the exact terms at {@code exactWeight}, SHA terms at {@code shaBoost} and, when {@code
 * phraseWeight > 0}, the whole query as a phrase on the content. Function words are left out of the
 * term clauses.
 *
 * <p>Immutable and thread-safe.
 */
final class TextQueryBuilder {
  /**
   * The most distinct terms per analysis variant a text query uses; the rest of a very long query
   * is ignored. Keeps the expanded query under Lucene's default limit of 1024 clauses.
   */
  static final int MAX_QUERY_TERMS = 48;

  /** The longest query (in exact tokens) also searched as a phrase. */
  static final int MAX_PHRASE_TERMS = 16;

  private final IndexSchema schema;
  private final float exactWeight;
  private final float phraseWeight;
  private final float shaBoost;

  /** Function words as each analysis variant spells them (the code variant stems them). */
  private final Set<String> codeStopTerms;

  private final Set<String> exactStopTerms;

  TextQueryBuilder(IndexSchema schema, float exactWeight, float phraseWeight, float shaBoost) {
    this.schema = schema;
    this.exactWeight = exactWeight;
    this.phraseWeight = phraseWeight;
    this.shaBoost = shaBoost;
    this.codeStopTerms = analyzedStopWords(schema.code());
    this.exactStopTerms = analyzedStopWords(schema.exact());
  }

  /** The query for {@code text}, or null if it analyses to nothing. */
  Query build(String text) {
    List<String> codeTerms =
        withoutStopTerms(distinct(schema.code().positionedTerms(F_TEXT, text)), codeStopTerms);
    List<PositionedTerm> exactTerms = schema.exact().positionedTerms(F_TEXT_EXACT, text);
    List<String> exactDistinct = withoutStopTerms(distinct(exactTerms), exactStopTerms);
    List<String> hexTerms = distinct(schema.hexQuery().positionedTerms(F_SHA, text));
    if (codeTerms.isEmpty() && exactDistinct.isEmpty() && hexTerms.isEmpty()) {
      return null;
    }
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    addTerms(any, F_TEXT, codeTerms, 1.0f);
    addTerms(any, F_TEXT_EXACT, exactDistinct, exactWeight);
    if (phraseWeight > 0 && exactTerms.size() >= 2 && exactTerms.size() <= MAX_PHRASE_TERMS) {
      PhraseQuery.Builder phrase = new PhraseQuery.Builder();
      for (PositionedTerm t : exactTerms) {
        phrase.add(new Term(F_PHRASE, t.term()), t.position());
      }
      any.add(new BoostQuery(phrase.build(), phraseWeight), Occur.SHOULD);
    }
    addTerms(any, F_SHA, hexTerms, shaBoost);
    BooleanQuery q = any.build();
    return q.clauses().isEmpty() ? null : q;
  }

  /**
   * The ceiling of a query {@link #build} made, for the latest memories of {@code scope} in the
   * index {@code searcher} reads: the sum, over its leaf clauses, of boost * idf. Lucene's BM25
   * scores a term as {@code boost * idf * tf / (tf + k1 * norm)}, which approaches but never
   * reaches {@code boost * idf} whatever k1 and the weights, so no text score exceeds it.
   *
   * <p>What counts depends on the scope's own latest memories, never on what another scope holds,
   * on superseded versions or on deletions not yet merged away (it once did, and a write to any
   * scope could move a recall across the relevance gate's floors):
   *
   * <ul>
   *   <li>a term of the content field that the scope holds counts Lucene's idf (store-wide
   *       statistics, as the scores use); one the scope lacks counts as if one document held it, as
   *       rare as a match could have been: a word of the question that the scope lacks is evidence
   *       that the scope cannot answer it;
   *   <li>an exact-form or SHA term counts only if the scope holds it: those clauses rank among
   *       memories that match already, and a missing exact form (a plural, say) says nothing about
   *       the topic;
   *   <li>a phrase counts the sum of its terms' idf, as Lucene scores it, and nothing if the scope
   *       lacks one of them: it cannot match there.
   * </ul>
   */
  static double ceiling(IndexSearcher searcher, Query query, Scope scope) throws IOException {
    return ceiling(searcher, query, scope, 1.0);
  }

  private static double ceiling(IndexSearcher searcher, Query q, Scope scope, double boost)
      throws IOException {
    if (q instanceof BoostQuery b) {
      return ceiling(searcher, b.getQuery(), scope, boost * b.getBoost());
    }
    if (q instanceof BooleanQuery bq) {
      double sum = 0;
      for (BooleanClause c : bq.clauses()) {
        if (c.getOccur() == Occur.SHOULD || c.getOccur() == Occur.MUST) {
          sum += ceiling(searcher, c.getQuery(), scope, boost);
        }
      }
      return sum;
    }
    if (q instanceof TermQuery tq) {
      return boost * idf(searcher, tq.getTerm(), scope);
    }
    if (q instanceof PhraseQuery pq) {
      double sum = 0;
      for (Term t : pq.getTerms()) {
        if (!inScope(searcher, t, scope)) {
          return 0;
        }
        sum += idf(searcher, t, true);
      }
      return boost * sum;
    }
    throw new IllegalStateException("unexpected query in a text query: " + q.getClass().getName());
  }

  /** What {@code term} counts in the ceiling, by the rules of {@link #ceiling}. */
  private static double idf(IndexSearcher searcher, Term term, Scope scope) throws IOException {
    return idf(searcher, term, inScope(searcher, term, scope));
  }

  /** {@link #idf(IndexSearcher, Term, Scope)} once it is known whether the scope holds the term. */
  private static double idf(IndexSearcher searcher, Term term, boolean held) throws IOException {
    if (!held && !term.field().equals(F_TEXT)) {
      return 0;
    }
    CollectionStatistics stats = searcher.collectionStatistics(term.field());
    long docCount = stats == null ? 0 : stats.docCount();
    int docFreq = held ? searcher.getIndexReader().docFreq(term) : 1;
    // BM25's idf as Lucene computes it
    return (float) Math.log(1 + (Math.max(docCount, docFreq) - docFreq + 0.5D) / (docFreq + 0.5D));
  }

  private static boolean inScope(IndexSearcher searcher, Term term, Scope scope)
      throws IOException {
    return searcher.getIndexReader().docFreq(term) > 0
        && ScopedSearch.anyInScope(searcher, term, scope);
  }

  /**
   * The terms without function words ("what", "did", "the"): they match nearly every memory, add
   * almost nothing to BM25 and make the disjunction score every document. Phrases keep them. A
   * query of function words only keeps them all, so it still matches something.
   */
  private static List<String> withoutStopTerms(List<String> terms, Set<String> stopTerms) {
    List<String> kept = new ArrayList<>(terms.size());
    for (String t : terms) {
      if (!stopTerms.contains(t)) {
        kept.add(t);
      }
    }
    return kept.isEmpty() ? terms : List.copyOf(kept);
  }

  private static Set<String> analyzedStopWords(CodeAwareAnalyzer analyzer) {
    Set<String> out = new HashSet<>();
    for (String word : SimpleTokens.STOP_WORDS) {
      for (PositionedTerm t : analyzer.positionedTerms(F_TEXT, word)) {
        out.add(t.term());
      }
    }
    return Set.copyOf(out);
  }

  /** Adds one SHOULD clause per term, so the disjunction stays flat. */
  private static void addTerms(
      BooleanQuery.Builder into, String field, List<String> terms, float boost) {
    if (boost == 0) {
      return;
    }
    for (String t : terms) {
      Query term = new TermQuery(new Term(field, t));
      into.add(boost == 1.0f ? term : new BoostQuery(term, boost), Occur.SHOULD);
    }
  }

  private static List<String> distinct(List<PositionedTerm> terms) {
    Set<String> out = new LinkedHashSet<>();
    for (PositionedTerm t : terms) {
      if (out.size() == MAX_QUERY_TERMS) {
        break;
      }
      out.add(t.term());
    }
    return List.copyOf(out);
  }
}
