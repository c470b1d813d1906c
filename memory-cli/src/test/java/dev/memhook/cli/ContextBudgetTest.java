package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ContextBudget: whole lines in order, skipping one that does not fit, counted for the log. */
class ContextBudgetTest {

  @Test
  void fit_keepsWholeLinesInOrder_skippingOneThatDoesNotFit() {
    ContextBudget budget = new ContextBudget(20);
    ContextBudget.Fit fit = budget.fit("H\n", List.of("- a\n", "- far too long a line\n", "- b\n"));
    assertEquals("H\n- a\n- b\n", fit.text());
    assertEquals(List.of(0, 2), fit.kept());
    assertEquals(3, fit.offered());
    assertEquals(1, fit.leftOut());
    assertEquals(10, fit.chars());
    assertEquals(
        "SessionStart context: 10 of 20 characters, 2 memories (1 left out by the budget)",
        budget.report("SessionStart", fit));
  }

  @Test
  void fit_isExactAtTheBudget_andEmptyWhenNoLineFits() {
    assertEquals("H\n- a\n", new ContextBudget(6).fit("H\n", List.of("- a\n")).text());
    ContextBudget.Fit none = new ContextBudget(5).fit("H\n", List.of("- a\n"));
    assertEquals("", none.text());
    assertEquals(List.of(), none.kept());
    assertEquals(1, none.leftOut());
    assertTrue(new ContextBudget(1).fit("a header", List.of("x")).kept().isEmpty());
  }

  @Test
  void budget_outsideItsRange_isRefusedNamingTheOption() {
    assertThrows(IllegalArgumentException.class, () -> new ContextBudget(0));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> new ContextBudget(ContextBudget.MAX_CHARS + 1));
    assertTrue(e.getMessage().contains("--context-chars"), e.getMessage());
  }
}
