package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryType;
import java.util.regex.Pattern;

/**
 * Questions about something going wrong, and the memories that answer them. A question describes
 * trouble when it names a failure in the words people use for one: an error, a crash, a failure, a
 * hang, a timeout, something broken, wrong, lost, duplicated, refused or slow, or something that
 * cannot, does not or will not work. Its answer is often a bug the project met before, recorded as
 * a {@link MemoryType#BUG} (what broke, why, and the fix), told in the words of the fix rather than
 * the symptom: the question shares few words with it and the model scores them modestly.
 *
 * <p>The relevance gate reads this ({@link RelevanceGate}): for such a question, a bug memory over
 * a candidate floor gives evidence for itself. Generic wording only; the rules name no topic.
 * Stateless and thread-safe.
 */
final class TroubleCue {

  private static final Pattern TROUBLE =
      Pattern.compile(
          "\\b(?:errors?|exceptions?|fail(?:s|ed|ing|ures?)?|broke|broken|break(?:s|ing)?"
              + "|crash(?:es|ed|ing)?|hang(?:s|ing)?|stuck|bugs?|nan|wrong|flaky|leak(?:s|ing)?"
              + "|lost|losing|duplicated?|duplicates|twice|refused|denied|slow(?:er)?"
              + "|tim(?:es|ed|ing) out|timeouts?"
              + "|(?:can ?not|can't|cant|won't|doesn't|didn't|isn't|aren't|not)"
              + "(?:\\W+\\w+){0,3}?\\W+(?:work(?:s|ing)?|start(?:s|ing)?|load(?:s|ing)?"
              + "|reach|find|connect|run|build|compile|apply|open|show))\\b",
          Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  private TroubleCue() {}

  /** Whether {@code question} describes something going wrong. */
  static boolean asks(String question) {
    return TROUBLE.matcher(question).find();
  }

  /** Whether {@code m} records a bug: what broke, why, and how it was fixed. */
  static boolean answers(Memory m) {
    return m != null && m.type() == MemoryType.BUG;
  }
}
