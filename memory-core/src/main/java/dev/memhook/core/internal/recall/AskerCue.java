package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.Origin;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Questions about the asker, and the memories that answer them. A question is about its asker when
 * it speaks of them in the first person singular ("how many weddings have I been to this year?",
 * "what speed is my internet plan?") and neither addresses the assistant ("you", "your": "can you
 * remind me what you recommended?" asks what the assistant said) nor asks how to do something ("how
 * do I run the tests?", "where can I watch the final?": instructions are what an agent or a tool
 * wrote). Its answer is what the asker told: a person's own turns ({@link Origin.Kind#USER}), and
 * what consolidation distilled from them (a distilled memory keeps its source's origin), not an
 * agent's reply that repeats the topic's words at length, nor a tool's output.
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

  /** A request for instructions: "how do I", "how can I", "where should I", "how to". */
  private static final Phrases HOW_TO =
      Phrases.of(
          concat(
              Phrases.combine(
                  List.of(
                      List.of("how", "where"),
                      List.of("do", "can", "could", "should", "would", "will", "shall"),
                      List.of("i"))),
              List.of("how to")));

  private AskerCue() {}

  /** Whether {@code query} asks about its asker (see the class comment). */
  static boolean asks(String query) {
    String text =
        query.strip().toLowerCase(Locale.ROOT).replace('\u2019', '\'').replaceAll("\\s+", " ");
    return FIRST_PERSON.foundIn(text) && !ADDRESSED.foundIn(text) && !HOW_TO.foundIn(text);
  }

  /** 1 when a person told {@code m} ({@link Origin.Kind#USER}), else 0. */
  static double told(Memory m) {
    return m.origin().kind() == Origin.Kind.USER ? 1 : 0;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
