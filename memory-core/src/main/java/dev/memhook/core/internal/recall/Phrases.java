package dev.memhook.core.internal.recall;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * A fixed set of phrases found as whole words in a text, in one pass over it: what a regular
 * expression {@code \b(?:one|two|...)\b} finds, without trying every alternative at every position.
 *
 * <h2>Design note</h2>
 *
 * The recall stages that read a memory's wording (the preference stance of {@link PreferenceCue})
 * run over up to fifty memories per question; as regular expressions of a few hundred alternatives,
 * they cost more than reading those memories. Here the phrases form a character trie and the text
 * is walked once: at each position where a word starts, the trie is followed as far as the text
 * agrees with a phrase, and a phrase counts where the word ends with it.
 *
 * <p><b>Words.</b> A word character is a letter or digit of any script or {@code _}, or a
 * non-spacing mark that follows one (possibly through other marks): the meaning {@code \b} has in
 * {@link java.util.regex.Pattern} on Java 17, which Java 19 narrowed to ASCII. So an {@code é} or a
 * Chinese character glued to a phrase makes it part of a longer word, on every Java version. A
 * phrase is found at {@code p} when the text there starts with it, the character before {@code p}
 * (if any) is not a word character, and the character after it (if any) is not one. Matching is
 * exact, by {@code char}: callers lower-case the text first.
 *
 * <p>Immutable and thread-safe. Null phrases and texts are rejected.
 */
final class Phrases {

  private final Node root;

  private Phrases(Node root) {
    this.root = root;
  }

  /**
   * The phrases given.
   *
   * @throws IllegalArgumentException if a phrase is empty, or starts or ends with a character that
   *     is not an ASCII letter or digit (such a phrase would need the boundary rules of its ends
   *     spelled out)
   */
  static Phrases of(Collection<String> phrases) {
    Builder b = new Builder();
    for (String p : phrases) {
      Objects.requireNonNull(p, "phrase");
      if (p.isEmpty() || !asciiWordChar(p.charAt(0)) || !asciiWordChar(p.charAt(p.length() - 1))) {
        throw new IllegalArgumentException(
            "a phrase must start and end with an ASCII letter or digit: \"" + p + "\"");
      }
      b.add(p);
    }
    return new Phrases(b.build());
  }

  /** The phrases of all {@code lists}, as {@link #of} takes them. */
  @SafeVarargs
  static Phrases ofAll(List<String>... lists) {
    List<String> all = new ArrayList<>();
    for (List<String> l : lists) {
      all.addAll(l);
    }
    return of(all);
  }

  /**
   * Every combination of one word of each part, in order, joined by single spaces; a word that
   * starts with an apostrophe ({@code "'d"}) is joined without one, and an empty string in a part
   * means that part may be left out. {@code combine(List.of(List.of("i", "we"), List.of("",
   * "really"), List.of("prefer")))} spells the alternatives of the regular expression {@code
   * (?:i|we)(?: really)? prefer}.
   */
  static List<String> combine(List<List<String>> parts) {
    List<String> out = new ArrayList<>(List.of(""));
    for (List<String> part : parts) {
      List<String> next = new ArrayList<>();
      for (String head : out) {
        for (String word : part) {
          next.add(
              word.isEmpty()
                  ? head
                  : head.isEmpty() || word.startsWith("'") ? head + word : head + " " + word);
        }
      }
      out = next;
    }
    return out;
  }

  /** Whether one of the phrases occurs in {@code text} as whole words (see the class comment). */
  boolean foundIn(String text) {
    int n = text.length();
    for (int p = 0; p < n; p++) {
      Node first = root.child(text.charAt(p));
      if (first != null && !wordBefore(text, p) && endsAWordFrom(first, text, p + 1)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code text} starts with one of the phrases, which ends a word there. */
  boolean startOf(String text) {
    if (text.isEmpty()) {
      return false;
    }
    Node first = root.child(text.charAt(0));
    return first != null && endsAWordFrom(first, text, 1);
  }

  /**
   * Whether, reading {@code text} from {@code i} on with {@code node} already reached, a phrase
   * ends at a word's end.
   */
  private static boolean endsAWordFrom(Node node, String text, int i) {
    while (true) {
      if (node.end && !wordAt(text, i)) {
        return true;
      }
      if (i >= text.length()) {
        return false;
      }
      node = node.child(text.charAt(i));
      if (node == null) {
        return false;
      }
      i++;
    }
  }

  /** Whether the code point that starts at {@code i} is a word character (false at the end). */
  private static boolean wordAt(String text, int i) {
    if (i >= text.length()) {
      return false;
    }
    int cp = text.codePointAt(i);
    return isWord(cp) || (nonSpacingMark(cp) && hasBase(text, i));
  }

  /** Whether the code point that ends just before {@code i} is a word character (false at 0). */
  private static boolean wordBefore(String text, int i) {
    if (i <= 0) {
      return false;
    }
    int cp = text.codePointBefore(i);
    return isWord(cp) || (nonSpacingMark(cp) && hasBase(text, i - 1));
  }

  private static boolean isWord(int cp) {
    return cp == '_' || Character.isLetterOrDigit(cp);
  }

  private static boolean nonSpacingMark(int cp) {
    return Character.getType(cp) == Character.NON_SPACING_MARK;
  }

  /**
   * Whether, going back from {@code i} char by char over non-spacing marks, a letter or digit comes
   * first: the mark at {@code i} then belongs to a word.
   */
  private static boolean hasBase(String text, int i) {
    for (int x = i; x >= 0; x--) {
      int cp = text.codePointAt(x);
      if (Character.isLetterOrDigit(cp)) {
        return true;
      }
      if (!nonSpacingMark(cp)) {
        return false;
      }
    }
    return false;
  }

  private static boolean asciiWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }

  /** A trie node: the characters that continue a phrase from here, and whether one ends here. */
  private static final class Node {
    private final char[] keys;
    private final Node[] children;
    private final boolean end;

    Node(char[] keys, Node[] children, boolean end) {
      this.keys = keys;
      this.children = children;
      this.end = end;
    }

    Node child(char c) {
      for (int i = 0; i < keys.length; i++) {
        if (keys[i] == c) {
          return children[i];
        }
      }
      return null;
    }
  }

  /** A mutable trie, frozen into {@link Node}s. */
  private static final class Builder {
    private final List<Character> keys = new ArrayList<>();
    private final List<Builder> children = new ArrayList<>();
    private boolean end;

    void add(String phrase) {
      Builder at = this;
      for (int i = 0; i < phrase.length(); i++) {
        int k = at.keys.indexOf(phrase.charAt(i));
        if (k < 0) {
          at.keys.add(phrase.charAt(i));
          at.children.add(new Builder());
          k = at.keys.size() - 1;
        }
        at = at.children.get(k);
      }
      at.end = true;
    }

    Node build() {
      char[] k = new char[keys.size()];
      Node[] c = new Node[keys.size()];
      for (int i = 0; i < k.length; i++) {
        k[i] = keys.get(i);
        c[i] = children.get(i).build();
      }
      return new Node(k, c, end);
    }
  }
}
