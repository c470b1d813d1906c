package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.Origin;
import java.util.List;
import java.util.Locale;

/**
 * Questions about the asker, and the memories that answer them. A question is about its asker when
 * it is a question (it holds a question mark or opens with a question word: "what", "how", "did",
 * "is"…), speaks of the asker in the first person singular ("how many weddings have I been to this
 * year?", "what speed is my internet plan?"), does not address the assistant ("you", "your": "can
 * you remind me what you recommended?" asks what the assistant said, {@link AgentCue}) and does not
 * ask what to do ("how do I run the tests?", "where can I watch the final?", "anything else I need
 * to do?": instructions are what an agent, a tool or a convention says). Its answer is what the
 * asker told: a person's own turns ({@link Origin.Kind#USER}), and what consolidation distilled
 * from them (a distilled memory keeps its source's origin), not an agent's reply that repeats the
 * topic's words at length, nor a tool's output. A statement in the first person ("the rotations in
 * my batches repeat") reports a situation; what helps with it is seldom what the user said before,
 * so it is no question about the asker.
 *
 * <p>A person's memory is {@linkplain #told told by the asker} whoever that person is: a hook
 * stores its user's turns as the user's, and in a conversation of several named people every one of
 * them is a user; the cue only separates people's words from agents' and tools'. Generic wording
 * only; the rules name no topic. Stateless and thread-safe.
 */
final class AskerCue {

  /** The asker in the first person singular; "i" also matches "i'm", "i've", "i'd" and "i'll". */
  private static final Phrases FIRST_PERSON =
      Phrases.of(List.of("i", "me", "my", "mine", "myself"));

  /** The assistant addressed; "you" also matches "you're", "you've", "you'd" and "you'll". */
  private static final Phrases ADDRESSED = Phrases.of(List.of("you", "your", "yours", "yourself"));

  /**
   * A request for instructions: "how do I", "where can I", "how to", "do I need to", "I have to".
   */
  private static final Phrases WHAT_TO_DO =
      Phrases.ofAll(
          Phrases.combine(
              List.of(
                  List.of("how", "where"),
                  List.of("do", "can", "could", "should", "would", "will", "shall"),
                  List.of("i"))),
          Phrases.combine(
              List.of(
                  List.of("", "do", "will", "would"),
                  List.of("i"),
                  List.of("need", "have"),
                  List.of("to"))),
          List.of("how to"));

  /** The words a question opens with, when it has no question mark. */
  private static final Phrases QUESTION_OPENING =
      Phrases.of(
          List.of(
              "what", "what's", "which", "who", "whose", "whom", "when", "where", "why", "how",
              "did", "do", "does", "have", "has", "had", "was", "were", "is", "are", "am", "can",
              "could", "should", "would", "will"));

  private AskerCue() {}

  /** Whether {@code query} asks about its asker (see the class comment). */
  static boolean asks(String query) {
    String text = normalised(query);
    return isQuestion(text)
        && FIRST_PERSON.foundIn(text)
        && !addressesTheAssistant(text)
        && !WHAT_TO_DO.foundIn(text);
  }

  /** Whether {@code text}, {@linkplain #normalised normalised}, says "you" or "your". */
  static boolean addressesTheAssistant(String text) {
    return ADDRESSED.foundIn(text);
  }

  /**
   * {@code query} as the cues read it: stripped, lower-cased, a typographic apostrophe made plain
   * and each run of white space one space.
   */
  static String normalised(String query) {
    return query.strip().toLowerCase(Locale.ROOT).replace('\u2019', '\'').replaceAll("\\s+", " ");
  }

  /**
   * Whether {@code text}, {@linkplain #normalised normalised}, is a question: it holds a question
   * mark or opens with a question word ("what", "how", "did", "is"…).
   */
  static boolean isQuestion(String text) {
    return text.indexOf('?') >= 0 || QUESTION_OPENING.startOf(text);
  }

  /** 1 when a person told {@code m} ({@link Origin.Kind#USER}), else 0. */
  static double told(Memory m) {
    return m.origin().kind() == Origin.Kind.USER ? 1 : 0;
  }
}
