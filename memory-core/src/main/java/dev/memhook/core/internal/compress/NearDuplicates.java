package dev.memhook.core.internal.compress;

import dev.memhook.lucene.internal.analysis.SimpleTokens;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Whether two statements say the same thing closely enough that the newer should become a new
 * version of the older memory instead of a memory of its own: the Jaccard similarity of their
 * content-word sets ({@link SimpleTokens}: lower-cased words and the parts of compounds, English
 * stop words left out).
 *
 * <p>Why {@value #THRESHOLD}: a restatement of a short statement keeps most of its content words
 * ("Always use tabs for indentation in Java files" and "Use tabs for indentation in Java files,
 * always" are one set), while changing one content word of a six-word statement gives 5/7 ≈ 0.71
 * and two give 4/8 = 0.5. So 0.7 merges restatements and one-word variations, and keeps statements
 * that differ in two content words apart. Statements with the same words in another order ("tabs
 * over spaces", "spaces over tabs") are near-duplicates too; for a preference that is what is
 * wanted, since the newer version replaces the older.
 *
 * <p>Linear in the length of both texts. Stateless and thread-safe.
 */
public final class NearDuplicates {

  /** The least similarity of two near-duplicates: {@value}; see the class comment for why. */
  public static final double THRESHOLD = 0.7;

  private NearDuplicates() {}

  /**
   * Whether {@code a} and {@code b} are near-duplicates: {@link #similarity} ≥ {@link #THRESHOLD}.
   */
  public static boolean nearDuplicate(String a, String b) {
    return similarity(a, b) >= THRESHOLD;
  }

  /**
   * The Jaccard similarity of the content-word sets of {@code a} and {@code b}, 0 to 1. Texts
   * without content words are 1 when equal ignoring case and surrounding space, else 0.
   */
  public static double similarity(String a, String b) {
    Set<String> x = new HashSet<>(SimpleTokens.tokenize(a));
    Set<String> y = new HashSet<>(SimpleTokens.tokenize(b));
    if (x.isEmpty() || y.isEmpty()) {
      return a.strip().toLowerCase(Locale.ROOT).equals(b.strip().toLowerCase(Locale.ROOT))
          ? 1.0
          : 0.0;
    }
    Set<String> small = x.size() <= y.size() ? x : y;
    Set<String> large = small == x ? y : x;
    int common = 0;
    for (String word : small) {
      if (large.contains(word)) {
        common++;
      }
    }
    return (double) common / (x.size() + y.size() - common);
  }
}
