package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_PHRASE;
import static dev.memhook.lucene.IndexSchema.F_SHA;
import static dev.memhook.lucene.IndexSchema.F_TEXT;
import static dev.memhook.lucene.IndexSchema.F_TEXT_EXACT;

import dev.memhook.lucene.internal.analysis.CodeAwareAnalyzer;
import dev.memhook.lucene.internal.analysis.CodeAwareAnalyzer.PositionedTerm;
import dev.memhook.lucene.internal.analysis.SimpleTokens;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

/**
 * Turns the plain text of a text search into its Lucene query ({@link TextCeiling} bounds what that
 * query can score in a given index).
 *
 * <p>The text is analysed by the index's own chains, never parsed as query syntax, into one flat
 * disjunction that Lucene's MaxScore/WAND scoring can skip in: a term query per distinct term on
 * the weighted fields (the field weights are in the index, so one clause per term covers every
 * part), the exact terms at {@code exactWeight}, SHA terms at {@code shaBoost} and, when {@code
 * phraseWeight > 0}, the whole query as a phrase on the content. Function words are left out of the
 * term clauses.
 *
 * <p>An exact term spelled as one of the code terms (a word the code chain leaves as it is, such as
 * {@code after} or an error code such as {@code PAY-4012}) is no clause of its own: its code term's
 * clause carries {@code 1 + exactWeight}. The two clauses would match the same memories (but for
 * those where the code term came from a stem or an identifier's part) with scores in step, and
 * every clause of the disjunction is one more postings list for every search to walk: common words
 * are most of a slow query's clauses (benchmarks/RESULTS.md, section 1). An exact term the code
 * chain changes ({@code running}, stemmed to {@code run}) keeps its own clause, which is what
 * rewards the exact spelling.
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
    Set<String> spelledAsCode = new HashSet<>(codeTerms);
    List<String> exactOwn = new ArrayList<>(exactDistinct.size());
    Set<String> folded = new HashSet<>();
    for (String t : exactDistinct) {
      (spelledAsCode.contains(t) ? folded : exactOwn).add(t);
    }
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    for (String t : codeTerms) {
      addTerm(any, F_TEXT, t, folded.contains(t) && exactWeight > 0 ? 1 + exactWeight : 1.0f);
    }
    addTerms(any, F_TEXT_EXACT, exactOwn, exactWeight);
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
      addTerm(into, field, t, boost);
    }
  }

  private static void addTerm(BooleanQuery.Builder into, String field, String t, float boost) {
    Query term = new TermQuery(new Term(field, t));
    into.add(boost == 1.0f ? term : new BoostQuery(term, boost), Occur.SHOULD);
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
