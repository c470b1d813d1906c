package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.capture.CompressedObservation;

/** The assertion that a compressed observation is within every {@link MemoryDraft} limit. */
final class Limits {

  private Limits() {}

  static void assertWithin(CompressedObservation c) {
    assertWithin(c, "");
  }

  static void assertWithin(CompressedObservation c, String context) {
    assertFalse(c.title().isBlank(), "blank title " + context);
    assertTrue(c.title().length() <= MemoryDraft.MAX_TITLE, "title " + context);
    assertTrue(
        c.narrative().length() <= SyntheticCompressor.NARRATIVE_LENGTH, "narrative " + context);
    assertTrue(c.facts().size() <= SyntheticCompressor.MAX_FACTS, "facts " + context);
    c.facts()
        .forEach(f -> assertTrue(f.length() <= SyntheticCompressor.MAX_FACT, "fact " + context));
    assertTrue(c.concepts().size() <= SyntheticCompressor.MAX_CONCEPTS, "concepts " + context);
    c.concepts()
        .forEach(
            k -> {
              assertTrue(k.length() <= MemoryDraft.MAX_CONCEPT, "concept " + context);
              assertFalse(k.isBlank(), "blank concept " + context);
            });
    assertTrue(c.files().size() <= MemoryDraft.MAX_FILES, "files " + context);
    c.files().forEach(f -> assertTrue(f.length() <= MemoryDraft.MAX_FILE, "file " + context));
    assertTrue(c.importance() >= 0 && c.importance() <= 1, "importance " + context);
    assertTrue(AnswerCheck.problem(c) == null, "check " + context + ": " + AnswerCheck.problem(c));
  }
}
