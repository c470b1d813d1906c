package dev.memhook.lucene.internal.analysis;

import java.util.regex.Pattern;

/**
 * The rules for what a memory's secondary text adds to its own words. A title or summary derived
 * from the content (its first line, its first sentences, possibly cut with "…") repeats the
 * content's words; indexing or embedding it again would count those words twice and rank long
 * memories by their first words. The context (the turn before) is indexed only for the words the
 * memory does not say itself ({@link #wordsBeyond}). Stateless and thread-safe.
 */
public final class DerivedText {
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");

  private DerivedText() {}

  /** Whether {@code part} says something {@code content} does not already say word for word. */
  public static boolean addsTo(String part, String content) {
    String p = normalize(part);
    if (p.endsWith("…")) {
      p = p.substring(0, p.length() - 1).strip();
    }
    return !p.isEmpty() && !normalize(content).contains(p);
  }

  /**
   * The words of {@code context} that {@code own} does not hold (compared without case), in their
   * order, separated by spaces; repeats of a kept word are kept. A reply that echoes the turn
   * before it ("That charity race sounds great!") would otherwise count the echoed words twice,
   * once as its own and once through its context, and outrank the turn that said them: context may
   * add evidence a turn lacks, never double what it has. Linear in the lengths.
   */
  public static String wordsBeyond(String context, String own) {
    if (context.isEmpty()) {
      return context;
    }
    java.util.Set<String> ownWords = new java.util.HashSet<>();
    forEachWord(own, w -> ownWords.add(w.toLowerCase(java.util.Locale.ROOT)));
    StringBuilder out = new StringBuilder(context.length());
    forEachWord(
        context,
        w -> {
          if (!ownWords.contains(w.toLowerCase(java.util.Locale.ROOT))) {
            if (out.length() > 0) {
              out.append(' ');
            }
            out.append(w);
          }
        });
    return out.toString();
  }

  /** Calls {@code action} with each maximal run of letters and digits of {@code text}. */
  private static void forEachWord(String text, java.util.function.Consumer<String> action) {
    int n = text.length();
    int i = 0;
    while (i < n) {
      int cp = text.codePointAt(i);
      if (!Character.isLetterOrDigit(cp)) {
        i += Character.charCount(cp);
        continue;
      }
      int start = i;
      while (i < n && Character.isLetterOrDigit(text.codePointAt(i))) {
        i += Character.charCount(text.codePointAt(i));
      }
      action.accept(text.substring(start, i));
    }
  }

  private static String normalize(String s) {
    return WHITESPACE.matcher(s).replaceAll(" ").strip();
  }
}
