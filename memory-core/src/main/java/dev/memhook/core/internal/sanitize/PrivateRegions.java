package dev.memhook.core.internal.sanitize;

/**
 * Hides {@code <private>…</private>} regions (tags in any case): each becomes {@code [private]}, an
 * unclosed one hides the rest of the text, and a stray close tag is removed. One pass over the
 * text; the output holds no tag, even where removing a stray close tag joins two halves of one
 * ({@code <priv</private>ate>} opens a region), so hiding twice gives what hiding once gave.
 *
 * <p>Stateless and thread-safe.
 */
final class PrivateRegions {

  static final String MARKER = "[private]";
  private static final String OPEN = "<private>";
  private static final String CLOSE = "</private>";

  private PrivateRegions() {}

  static String hide(String text) {
    int first = nextTag(text, 0);
    if (first < 0) {
      return text;
    }
    int n = text.length();
    // The output is a stack: a tag is recognised when its '>' is pushed, whatever was removed
    // before it, which is what makes one pass enough.
    StringBuilder out = new StringBuilder(n).append(text, 0, first);
    int i = first;
    while (i < n) {
      char c = text.charAt(i++);
      out.append(c);
      if (c != '>') {
        continue;
      }
      if (endsWithIgnoreCase(out, CLOSE)) {
        out.setLength(out.length() - CLOSE.length());
      } else if (endsWithIgnoreCase(out, OPEN)) {
        out.setLength(out.length() - OPEN.length());
        out.append(MARKER);
        int close = indexOfIgnoreCase(text, CLOSE, i);
        i = close < 0 ? n : close + CLOSE.length();
      }
    }
    return out.toString();
  }

  /** The first position at or after {@code from} where an open or close tag starts, or -1. */
  private static int nextTag(String text, int from) {
    for (int i = text.indexOf('<', from); i >= 0; i = text.indexOf('<', i + 1)) {
      if (text.regionMatches(true, i, OPEN, 0, OPEN.length())
          || text.regionMatches(true, i, CLOSE, 0, CLOSE.length())) {
        return i;
      }
    }
    return -1;
  }

  private static int indexOfIgnoreCase(String text, String tag, int from) {
    for (int i = text.indexOf('<', from); i >= 0; i = text.indexOf('<', i + 1)) {
      if (text.regionMatches(true, i, tag, 0, tag.length())) {
        return i;
      }
    }
    return -1;
  }

  private static boolean endsWithIgnoreCase(StringBuilder out, String tag) {
    int start = out.length() - tag.length();
    if (start < 0) {
      return false;
    }
    for (int j = 0; j < tag.length(); j++) {
      char c = out.charAt(start + j);
      if (Character.toLowerCase(c) != tag.charAt(j)) {
        return false;
      }
    }
    return true;
  }
}
