package dev.memhook.core.internal.compress;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.capture.CompressedObservation;
import java.util.List;

/**
 * Whether a provider's compressed observation may be stored as it is: what makes one unusable, in
 * words for the log. The synthetic compressor's answers pass by construction.
 *
 * <p>Stateless and thread-safe.
 */
final class AnswerCheck {

  /** The most facts an answer may have: more than fit a summary. */
  static final int MAX_FACTS = 50;

  private AnswerCheck() {}

  /** Why {@code answer} is unusable, or null if it is usable. */
  static String problem(CompressedObservation answer) {
    if (answer == null) {
      return "no answer (null)";
    }
    if (answer.title() == null || answer.title().isBlank()) {
      return "a blank title";
    }
    if (answer.title().length() > MemoryDraft.MAX_TITLE) {
      return "a title of " + answer.title().length() + " characters";
    }
    if (answer.narrative() == null || answer.narrative().length() > MemoryDraft.MAX_SUMMARY) {
      return "a narrative over " + MemoryDraft.MAX_SUMMARY + " characters";
    }
    if (answer.kind() == null) {
      return "no kind";
    }
    double importance = answer.importance();
    if (!(importance >= 0.0 && importance <= 1.0)) {
      return "importance " + importance + " outside 0..1";
    }
    String facts = strings("facts", answer.facts(), MAX_FACTS, MemoryDraft.MAX_SUMMARY);
    if (facts != null) {
      return facts;
    }
    String concepts =
        strings("concepts", answer.concepts(), MemoryDraft.MAX_CONCEPTS, MemoryDraft.MAX_CONCEPT);
    return concepts != null
        ? concepts
        : strings("files", answer.files(), MemoryDraft.MAX_FILES, MemoryDraft.MAX_FILE);
  }

  private static String strings(String name, List<String> values, int maxCount, int maxLength) {
    if (values.size() > maxCount) {
      return values.size() + " " + name + " (at most " + maxCount + ")";
    }
    for (String value : values) {
      if (value.length() > maxLength) {
        return "one of the "
            + name
            + " has "
            + value.length()
            + " characters (at most "
            + maxLength
            + ")";
      }
    }
    return null;
  }
}
