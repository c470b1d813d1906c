package dev.memhook.core.internal.recall;

import java.util.List;

/**
 * Questions that count or add up across occasions: "how many weddings have I been to this year?",
 * "what is the total distance of my road trips?", "how much did I spend on gifts altogether?".
 * Their answer is spread over the times the asker mentioned each occasion, usually in different
 * conversations, so a recall that fills its places with several turns of the one conversation that
 * matched best misses the others ({@link SessionSpread} spreads the places for them).
 *
 * <p>A question counts when it is a question (it holds a question mark or opens with a question
 * word, {@link AskerCue#isQuestion}) and holds one of the phrases of counting or summing as whole
 * words: "how many", "how much", "how often", "total", "altogether", "combined", "number of". A
 * statement that holds one ("the total was wrong") asks for nothing to be counted. Generic wording
 * only; the rules name no topic. Stateless and thread-safe.
 */
final class CountingCue {

  /** Counting and summing, as whole words ("totally" and "subtotal" are other words). */
  private static final Phrases COUNTING =
      Phrases.of(
          List.of(
              "how many", "how much", "how often", "total", "altogether", "combined", "number of"));

  private CountingCue() {}

  /** Whether {@code query} asks to count or add up (see the class comment). */
  static boolean asks(String query) {
    String text = AskerCue.normalised(query);
    return AskerCue.isQuestion(text) && COUNTING.foundIn(text);
  }
}
