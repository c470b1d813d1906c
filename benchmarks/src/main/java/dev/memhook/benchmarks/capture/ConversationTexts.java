package dev.memhook.benchmarks.capture;

import static dev.memhook.benchmarks.capture.CodeVocabulary.lowerFirst;

import java.util.Random;

/**
 * The texts of {@link AgentEvents}' conversation events: a user's prompt (1 to 3 sentences) and the
 * agent's answer (2 to 6 sentences), each opening with a sentence that names the event's unique
 * word.
 *
 * <p>Draws from the stream's shared {@link Random}, so the order of its calls is part of what a
 * seed means. Not thread-safe.
 */
final class ConversationTexts {

  private final Random random;
  private final CodeVocabulary words;

  ConversationTexts(Random random, CodeVocabulary words) {
    this.random = random;
    this.words = words;
  }

  /** A {@code PromptSubmit} prompt. */
  String prompt(String unique) {
    String cls = words.className();
    String[] sentences = {
      "Why does "
          + cls
          + "Test fail after the change to "
          + words.method()
          + " in the "
          + unique
          + " package?",
      "Please make "
          + cls
          + "."
          + words.method()
          + " handle a missing "
          + lowerFirst(words.noun())
          + " id.",
      "Run the " + words.module() + " tests again and tell me what still fails.",
      "Keep the public API of " + words.className() + " as it is.",
      "I prefer constructor injection over field injection in this codebase.",
      "The " + lowerFirst(words.noun()) + " totals look wrong on the staging report since Monday."
    };
    StringBuilder sb = new StringBuilder(sentences[0]);
    // at least one sentence after the question: a prompt that is only a question is kept as its
    // session's context, not stored, and every event here must be stored and found by its word
    int more = 1 + random.nextInt(2);
    for (int s = 0; s < more; s++) {
      sb.append(' ').append(sentences[1 + random.nextInt(sentences.length - 1)]);
    }
    return sb.toString();
  }

  /** An {@code AgentResponse} message. */
  String answer(String unique) {
    String cls = words.className();
    String m = words.method();
    String[] sentences = {
      "I updated "
          + cls
          + "."
          + m
          + " in src/main/java/dev/acme/"
          + unique
          + "/"
          + cls
          + ".java so it checks its input first.",
      "The failing assertion in " + cls + "Test expected the old rounding of the total.",
      "All " + (5 + random.nextInt(200)) + " tests in the " + words.module() + " module pass now.",
      "I left " + words.className() + " unchanged because its callers rely on the null result.",
      "The root cause was a stale cache entry in " + words.className() + " after a refund.",
      "Next, we could move the validation into " + words.className() + " so both paths share it."
    };
    StringBuilder sb = new StringBuilder(sentences[0]);
    int more = 1 + random.nextInt(5);
    for (int s = 0; s < more; s++) {
      sb.append(' ').append(sentences[1 + random.nextInt(sentences.length - 1)]);
    }
    return sb.toString();
  }
}
