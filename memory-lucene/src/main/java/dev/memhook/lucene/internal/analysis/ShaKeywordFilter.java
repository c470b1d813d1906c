package dev.memhook.lucene.internal.analysis;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.miscellaneous.KeywordMarkerFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Marks a token that is a commit SHA or its abbreviation ({@link ShaTokenizer#isSha}) as a keyword,
 * so the word delimiter does not split it and the stemmer leaves it alone. What a {@code
 * PatternKeywordMarkerFilter} of {@code (?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{7,40}} did, without a
 * matcher per token. Not thread-safe (one instance per analysis chain, as every token filter).
 */
final class ShaKeywordFilter extends KeywordMarkerFilter {
  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);

  ShaKeywordFilter(TokenStream input) {
    super(input);
  }

  @Override
  protected boolean isKeyword() {
    return ShaTokenizer.isSha(term, 0, term.length());
  }
}
