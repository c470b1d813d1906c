package dev.memhook.core.internal.recall.words;

import dev.memhook.core.internal.compress.TextCuts;
import dev.memhook.lucene.internal.analysis.SimpleTokens;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The words a query is about: what recall reads in a message when it asks which of the query's
 * words a memory holds, and what the hook names in a summary call's {@code focus} so that each
 * memory it offers can show the line holding them ({@code core.internal.inject.excerpt.Excerpts}).
 * One rule for both, so that a word counts the same wherever a query's words are compared.
 *
 * <h2>The focus</h2>
 *
 * The focus of some messages ({@link #focus}) is their distinct content words in order of first
 * appearance, read from the first {@value #SCANNED_CHARS} characters of each message, at most
 * {@value #MAX_TERMS} words and {@value #MAX_FOCUS_CHARS} characters, space separated. Content
 * words are {@link SimpleTokens}' (lower-cased words and the parts of compounds, English stop words
 * left out), without the words of a request that say nothing about its subject ({@link #CHATTER}:
 * "can", "want", "should", "again"…, and the sanitizer's "redacted"), without one-character words
 * and without words over {@value #MAX_WORD_CHARS} characters. A word and its plural are one term
 * ({@link #term}); {@link #terms} reads a focus back as the terms it names.
 *
 * <p>The hook writes a focus from sanitized messages, and reads one back from a model's summary
 * call, which may hold anything: nothing here assumes a focus was written by {@link #focus}.
 * Stateless and thread-safe; null is never accepted. Exported to {@code memory-cli} only, whose
 * {@code memhook hook} and MCP answers show excerpts as the chat hook does.
 */
public final class QueryWords {

  /** The most terms a focus holds: an excerpt gives each term one bit of an {@code int}. */
  public static final int MAX_TERMS = 24;

  /** The most characters of a focus the hook writes. */
  public static final int MAX_FOCUS_CHARS = 300;

  /** The most characters of each message the hook reads for its focus. */
  public static final int SCANNED_CHARS = 4_000;

  /**
   * The longest word a focus names: a longer one is more likely a key, a hash or a token than a
   * word an excerpt would hold.
   */
  public static final int MAX_WORD_CHARS = 40;

  /**
   * Words of a request or a chat turn that name no subject: how one asks ("can you", "please"),
   * what one wants done ("want", "need", "make"), when ("now", "again") and fillers. Without them
   * an excerpt is chosen for the subject's words; with them a line saying "you can" would do.
   */
  public static final Set<String> CHATTER =
      Set.of(
          "about",
          "actually",
          "again",
          "all",
          "also",
          "any",
          "anything",
          "are",
          "back",
          "can",
          "could",
          "didn",
          "doesn",
          "don",
          "from",
          "get",
          "getting",
          "go",
          "going",
          "got",
          "hey",
          "isn",
          "just",
          "know",
          "let",
          "like",
          "look",
          "make",
          "maybe",
          "more",
          "much",
          "need",
          "now",
          "ok",
          "okay",
          "one",
          "only",
          "out",
          "please",
          "really",
          "redacted",
          "remind",
          "said",
          "say",
          "see",
          "should",
          "some",
          "something",
          "still",
          "sure",
          "tell",
          "thanks",
          "thing",
          "think",
          "up",
          "us",
          "use",
          "using",
          "very",
          "want",
          "wasn",
          "way",
          "where",
          "why",
          "won",
          "would",
          "yes",
          "yet");

  private QueryWords() {}

  /**
   * The focus a summary call names for {@code texts}: their distinct content words, space
   * separated, as described above; empty when they hold none.
   */
  public static String focus(List<String> texts) {
    Set<String> seen = new LinkedHashSet<>();
    StringBuilder out = new StringBuilder();
    for (String text : texts) {
      for (String token : SimpleTokens.tokenize(head(text))) {
        if (seen.size() == MAX_TERMS) {
          return out.toString();
        }
        if (!counts(token) || token.length() > MAX_WORD_CHARS || !seen.add(term(token))) {
          continue;
        }
        if (out.length() + 1 + token.length() > MAX_FOCUS_CHARS) {
          return out.toString();
        }
        out.append(out.length() == 0 ? "" : " ").append(token);
      }
    }
    return out.toString();
  }

  /** The part of a message {@link #focus} reads: its first {@value #SCANNED_CHARS} characters. */
  public static String head(String text) {
    return TextCuts.head(text, SCANNED_CHARS);
  }

  /**
   * The terms of {@code focus} (or of any text: a query's own words are read the same way): its
   * content words as {@link #focus} keeps them, each once, at most {@value #MAX_TERMS}.
   */
  public static List<String> terms(String focus) {
    Set<String> out = new LinkedHashSet<>();
    for (String token : SimpleTokens.tokenize(focus)) {
      if (out.size() == MAX_TERMS) {
        break;
      }
      if (counts(token)) {
        out.add(term(token));
      }
    }
    return List.copyOf(out);
  }

  /**
   * A token of {@link SimpleTokens} as a term: a word and its plural, and a word in any case, as
   * one term.
   */
  public static String term(String token) {
    int n = token.length();
    if (n > 3 && token.endsWith("s") && !token.endsWith("ss")) {
      return token.substring(0, n - 1);
    }
    return token;
  }

  /**
   * Whether {@code token} counts as a word of the subject: more than one character, not chatter.
   */
  private static boolean counts(String token) {
    return token.codePointCount(0, token.length()) > 1 && !CHATTER.contains(token);
  }
}
