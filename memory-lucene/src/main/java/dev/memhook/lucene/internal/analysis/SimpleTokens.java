package dev.memhook.lucene.internal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A small, dependency-free tokenizer for the hashing embedder and the Lucene store's stop words: it
 * lower-cases, splits on anything that is not a letter or digit, and also emits the parts of
 * camelCase and letter-digit compounds ({@code AuthMiddleware} gives {@code authmiddleware}, {@code
 * auth}, {@code middleware}). English stop words are dropped. CJK characters become overlapping
 * bigrams. The Lucene store has its own, richer analysis chain.
 *
 * <p>Stateless and thread-safe.
 */
public final class SimpleTokens {

  /**
   * English function words: question words, pronouns, auxiliaries and the usual stop words. They
   * carry almost no evidence and match nearly every memory, so searches leave them out.
   */
  public static final Set<String> STOP_WORDS =
      Set.of(
          "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is",
          "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there",
          "these", "they", "this", "to", "was", "will", "with", "i", "you", "me", "my", "we", "our",
          "your", "he", "she", "his", "her", "its", "do", "did", "does", "so", "what", "when",
          "how", "who", "which", "have", "has", "had", "been", "were", "am", "s", "t");

  private SimpleTokens() {}

  /** The tokens of {@code text}, in order, with compound parts after each compound. */
  public static List<String> tokenize(String text) {
    List<String> out = new ArrayList<>();
    int n = text.length();
    int i = 0;
    while (i < n) {
      int c = text.codePointAt(i);
      if (isCjk(c)) {
        int start = i;
        while (i < n && isCjk(text.codePointAt(i))) {
          i += Character.charCount(text.codePointAt(i));
        }
        emitCjk(text.substring(start, i), out);
      } else if (Character.isLetterOrDigit(c)) {
        int start = i;
        while (i < n
            && Character.isLetterOrDigit(text.codePointAt(i))
            && !isCjk(text.codePointAt(i))) {
          i += Character.charCount(text.codePointAt(i));
        }
        emitWord(text.substring(start, i), out);
      } else {
        i += Character.charCount(c);
      }
    }
    return out;
  }

  private static void emitWord(String word, List<String> out) {
    String lower = word.toLowerCase(Locale.ROOT);
    List<String> parts = splitCompound(word);
    if (!STOP_WORDS.contains(lower)) {
      out.add(lower);
    }
    if (parts.size() > 1) {
      for (String part : parts) {
        String p = part.toLowerCase(Locale.ROOT);
        if (!STOP_WORDS.contains(p)) {
          out.add(p);
        }
      }
    }
  }

  /** Splits at lower-to-upper, upper-to-upper-lower and letter-digit boundaries. */
  static List<String> splitCompound(String word) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    for (int i = 1; i < word.length(); i++) {
      char prev = word.charAt(i - 1);
      char cur = word.charAt(i);
      boolean boundary =
          (Character.isLowerCase(prev) && Character.isUpperCase(cur))
              || (Character.isUpperCase(prev)
                  && Character.isUpperCase(cur)
                  && i + 1 < word.length()
                  && Character.isLowerCase(word.charAt(i + 1)))
              || (Character.isLetter(prev) && Character.isDigit(cur))
              || (Character.isDigit(prev) && Character.isLetter(cur));
      if (boundary) {
        parts.add(word.substring(start, i));
        start = i;
      }
    }
    parts.add(word.substring(start));
    return parts;
  }

  private static void emitCjk(String run, List<String> out) {
    int[] cps = run.codePoints().toArray();
    if (cps.length == 1) {
      out.add(new String(cps, 0, 1));
      return;
    }
    for (int i = 0; i + 1 < cps.length; i++) {
      out.add(new String(cps, i, 2));
    }
  }

  private static boolean isCjk(int c) {
    Character.UnicodeScript script = Character.UnicodeScript.of(c);
    return script == Character.UnicodeScript.HAN
        || script == Character.UnicodeScript.HIRAGANA
        || script == Character.UnicodeScript.KATAKANA
        || script == Character.UnicodeScript.HANGUL;
  }
}
