package dev.memhook.core.internal.compress;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.Consolidation;
import java.util.List;
import java.util.Set;

/**
 * Whether a provider's answer may be stored as it is, a compressed observation or a session's
 * consolidations: what makes one unusable, in words for the log (never its text, which may be
 * private). The local compressor's and consolidator's answers pass by construction.
 *
 * <p>Stateless and thread-safe.
 */
final class AnswerCheck {

  /** The most facts an answer may have: more than fit a summary. */
  static final int MAX_FACTS = 50;

  /**
   * The most consolidations one session may yield: far more than a session distils (the local
   * consolidator yields a few), and each is a store write that capture waits for.
   */
  static final int MAX_CONSOLIDATIONS = 100;

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

  /**
   * Why {@code answer}, a provider's consolidations of a session whose observations have the ids
   * {@code observations}, is unusable, or null if it is usable. Each consolidation must have
   * content that is not blank, a title and content within the {@link MemoryDraft} limits, concepts
   * and files within theirs, an importance in 0..1, and sources: at least one, each among {@code
   * observations}, so every consolidated memory links to what it came from.
   */
  static String problem(List<Consolidation> answer, Set<MemoryId> observations) {
    if (answer == null) {
      return "no answer (null)";
    }
    if (answer.size() > MAX_CONSOLIDATIONS) {
      return answer.size() + " consolidations (at most " + MAX_CONSOLIDATIONS + ")";
    }
    for (int i = 0; i < answer.size(); i++) {
      String problem = problem(answer.get(i), observations);
      if (problem != null) {
        return "consolidation " + i + ": " + problem;
      }
    }
    return null;
  }

  private static String problem(Consolidation c, Set<MemoryId> observations) {
    if (c == null) {
      return "no value (null)";
    }
    if (c.content().isBlank()) {
      return "blank content";
    }
    if (c.content().length() > MemoryDraft.MAX_CONTENT) {
      return "content of " + c.content().length() + " characters";
    }
    if (c.title().length() > MemoryDraft.MAX_TITLE) {
      return "a title of " + c.title().length() + " characters";
    }
    if (!(c.importance() >= 0.0 && c.importance() <= 1.0)) {
      return "importance " + c.importance() + " outside 0..1";
    }
    if (c.sources().isEmpty()) {
      return "no sources";
    }
    for (MemoryId source : c.sources()) {
      if (!observations.contains(source)) {
        return "a source that is not an observation of the session";
      }
    }
    String concepts =
        strings("concepts", c.concepts(), MemoryDraft.MAX_CONCEPTS, MemoryDraft.MAX_CONCEPT);
    return concepts != null
        ? concepts
        : strings("files", c.files(), MemoryDraft.MAX_FILES, MemoryDraft.MAX_FILE);
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
