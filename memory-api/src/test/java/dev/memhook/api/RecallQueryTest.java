package dev.memhook.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a recall query accepts, and what its copies keep. */
class RecallQueryTest {

  private static final Instant ASKED = Instant.parse("2026-05-01T10:00:00Z");

  @Test
  void theShortConstructors_leaveNothingOut() {
    assertNull(new RecallQuery(Scope.DEFAULT, "q", 3).excludedSession());
    assertNull(new RecallQuery(Scope.DEFAULT, "q", 3, ASKED).excludedSession());
    assertNull(RecallQuery.of(Scope.DEFAULT, "q").excludedSession());
  }

  @Test
  void theCopies_keepEveryOtherComponent() {
    RecallQuery q = new RecallQuery(Scope.of("shop"), "q", 3, ASKED).excludingSession("s-1");
    assertEquals(new RecallQuery(Scope.of("shop"), "q", 7, ASKED, "s-1"), q.withLimit(7));
    assertEquals(new RecallQuery(Scope.of("shop"), "q", 3, null, "s-1"), q.withAsOf(null));
    assertEquals(new RecallQuery(Scope.of("shop"), "q", 3, ASKED, null), q.excludingSession(null));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\t\n"})
  void aBlankSession_isRejected_notTakenForNone(String blank) {
    RecallQuery q = RecallQuery.of(Scope.DEFAULT, "q");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> q.excludingSession(blank));
    assertTrue(e.getMessage().contains("excludedSession"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, RecallQuery.MAX_LIMIT + 1})
  void aLimitOutOfRange_isRejected(int limit) {
    assertThrows(IllegalArgumentException.class, () -> new RecallQuery(Scope.DEFAULT, "q", limit));
  }
}
