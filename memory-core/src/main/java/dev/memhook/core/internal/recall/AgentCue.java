package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.Origin;
import java.util.List;

/**
 * Questions about what the assistant said before, and the memories that answer them. A question
 * asks what the assistant said when it is a question ({@link AskerCue#isQuestion}), addresses the
 * assistant ("you", "your") and points back at something told earlier: "you" and a verb of telling
 * in the past or asked about ("you told me", "the venue you recommended", "how many eggs did you
 * say"), or an earlier conversation named as the one it wants ("our previous chat", "our last
 * conversation"). Its answer is what an agent said ({@link Origin.Kind#AGENT}), not the asker's own
 * turn around it, which repeats the topic's words without the detail the assistant gave. A question
 * addressing the assistant without pointing back ("can you run the tests?") asks for work, not for
 * a memory of its words, and is not one.
 *
 * <p>This is the other side of {@link AskerCue}: a question about its asker never says "you", and
 * this one always does, so the two never fire together. Generic wording only; the rules name no
 * topic. Stateless and thread-safe.
 */
final class AgentCue {

  /**
   * The assistant's telling: "you" and a verb of telling in the past ("you told me", "the venue you
   * recommended"), or asked about ("what did you say", "which one did you suggest"). The present
   * alone is left out: "how do you say thank you in japanese?" and "what do you recommend?" ask for
   * an answer now, not for one given before.
   */
  private static final Phrases TOLD_BY_YOU =
      Phrases.ofAll(
          Phrases.combine(
              List.of(
                  List.of("you"),
                  List.of(
                      "told",
                      "said",
                      "mentioned",
                      "recommended",
                      "suggested",
                      "gave",
                      "listed",
                      "provided",
                      "shared",
                      "wrote",
                      "explained",
                      "showed",
                      "proposed",
                      "described",
                      "came up with"))),
          Phrases.combine(
              List.of(
                  List.of("did you"),
                  List.of(
                      "say",
                      "tell",
                      "mention",
                      "recommend",
                      "suggest",
                      "give",
                      "list",
                      "provide",
                      "share",
                      "write",
                      "explain",
                      "show",
                      "propose",
                      "describe",
                      "come up with"))));

  /** An earlier conversation named as the one the question is about. */
  private static final Phrases EARLIER_CONVERSATION =
      Phrases.of(
          Phrases.combine(
              List.of(
                  List.of("our", "the"),
                  List.of("previous", "last", "earlier", "past"),
                  List.of("conversation", "conversations", "chat", "chats", "discussion"))));

  private AgentCue() {}

  /** Whether {@code query} asks what the assistant said before (see the class comment). */
  static boolean asks(String query) {
    String text = AskerCue.normalised(query);
    return AskerCue.isQuestion(text)
        && AskerCue.addressesTheAssistant(text)
        && (TOLD_BY_YOU.foundIn(text) || EARLIER_CONVERSATION.foundIn(text));
  }

  /** 1 when an agent said {@code m} ({@link Origin.Kind#AGENT}), else 0. */
  static double said(Memory m) {
    return m.origin().kind() == Origin.Kind.AGENT ? 1 : 0;
  }
}
