package dev.memhook.lucene.internal.analysis;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

/**
 * Types a token that is a run of CJK characters as {@link StandardTokenizer}'s {@code
 * <IDEOGRAPHIC>}, so that {@link org.apache.lucene.analysis.cjk.CJKBigramFilter} bigrams it.
 *
 * <p>Lucene's {@code PatternTypingFilter} would do this, but it builds the type with {@code
 * replaceFirst}, a new string, and {@code CJKBigramFilter} compares types by identity; this filter
 * sets the very constant instead. Not thread-safe (one instance per analysis chain, as every token
 * filter).
 */
final class CjkRunTypingFilter extends TokenFilter {
  private static final String IDEOGRAPHIC =
      StandardTokenizer.TOKEN_TYPES[StandardTokenizer.IDEOGRAPHIC];

  /** The lowest code point of the Han, Hiragana, Katakana and Hangul scripts. */
  static final char FIRST_CJK = '\u1100';

  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private final TypeAttribute type = addAttribute(TypeAttribute.class);
  private final Matcher matcher;

  CjkRunTypingFilter(TokenStream input, Pattern cjkRun) {
    super(input);
    this.matcher = cjkRun.matcher("");
  }

  @Override
  public boolean incrementToken() throws IOException {
    if (!input.incrementToken()) {
      return false;
    }
    // no character below U+1100 (the first Hangul jamo) is of a CJK script: most tokens are
    // decided without the pattern, whose script classes look up every character's script
    if (term.length() > 0 && term.charAt(0) >= FIRST_CJK && matcher.reset(term).matches()) {
      type.setType(IDEOGRAPHIC);
    }
    return true;
  }
}
