package dev.memhook.core.internal.compress;

import java.util.List;
import java.util.Locale;

/**
 * What the wording of a sentence says it is: a preference, a decision, a pattern or a discovery.
 * Plain phrase matching on the lower-cased sentence; it is meant to be cheap and predictable, not
 * clever, and {@link FactAdmission} filters what it lets through.
 *
 * <p>Stateless and thread-safe.
 */
final class Wording {

  /** The longest sentence looked at; longer ones are read up to here. */
  static final int WINDOW = 2_000;

  private static final List<String> PREFERENCE =
      List.of(
          "i prefer",
          "we prefer",
          "prefer to ",
          "always use",
          "never use",
          " never ",
          "please use",
          "please always",
          "please never",
          "please don't",
          "please do not",
          "don't use",
          "do not use",
          " instead of ",
          " rather than ",
          "i'd rather",
          "i would rather",
          "i like to",
          "from now on",
          "make sure to always",
          "always run",
          "always write");

  private static final List<String> DECISION =
      List.of(
          "we decided",
          "we've decided",
          "we have decided",
          "decided to",
          "let's go with",
          "let us go with",
          "we'll go with",
          "we will go with",
          "going with",
          "the design is",
          "the plan is",
          "the decision is",
          "we will use",
          "we'll use",
          "agreed to",
          "we chose",
          "we picked");

  /**
   * Habitual wording: the sentence states something that recurs ("whenever the schema changes, we
   * regenerate the client", "every time the cache is cleared, Gradle downloads everything again",
   * "by convention every controller extends BaseController"). Addressed to "you", the same words
   * are an instruction or an offer ("whenever you are ready"), not a pattern; see {@link #pattern}.
   */
  private static final List<String> PATTERN =
      List.of(
          "whenever ",
          "every time ",
          "each time ",
          "by convention",
          "the convention is",
          "our convention",
          "as a rule",
          "we always ",
          "we usually ",
          "we typically ",
          "we normally ",
          "we tend to ");

  private static final List<String> DISCOVERY =
      List.of(
          "turns out",
          "i found",
          "found that",
          "the cause is",
          "the cause was",
          "root cause",
          "the problem is",
          "the problem was",
          "the issue is",
          "the issue was",
          "the bug is",
          "the bug was",
          "the reason is",
          "the reason was");

  private Wording() {}

  /** The sentence's window, lower-cased, with a space at each end and straight apostrophes. */
  private static String lowered(String sentence) {
    String lower = " " + TextCuts.head(sentence, WINDOW).toLowerCase(Locale.ROOT) + " ";
    return lower.replace('’', '\'');
  }

  static boolean preference(String sentence) {
    return any(sentence, PREFERENCE);
  }

  static boolean decision(String sentence) {
    return any(sentence, DECISION);
  }

  /**
   * Whether the sentence states a recurring way things happen or are done (see {@link #PATTERN}).
   */
  static boolean pattern(String sentence) {
    String lower = lowered(sentence);
    for (String phrase : PATTERN) {
      for (int at = lower.indexOf(phrase); at >= 0; at = lower.indexOf(phrase, at + 1)) {
        int next = at + phrase.length();
        while (next < lower.length() && lower.charAt(next) == ' ') {
          next++;
        }
        if (!lower.startsWith("you ", next) && !lower.startsWith("you'", next)) {
          return true;
        }
      }
    }
    return false;
  }

  static boolean discovery(String sentence) {
    return any(sentence, DISCOVERY);
  }

  private static boolean any(String sentence, List<String> phrases) {
    String lower = lowered(sentence);
    for (String phrase : phrases) {
      if (lower.contains(phrase)) {
        return true;
      }
    }
    return false;
  }
}
