package dev.memhook.core.internal.sanitize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The step budget: a host rule that backtracks without end fails the call closed. */
class SanitizerBudgetTest {

  @Test
  void aCatastrophicHostPattern_throwsNamingItsKind_insteadOfHanging() {
    Sanitizer sanitizer =
        Sanitizer.create(List.of(new HostRule("runaway", Pattern.compile("(a+)+b"), 0)), false);
    IllegalArgumentException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(30), // a hang guard, not a performance target
            () ->
                assertThrows(
                    IllegalArgumentException.class, () -> sanitizer.sanitize("a".repeat(10_000))));
    assertTrue(e.getMessage().contains("rule 'runaway'"), e.getMessage());
    assertTrue(e.getMessage().contains("the text was not stored"), e.getMessage());
  }

  @Test
  void aHostPatternThatOnlyLooksCatastrophic_finishesOnTextItMatchesQuickly() {
    Sanitizer sanitizer =
        Sanitizer.create(List.of(new HostRule("runaway", Pattern.compile("(a+)+b"), 0)), false);
    assertEquals("x [redacted:runaway] y", sanitizer.sanitize("x aaaab y"));
  }
}
