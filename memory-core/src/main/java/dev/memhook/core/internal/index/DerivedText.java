package dev.memhook.core.internal.index;

/**
 * The one rule for whether a title or summary adds anything to a memory's content. A title or
 * summary derived from the content (its first line, its first sentences, possibly cut with "…")
 * repeats the content's words; indexing or embedding it again would count those words twice and
 * rank long memories by their first words. Stateless and thread-safe.
 */
public final class DerivedText {

  private DerivedText() {}

  /** Whether {@code part} says something {@code content} does not already say word for word. */
  public static boolean addsTo(String part, String content) {
    String p = normalize(part);
    if (p.endsWith("…")) {
      p = p.substring(0, p.length() - 1).strip();
    }
    return !p.isEmpty() && !normalize(content).contains(p);
  }

  private static String normalize(String s) {
    return s.replaceAll("\\s+", " ").strip();
  }
}
