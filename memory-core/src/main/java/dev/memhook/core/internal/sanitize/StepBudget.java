package dev.memhook.core.internal.sanitize;

/**
 * A text as a regex sees it, with a work budget: every {@link #charAt} spends one step, and when
 * the steps run out it throws {@link Exceeded}. java.util.regex reads its input only through {@code
 * charAt}, so a pattern that backtracks without end is stopped after a number of steps proportional
 * to the text's length, however it is written.
 *
 * <p>One rule at a time: not thread-safe.
 */
final class StepBudget implements CharSequence {

  /**
   * Steps a rule may spend per character of the text. A linear built-in rule reads each character a
   * small, fixed number of times, far below this; a host pattern that needs more is backtracking.
   */
  static final long STEPS_PER_CHAR = 100;

  /** Steps every rule may spend on top, so short texts never trip the budget. */
  static final long BASE_STEPS = 100_000;

  /** Thrown when a rule spends its budget; carries no stack trace, it is caught and reported. */
  static final class Exceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Exceeded() {
      super("step budget exceeded", null, false, false);
    }
  }

  private final String text;
  private long remaining;

  StepBudget(String text) {
    this.text = text;
    this.remaining = STEPS_PER_CHAR * text.length() + BASE_STEPS;
  }

  @Override
  public char charAt(int index) {
    if (--remaining < 0) {
      throw new Exceeded();
    }
    return text.charAt(index);
  }

  @Override
  public int length() {
    return text.length();
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return text.substring(start, end);
  }

  @Override
  public String toString() {
    return text;
  }
}
