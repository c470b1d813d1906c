package dev.memhook.core.internal.compress;

import java.util.List;
import java.util.Locale;

/**
 * What the wording of a sentence says it is: a preference, a decision or a discovery. Plain phrase
 * matching on the lower-cased sentence; it is meant to be cheap and predictable, not clever, and
 * {@link FactAdmission} filters what it lets through.
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

  static boolean preference(String sentence) {
    return any(sentence, PREFERENCE);
  }

  static boolean decision(String sentence) {
    return any(sentence, DECISION);
  }

  static boolean discovery(String sentence) {
    return any(sentence, DISCOVERY);
  }

  private static boolean any(String sentence, List<String> phrases) {
    String lower = " " + TextCuts.head(sentence, WINDOW).toLowerCase(Locale.ROOT) + " ";
    lower = lower.replace('’', '\'');
    for (String phrase : phrases) {
      if (lower.contains(phrase)) {
        return true;
      }
    }
    return false;
  }
}
