package dev.memhook.core.internal.compress;

import dev.memhook.api.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a user's reply chooses among the options the agent's message before it offered. {@link
 * Statements} reads one message alone; a one-word answer ("flyway.") says something only beside the
 * question it answers. Stateless and thread-safe.
 */
final class OfferedChoices {

  private OfferedChoices() {}

  /**
   * The decision a short reply makes by naming one of the options the agent's message before it
   * offered, or null: "The two usual choices are Flyway (…) and Liquibase (…)." answered "flyway.
   * the team reads SQL fine" is "Chose Flyway: the team reads SQL fine." The option must be a name
   * as the agent wrote it (capitalised, in backticks or with a digit or joining mark), so "staging
   * or prod?" answered "staging" chooses for this task only and makes no decision; and the agent's
   * message must offer a choice ("or", "choices", "options", "either", "vs").
   *
   * @param reply the user's message
   * @param offer the agent's message just before it, or null
   */
  static Statements.Statement of(String reply, String offer) {
    if (offer == null || !OFFERS_CHOICE.matcher(offer).find()) {
      return null;
    }
    List<String> sentences = TextCuts.sentences(reply, Spoken.WINDOW);
    if (sentences.isEmpty()) {
      return null;
    }
    String picked =
        CHOICE_LEAD.matcher(sentences.get(0).strip()).replaceFirst("").replaceAll("[.!,;:]+$", "");
    picked = CHOICE_TAIL.matcher(picked).replaceFirst("").strip();
    if (picked.isEmpty() || picked.split("\\s+").length > MAX_CHOICE_WORDS) {
      return null;
    }
    Matcher named =
        Pattern.compile("(?i)(?<![\\w-])`?(" + Pattern.quote(picked) + ")`?(?![\\w-])")
            .matcher(offer);
    while (named.find()) {
      String option = named.group(1);
      boolean name =
          named.group().startsWith("`")
              || !option.equals(option.toLowerCase(Locale.ROOT))
              || !Statements.subjects(option).isEmpty();
      if (name) {
        String reason = reason(sentences.subList(1, sentences.size()));
        return new Statements.Statement(
            MemoryType.DECISION,
            "Chose " + option + (reason.isEmpty() ? "." : ": " + TextCuts.asSentence(reason)),
            false);
      }
    }
    return null;
  }

  /**
   * What the reply says after its choice, up to a sentence that asks for work ("flyway. the team
   * reads SQL. also add a baseline": the reason is the second sentence only).
   */
  private static String reason(List<String> after) {
    List<String> said = new ArrayList<>();
    for (String sentence : after) {
      if (Statements.opensARequest(sentence)) {
        break;
      }
      said.add(sentence.strip());
    }
    return String.join(" ", said);
  }

  /** The most words of an option a reply names: {@value}. */
  static final int MAX_CHOICE_WORDS = 3;

  /** An agent's message that offers a choice. */
  private static final Pattern OFFERS_CHOICE =
      Pattern.compile(
          "(?i)\\b(?:or|either|choices?|options?|alternatives?|vs\\.?|versus|which (?:one|do you"
              + "|would you|should))\\b");

  /** What may open a reply that picks an option: "ok,", "yes", "let's go with", "use". */
  private static final Pattern CHOICE_LEAD =
      Pattern.compile(
          "(?i)^(?:(?:ok(?:ay)?|yes|yeah|yep|hmm+|sure|right)[,.!]?\\s+)*(?:let'?s (?:go with|use|do)"
              + "|go with|use|pick|take|i'?d (?:go with|say|pick|take)|i'?ll (?:go with|take)"
              + "|i (?:prefer|pick|choose))?\\s*");

  /** What may close it: "please", "then", "for this", "I think". */
  private static final Pattern CHOICE_TAIL =
      Pattern.compile("(?i)\\s+(?:please|pls|then|i think|i guess)$");
}
