package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which questions count or add up across occasions. */
class CountingCueTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "How many weddings have I attended this year?",
        "how much did I spend on gifts for my family?",
        "What is the total distance of my road trips?",
        "How often did we roll back a release last month?",
        "What was the number of guests at both parties?",
        "Which cities did I visit altogether",
        "What is the combined cost of the two subscriptions?",
        "HOW  MANY   tickets did I buy",
        "In total, how long did the migrations take?",
        "did we hit the total?"
      })
  void asks_whenAQuestionCountsOrAddsUp(String question) {
    assertTrue(CountingCue.asks(question));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @ValueSource(
      strings = {
        // a question about one occasion
        "When did Caroline go to the support group?",
        "What did we decide about the migrations?",
        "How did the deploy go?",
        // the phrases inside other words
        "Was the subtotal right on my last invoice?",
        "Is the migration totally safe?",
        "Did the uncombined logs get archived?",
        // a statement holds a phrase but asks nothing
        "the total was wrong on the invoice",
        "I spent so much time on the release notes",
        "",
        "   "
      })
  void doesNotAsk_forOneOccasion_aPhraseInsideAWord_orAStatement(String text) {
    assertFalse(CountingCue.asks(text));
  }
}
