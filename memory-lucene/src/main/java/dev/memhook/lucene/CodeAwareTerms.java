package dev.memhook.lucene;

import dev.memhook.lucene.internal.analysis.CodeAwareAnalyzer;
import dev.memhook.lucene.internal.analysis.CodeAwareAnalyzer.PositionedTerm;
import dev.memhook.lucene.internal.analysis.SimpleTokens;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The code-aware term splitting of the Lucene store, for a store that indexes text elsewhere (the
 * PostgreSQL store feeds its {@code tsvector} with it), so that every store finds {@code
 * AuthMiddleware} for {@code auth middleware} and a path by its parts.
 *
 * <p>Terms are what the Lucene store's main text field holds: whole code tokens (paths,
 * identifiers, SHAs) kept as they are, their parts split on separators, case and digit changes,
 * path suffixes and segments, lower-cased and Porter-stemmed ({@code tests → test}). The chain
 * itself is internal and may change between versions; a store that keeps analysed terms must
 * re-index when it does.
 *
 * <p>Stateless and thread-safe; every method rejects a null argument with a {@link
 * NullPointerException}.
 */
public final class CodeAwareTerms {

  /**
   * The most distinct terms {@link #queryTerms} returns; the rest of a very long query is ignored,
   * as the Lucene store ignores it.
   */
  public static final int MAX_QUERY_TERMS = 48;

  private static final String FIELD = "text";
  private static final CodeAwareAnalyzer CODE =
      CodeAwareAnalyzer.of(CodeAwareAnalyzer.Variant.CODE);

  /** Function words as the chain spells them, left out of queries as the Lucene store does. */
  private static final Set<String> STOP_TERMS = stopTerms();

  private CodeAwareTerms() {}

  /**
   * Every term {@code text} analyses to, in order and with repeats (a term's count is its
   * frequency); a token and its parts follow each other.
   */
  public static List<String> indexTerms(String text) {
    Objects.requireNonNull(text, "text");
    List<PositionedTerm> positioned = CODE.positionedTerms(FIELD, text);
    List<String> out = new ArrayList<>(positioned.size());
    for (PositionedTerm t : positioned) {
      out.add(t.term());
    }
    return out;
  }

  /**
   * The distinct terms of a search for {@code text}, in first-seen order, at most {@link
   * #MAX_QUERY_TERMS}, without function words ("what", "the") unless the query holds nothing else:
   * they match nearly every memory and say little. Empty if {@code text} analyses to nothing.
   */
  public static List<String> queryTerms(String text) {
    Objects.requireNonNull(text, "text");
    Set<String> distinct = new LinkedHashSet<>();
    for (PositionedTerm t : CODE.positionedTerms(FIELD, text)) {
      if (distinct.size() == MAX_QUERY_TERMS) {
        break;
      }
      distinct.add(t.term());
    }
    List<String> kept = new ArrayList<>(distinct.size());
    for (String term : distinct) {
      if (!STOP_TERMS.contains(term)) {
        kept.add(term);
      }
    }
    return kept.isEmpty() ? List.copyOf(distinct) : List.copyOf(kept);
  }

  private static Set<String> stopTerms() {
    Set<String> out = new HashSet<>();
    for (String word : SimpleTokens.STOP_WORDS) {
      out.addAll(CODE.terms(FIELD, word));
    }
    return Set.copyOf(out);
  }
}
