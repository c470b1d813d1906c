package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Preference questions and the memories that answer them. A question asks for a preference when it
 * asks for advice ("any tips for…", "any suggestions?", "can you recommend…", "what should I…", "is
 * it a good idea…") or for a standing choice ("which tool did we pick?", "what style do we
 * prefer?", "how should X be done?", "can we use X?", "what is the rule for X?"). Its answer is
 * what the user said about their own tastes, habits, plans and experience, or a choice or rule the
 * team settled on, not what an agent or a tool wrote about the topic in general.
 *
 * <p>A memory {@linkplain #stance states a preference} fully when capture's consolidation typed it
 * a preference, decision or convention ({@link MemoryType#PREFERENCE}, {@link MemoryType#DECISION},
 * {@link MemoryType#PATTERN}), or when a person (not an agent or a tool) wrote it in the words of a
 * stance: liking, preferring, choosing, deciding, always, never, "instead of". A person's other
 * first-person statements ("I", "my", "we", "our") state half of one: that is how people tell what
 * they do and plan. Generic wording only; the rules name no topic. Stateless and thread-safe.
 */
final class PreferenceCue {

  /** How much a person's first-person statement without stance wording counts. */
  static final double FIRST_PERSON = 0.5;

  private static final Pattern ASKS =
      Pattern.compile(
          "\\bany (?:good |other |more |specific |particular )?(?:tips|suggestions|recommendations"
              + "|advice|ideas|thoughts)\\b"
              + "|\\b(?:can|could|would) you (?:recommend|suggest|advise)\\b"
              + "|\\bdo you (?:have any |know any )?(?:recommend|suggest|advise|suggestions|tips"
              + "|recommendations|advice|ideas)\\b"
              + "|\\bwhat (?:should|would|could|can) (?:i|we)\\b|\\bwhich\\b[^?.!]*\\bshould\\b"
              + "|^(?:should|can|could) (?:i|we)\\b|\\bhow should\\b"
              + "|\\bgood idea\\b|\\bwhat do you (?:recommend|suggest|think i should)\\b"
              + "|\\b(?:do|did) (?:i|we) (?:prefer|like|choose|pick|decide|agree|settle|go with)\\b"
              + "|\\bdo (?:i|we) usually\\b"
              + "|\\bwhat(?:'s| is| are) (?:the|our|my) (?:rule|rules|convention|conventions|policy"
              + "|preference|preferences)\\b"
              + "|\\b(?:allowed|permitted)\\b");

  /**
   * The words of a stance, each as whole words: a person liking, preferring, choosing, deciding ("I
   * really prefer", "we'd rather", "I'm planning", "my go-to"), or the words that mark one whoever
   * says them ("decided", "always", "never", "instead of"). Matched in one pass ({@link Phrases}):
   * this runs over every candidate of a preference question.
   */
  private static final Phrases STANCE =
      Phrases.ofAll(
          Phrases.combine(
              List.of(
                  List.of("i", "we"),
                  List.of(
                      "",
                      "really",
                      "usually",
                      "always",
                      "never",
                      "often",
                      "mostly",
                      "generally",
                      "also",
                      "still",
                      "just",
                      "do not",
                      "don't",
                      "didn't",
                      "did not"),
                  List.of(
                      "prefer",
                      "like",
                      "love",
                      "enjoy",
                      "hate",
                      "dislike",
                      "want",
                      "chose",
                      "choose",
                      "picked",
                      "decided",
                      "agreed",
                      "settled",
                      "tend",
                      "avoid",
                      "can't stand",
                      "use"))),
          Phrases.combine(
              List.of(
                  List.of("i", "we"), List.of("'d", "would"), List.of("rather", "like", "prefer"))),
          Phrases.combine(
              List.of(
                  List.of("i'm", "i am", "we're", "we are"),
                  List.of(
                      "into",
                      "planning",
                      "thinking of",
                      "considering",
                      "a fan of",
                      "fond of",
                      "going with",
                      "using",
                      "sticking with"))),
          Phrases.combine(
              List.of(
                  List.of("my"), List.of("favorite", "favourite", "preference", "go-to", "usual"))),
          List.of(
              "decision",
              "decided",
              "always",
              "never",
              "prefer",
              "preferably",
              "instead of",
              "rather than"));

  /** A stance that opens the text: "do not…", "don't…", "no…", "please don't…". */
  private static final Phrases STANCE_OPENING =
      Phrases.of(Phrases.combine(List.of(List.of("", "please"), List.of("do not", "don't", "no"))));

  private static final Phrases FIRST_PERSON_WORDS =
      Phrases.of(
          List.of(
              "i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "we", "we're", "we've", "our",
              "ours"));

  private PreferenceCue() {}

  /** Whether {@code query} asks for advice or a standing choice (see the class comment). */
  static boolean asks(String query) {
    return ASKS.matcher(lower(query.strip())).find();
  }

  /**
   * How fully {@code m} states a preference, habit, plan or choice: 1, {@link #FIRST_PERSON} or 0
   * (see the class comment).
   */
  static double stance(Memory m) {
    MemoryType type = m.type();
    if (type == MemoryType.PREFERENCE
        || type == MemoryType.DECISION
        || type == MemoryType.PATTERN) {
      return 1;
    }
    Origin.Kind who = m.origin().kind();
    if (who == Origin.Kind.AGENT || who == Origin.Kind.TOOL) {
      return 0;
    }
    String text = lower(m.content());
    if (STANCE.foundIn(text) || STANCE_OPENING.startOf(text)) {
      return 1;
    }
    return FIRST_PERSON_WORDS.foundIn(text) ? FIRST_PERSON : 0;
  }

  /** Lower case, curly apostrophes straightened, so the patterns need one spelling. */
  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT).replace('\u2019', '\'');
  }
}
