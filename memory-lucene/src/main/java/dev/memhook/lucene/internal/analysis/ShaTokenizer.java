package dev.memhook.lucene.internal.analysis;

import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The first step of the hex chains: emits each maximal run of letters and numbers ({@link
 * TokenChars#isLetterOrNumber}; a run restarts after a supplementary character, see below) that is
 * {@link CodeAwareAnalyzer#MIN_SHA_LENGTH} to {@link CodeAwareAnalyzer#MAX_SHA_LENGTH} hex digits
 * holding at least one decimal digit (a commit SHA or its abbreviation), and nothing else.
 *
 * <h2>Design note</h2>
 *
 * This is what a {@code PatternTokenizer} over {@code
 * (?<![\p{L}\p{N}])(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{7,40}(?![\p{L}\p{N}])} did, token for token and
 * offset for offset (the tests compare them), without trying the pattern at every position of every
 * text the store indexes. That pattern's look-behind read one {@code char}, so it took the low
 * surrogate of a supplementary letter or number (a CJK Extension B ideograph, say) for an edge:
 * this tokenizer does the same, so the hex digits that end a run after such a character are a SHA
 * here too, and indexes written by either agree. It reads its input as {@link WholeInputTokenizer}
 * does.
 *
 * <p>Not thread-safe (one instance per analysis chain, as every tokenizer).
 */
final class ShaTokenizer extends WholeInputTokenizer {
  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);

  @Override
  public boolean incrementToken() {
    clearAttributes();
    CharSequence s = text();
    int n = s.length();
    while (next < n) {
      int cp = Character.codePointAt(s, next);
      int start = next;
      next += Character.charCount(cp);
      if (!TokenChars.isLetterOrNumber(cp)) {
        continue;
      }
      if (Character.charCount(cp) == 2) {
        start = next;
      }
      while (next < n) {
        int c = Character.codePointAt(s, next);
        if (!TokenChars.isLetterOrNumber(c)) {
          break;
        }
        next += Character.charCount(c);
        if (Character.charCount(c) == 2) {
          start = next; // the pattern's look-behind saw the pair's low surrogate: an edge
        }
      }
      if (isSha(s, start, next)) {
        term.setEmpty().append(s, start, next);
        offset.setOffset(correctOffset(start), correctOffset(next));
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code s} from {@code start} to {@code end} is 7 to 40 hex digits with a decimal one.
   */
  static boolean isSha(CharSequence s, int start, int end) {
    int length = end - start;
    if (length < CodeAwareAnalyzer.MIN_SHA_LENGTH || length > CodeAwareAnalyzer.MAX_SHA_LENGTH) {
      return false;
    }
    boolean digit = false;
    for (int i = start; i < end; i++) {
      char c = s.charAt(i);
      if (!TokenChars.isHexDigit(c)) {
        return false;
      }
      digit |= c <= '9';
    }
    return digit;
  }
}
