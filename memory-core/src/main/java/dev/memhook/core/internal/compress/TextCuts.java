package dev.memhook.core.internal.compress;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Short pieces of long text: the first line, the first sentence, sentences, whitespace folded, and
 * cuts at a word boundary. Every method looks at a bounded window of its input, so its cost does
 * not grow with the input.
 *
 * <p>Public for {@code core.internal.inject.excerpt}, whose excerpts fold whitespace and cut a
 * message's head by the same rules. Stateless and thread-safe.
 */
public final class TextCuts {

  /** What ends a text cut at a word boundary here. */
  static final String ELLIPSIS = "…";

  /**
   * The mark that opens a list item as people write one, with the space after it: "- ", "* ", "• ",
   * "+ ", "1. ", "2) ".
   */
  static final Pattern LIST_MARK = Pattern.compile("^(?:[-*•+]|\\d{1,3}[.)])\\s+");

  /** Whether {@code stripped}, a line without its indent, opens or closes a fenced code block. */
  static boolean codeFence(String stripped) {
    return stripped.startsWith("```") || stripped.startsWith("~~~");
  }

  private TextCuts() {}

  /** {@code text} cut to its first {@code window} characters, never inside a surrogate pair. */
  public static String head(String text, int window) {
    if (text.length() <= window) {
      return text;
    }
    int end = window;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end);
  }

  /** {@code text} cut to its last {@code window} characters, never inside a surrogate pair. */
  static String tail(String text, int window) {
    if (text.length() <= window) {
      return text;
    }
    int start = text.length() - window;
    if (Character.isLowSurrogate(text.charAt(start))) {
      start++;
    }
    return text.substring(start);
  }

  /** The first non-blank line among the first {@code window} characters, stripped, or "". */
  static String firstLine(String text, int window) {
    String head = head(text, window);
    int start = 0;
    while (start < head.length()) {
      int end = head.indexOf('\n', start);
      if (end < 0) {
        end = head.length();
      }
      String line = head.substring(start, end).strip();
      if (!line.isEmpty()) {
        return line;
      }
      start = end + 1;
    }
    return "";
  }

  /** The whitespace of the first {@code window} characters folded to single spaces, stripped. */
  public static String flat(String text, int window) {
    String head = head(text, window);
    StringBuilder sb = new StringBuilder(head.length());
    boolean space = false;
    for (int i = 0; i < head.length(); i++) {
      char c = head.charAt(i);
      if (Character.isWhitespace(c) || Character.isISOControl(c)) {
        space = sb.length() > 0;
      } else {
        if (space) {
          sb.append(' ');
          space = false;
        }
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /**
   * The sentences among the first {@code window} characters, each stripped and folded to one line:
   * a sentence ends at a line break, or at {@code . ! ?} followed by whitespace.
   */
  static List<String> sentences(String text, int window) {
    String head = head(text, window);
    List<String> out = new ArrayList<>();
    int start = 0;
    int n = head.length();
    for (int i = 0; i < n; i++) {
      char c = head.charAt(i);
      boolean end =
          c == '\n'
              || ((c == '.' || c == '!' || c == '?')
                  && (i + 1 == n || Character.isWhitespace(head.charAt(i + 1))));
      if (end) {
        add(out, head.substring(start, c == '\n' ? i : i + 1));
        start = i + 1;
      }
    }
    add(out, head.substring(start));
    return out;
  }

  private static void add(List<String> out, String sentence) {
    String s = flat(sentence, sentence.length());
    if (!s.isEmpty()) {
      out.add(s);
    }
  }

  /** The first sentence among the first {@code window} characters, or "". */
  static String firstSentence(String text, int window) {
    List<String> all = sentences(text, window);
    return all.isEmpty() ? "" : all.get(0);
  }

  /**
   * {@code text}, or, when it is longer than {@code max}, its start cut at a word boundary and
   * ended with {@value #ELLIPSIS}; the result is at most {@code max} characters and never splits a
   * surrogate pair.
   */
  static String atWord(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    int limit = max - ELLIPSIS.length();
    int space = text.lastIndexOf(' ', limit);
    int end = space >= limit / 2 ? space : limit;
    if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end).strip() + ELLIPSIS;
  }

  /** {@code sentence} with one final {@code .}, unless it already ends with punctuation. */
  static String asSentence(String sentence) {
    if (sentence.isEmpty()) {
      return sentence;
    }
    char last = sentence.charAt(sentence.length() - 1);
    return last == '.' || last == '!' || last == '?' || last == '…' ? sentence : sentence + ".";
  }
}
