package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When a new statement is a near-duplicate of one already held. */
class NearDuplicatesTest {

  @Test
  void restatementWithTheSameContentWords_isANearDuplicate() {
    assertEquals(
        1.0,
        NearDuplicates.similarity(
            "Always use tabs for indentation in Java files.",
            "Use tabs for indentation in Java files, always!"));
    assertTrue(
        NearDuplicates.nearDuplicate(
            "Always use tabs for indentation in Java files.",
            "Use tabs for indentation in Java files, always!"));
  }

  @Test
  void oneContentWordChangedInSix_isStillANearDuplicate_twoAreNot() {
    String base = "staging database runs postgres version sixteen";
    assertEquals(
        5.0 / 7, NearDuplicates.similarity(base, base.replace("sixteen", "fifteen")), 1e-9);
    assertTrue(NearDuplicates.nearDuplicate(base, base.replace("sixteen", "fifteen")));
    assertFalse(
        NearDuplicates.nearDuplicate(
            base, base.replace("sixteen", "fifteen").replace("postgres", "mysql")));
  }

  @Test
  void unrelatedStatements_areNotNearDuplicates() {
    assertFalse(
        NearDuplicates.nearDuplicate(
            "We decided to keep the parser hand-written.", "I prefer tabs over spaces."));
  }

  @Test
  void textsWithoutContentWords_areNearDuplicatesOnlyWhenEqual() {
    assertTrue(NearDuplicates.nearDuplicate("  The  ", "the"));
    assertFalse(NearDuplicates.nearDuplicate("the", "a"));
    assertFalse(NearDuplicates.nearDuplicate("", "tabs"));
  }

  @Test
  void hugeTexts_areComparedInLinearTime() {
    String a = "word ".repeat(200_000) + "tabs";
    String b = "word ".repeat(200_000) + "spaces";
    assertEquals(1.0 / 3, NearDuplicates.similarity(a, b), 1e-9);
  }
}
