package dev.memhook.core.internal.compress;

import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.LifecycleEventType;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lesson of a fixed bug: the agent's fix told as a practice a later task should follow ("Fix:
 * no module-level stores for per-user data. Create the store per request …", "the real fix is
 * bounding concurrency: …", "the store has to behave on the server too: …"). The bug is found by
 * its symptom; a later session building something like it ("add a store for the user's wishlist")
 * asks in the fix's words, so the consolidator keeps the lesson beside the bug as a convention.
 *
 * <p>Plain phrase rules over the agent's sentences. Stateless and thread-safe.
 */
final class FixLessons {

  /** The longest lesson of a bug's fix, in characters. */
  static final int MAX_LESSON = 300;

  /** A lesson shorter than this, in characters, takes the sentence after it too. */
  private static final int SHORT_LESSON = 80;

  private FixLessons() {}

  /**
   * The lesson of a bug's fix, or null: the first sentence of the first of the bug's answers
   * ({@code sources}, in order) that tells the fix as a practice, with the sentence after it when
   * it is short, as the agent said them. A labelled fix ({@link #FIX_LABEL}) is a lesson when what
   * follows the label states a practice ({@link #statesAPractice}) or the label sets it against a
   * stopgap ("the real fix is …"); a fix told as one change ("Fix: clamp each dimension at 1")
   * makes none, and ends the search. An unlabelled sentence is one when it tells the fix as a
   * practice ({@link #toldAsPractice}).
   */
  static String of(List<ObservationView> sources) {
    for (ObservationView v : sources) {
      if (v.type() != LifecycleEventType.AGENT_RESPONSE) {
        continue;
      }
      List<String> sentences = TextCuts.sentences(v.said(), Spoken.WINDOW);
      for (int i = 0; i < sentences.size(); i++) {
        String sentence = sentences.get(i).strip();
        Matcher label = FIX_LABEL.matcher(sentence);
        String practice;
        if (label.lookingAt()) {
          practice = sentence.substring(label.end()).strip();
          boolean against = REAL_FIX.matcher(label.group()).find(); // a fix set against a stopgap
          if (!against && !statesAPractice(practice)) {
            return null;
          }
        } else if (toldAsPractice(sentence)) {
          practice = sentence;
        } else {
          continue;
        }
        String lesson = TextCuts.asSentence(practice);
        if (lesson.length() < SHORT_LESSON && i + 1 < sentences.size()) {
          lesson += " " + TextCuts.asSentence(sentences.get(i + 1).strip());
        }
        return Character.toUpperCase(lesson.charAt(0)) + lesson.substring(1);
      }
    }
    return null;
  }

  /**
   * Whether {@code sentence} tells a bug's fix: labelled ({@link #FIX_LABEL}) or told as a practice
   * ({@link #toldAsPractice}). An answer with such a sentence explains a fix.
   */
  static boolean tellsTheFix(String sentence) {
    return FIX_LABEL.matcher(sentence).lookingAt() || toldAsPractice(sentence);
  }

  /**
   * Whether {@code sentence} tells a fix as what the code must do ({@link #REQUIREMENT}), as what
   * sorts the problem out ({@link #WHAT_FIXES_IT}) or by the recurrence it prevents ({@link
   * #NEVER_AGAIN}).
   */
  static boolean toldAsPractice(String sentence) {
    return REQUIREMENT.matcher(sentence).lookingAt()
        || WHAT_FIXES_IT.matcher(sentence).find()
        || NEVER_AGAIN.matcher(sentence).find();
  }

  /**
   * Whether a fix, its label taken off, states a practice rather than one change: it opens as a
   * rule does ("no …", "never …", "always …", "let the database …", "use …"), says how a thing is
   * made ({@link #HOW_TO_MAKE}) or reads as a standing statement ({@link Statements#of}).
   */
  private static boolean statesAPractice(String fix) {
    if (fix.length() < 8) {
      return false;
    }
    if (PRACTICE_OPENER.matcher(fix).lookingAt() || HOW_TO_MAKE.matcher(fix).find()) {
      return true;
    }
    for (Statements.Statement s : Statements.of(fix)) {
      if (s.type() != MemoryType.FACT) {
        return true;
      }
    }
    return false;
  }

  /**
   * The label an agent gives its fix: "Fix: …", "The fix — …", "The fix is to …", "the real fix is
   * bounding concurrency: …".
   */
  private static final Pattern FIX_LABEL =
      Pattern.compile(
          "(?i)(?:the )?fix(?:\\s*[:—–]|\\s+-)\\s*|the (?:(?:real|actual|proper|right) )?fix"
              + " (?:is|was)(?: to)?\\s+"
              + "|.{0,120}?[;,] the (?:real|actual|proper|right) fix (?:is|was)(?: to)?\\s+");

  /** "The real fix", "the actual fix": a fix set against a stopgap, which is a practice. */
  private static final Pattern REAL_FIX =
      Pattern.compile("(?i)\\b(?:real|actual|proper|right) fix\\b");

  /**
   * A fix told as what a thing of the code must do: "The kiosk has to attach the clinic's zone
   * before saving: …", "The store has to behave on the server too: …". Its subject is a thing of
   * the code, not a person ("we have to restart it" is one step).
   */
  private static final Pattern REQUIREMENT =
      Pattern.compile(
          "(?i)(?!(?:we|i|you|they|it|that|there|only)\\b)"
              + "(?![^.:]*\\b(?:has|have|needs?|must) to (?:be )?(?:change|changed|fixed|updated"
              + "|removed|go)\\b)"
              + "[\\w`'*.()/<>-]+(?: [\\w`'*.()/<>-]+){0,4}"
              + " (?:has to|have to|must|needs to|need to|should always|should never) \\w");

  /** A fix told as what sorts the problem out: "Using X plus Y for the Instant field sorts it." */
  private static final Pattern WHAT_FIXES_IT =
      Pattern.compile(
          "(?i)\\b(?:sorts|fixes|solves|avoids|prevents|cures) (?:it|this|that|the (?:problem|issue"
              + "|crash|bug))(?: out)?[.!]?$");

  /**
   * A fix told by the recurrence it prevents: "…, so nobody can end up holding a view of a
   * temporary again".
   */
  private static final Pattern NEVER_AGAIN =
      Pattern.compile(
          "(?i)\\bso (?:that )?(?:nobody|no one|nothing|it never|we never|this never|it can't"
              + "|it cannot)\\b[^.]{0,120}\\bagain\\b");

  /**
   * A fix that says how a thing is made: "build the definition with {@code jsonencode()}", "create
   * the store per request".
   */
  private static final Pattern HOW_TO_MAKE =
      Pattern.compile(
          "(?i)\\b(?:build|create|generate|define|render|construct|compute)\\b[^.;:]{0,80}?\\b(?:with"
              + "|from|using|through|via|per|inside)\\b");

  /** How a fix that is a practice opens. */
  private static final Pattern PRACTICE_OPENER =
      Pattern.compile(
          "(?i)(?:no|never|always|don't|do not|let|use|avoid|prefer|keep|only|make sure|stop)\\b");
}
