package dev.memhook.lucene.internal.analysis;

import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Trims a token's leading and trailing characters that are neither letters nor numbers ({@code
 * AuthMiddleware.java.} at the end of a sentence, {@code -pl} as a flag); a token of nothing else
 * becomes empty, for a later length filter to drop. Offsets are left as they are.
 *
 * <p>This is what a {@code PatternReplaceFilter} of {@code ^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$} with
 * the empty string did, without a matcher per token (the tests compare them). Not thread-safe (one
 * instance per analysis chain, as every token filter).
 */
final class EdgeTrimFilter extends TokenFilter {
  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);

  EdgeTrimFilter(TokenStream input) {
    super(input);
  }

  @Override
  public boolean incrementToken() throws java.io.IOException {
    if (!input.incrementToken()) {
      return false;
    }
    char[] buffer = term.buffer();
    int length = term.length();
    int start = 0;
    while (start < length) {
      int cp = Character.codePointAt(buffer, start, length);
      if (TokenChars.isLetterOrNumber(cp)) {
        break;
      }
      start += Character.charCount(cp);
    }
    int end = length;
    while (end > start) {
      int cp = Character.codePointBefore(buffer, end, start);
      if (TokenChars.isLetterOrNumber(cp)) {
        break;
      }
      end -= Character.charCount(cp);
    }
    if (start > 0) {
      System.arraycopy(buffer, start, buffer, 0, end - start);
    }
    term.setLength(end - start);
    return true;
  }
}
