package dev.memhook.lucene.internal.analysis;

import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

/**
 * The first step of every code-aware chain but the hex ones: splits the text into maximal runs of
 * CJK characters and maximal runs of the other token characters ({@link TokenChars}), so paths,
 * identifiers, flags and SHAs stay whole; anything else separates tokens. A CJK run is typed as
 * {@link StandardTokenizer}'s {@code <IDEOGRAPHIC>} (the very constant, which {@link
 * org.apache.lucene.analysis.cjk.CJKBigramFilter} compares by identity), so it is bigrammed; every
 * other token keeps the default type.
 *
 * <h2>Design note</h2>
 *
 * This is what a {@code PatternTokenizer} over {@code [CJK]+|[[token chars]&&[^CJK]]+} followed by
 * a filter typing the CJK runs did, token for token and offset for offset (the tests compare them):
 * indexes written by either are read by the other. It classifies each code point once, where the
 * pattern's script and category classes tried several lookups per character, and it knows which
 * runs are CJK as it finds them. It reads its input as {@link WholeInputTokenizer} does.
 *
 * <p>Not thread-safe (one instance per analysis chain, as every tokenizer).
 */
final class CodeTokenizer extends WholeInputTokenizer {
  private static final String IDEOGRAPHIC =
      StandardTokenizer.TOKEN_TYPES[StandardTokenizer.IDEOGRAPHIC];

  private static final int SEPARATOR = 0;
  private static final int CJK = 1;
  private static final int WORD = 2;

  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private final TypeAttribute type = addAttribute(TypeAttribute.class);

  @Override
  public boolean incrementToken() {
    clearAttributes();
    CharSequence s = text();
    int n = s.length();
    while (next < n) {
      int cp = Character.codePointAt(s, next);
      int kind = kind(cp);
      int start = next;
      next += Character.charCount(cp);
      if (kind == SEPARATOR) {
        continue;
      }
      while (next < n) {
        int c = Character.codePointAt(s, next);
        if (kind(c) != kind) {
          break;
        }
        next += Character.charCount(c);
      }
      term.setEmpty().append(s, start, next);
      offset.setOffset(correctOffset(start), correctOffset(next));
      if (kind == CJK) {
        type.setType(IDEOGRAPHIC);
      }
      return true;
    }
    return false;
  }

  private static int kind(int cp) {
    if (TokenChars.isCjk(cp)) {
      return CJK;
    }
    return TokenChars.isTokenChar(cp) ? WORD : SEPARATOR;
  }
}
