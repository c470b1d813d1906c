package dev.memhook.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The budget, in characters, of the context one hook event injects into the agent ({@code
 * hookSpecificOutput.additionalContext}), and what fits in it: a header, then whole lines, one per
 * memory, in the order given, each left out whole when it would not fit so that the ones after it
 * still may. A memory is never cut in half, and a memory left out is not counted as offered, so a
 * later prompt may still offer it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param maxChars the most characters the injected text may hold, from 1 to {@link #MAX_CHARS}
 */
record ContextBudget(int maxChars) {

  /**
   * The default: Claude Code's own cap on a hook's injected context, past which it keeps only a
   * preview of the text and a path to the rest, which a model reads less than the text itself.
   */
  static final int DEFAULT_MAX_CHARS = 10_000;

  /** The largest budget accepted: ten times the default, for agents that allow more. */
  static final int MAX_CHARS = 100_000;

  ContextBudget {
    if (maxChars < 1 || maxChars > MAX_CHARS) {
      throw new IllegalArgumentException(
          "the context budget (--context-chars) must be 1-" + MAX_CHARS + ", got " + maxChars);
    }
  }

  /**
   * What of an answer fits.
   *
   * @param text the header and the lines kept, to inject; empty when no line fits
   * @param kept the indices of the lines kept, ascending
   * @param offered how many lines there were
   * @param chars how many characters {@code text} holds
   */
  record Fit(String text, List<Integer> kept, int offered, int chars) {
    Fit {
      Objects.requireNonNull(text, "text");
      kept = List.copyOf(kept);
    }

    /** How many lines the budget left out. */
    int leftOut() {
      return offered - kept.size();
    }
  }

  /**
   * {@code header} and as many of {@code lines} as fit within {@link #maxChars}, in order; a line
   * that does not fit is skipped and the next one tried. Nothing (an empty text) when no line fits,
   * or the header alone does not.
   */
  Fit fit(String header, List<String> lines) {
    StringBuilder sb = new StringBuilder(header);
    List<Integer> kept = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (sb.length() + line.length() <= maxChars) {
        sb.append(line);
        kept.add(i);
      }
    }
    if (kept.isEmpty() || header.length() > maxChars) {
      return new Fit("", List.of(), lines.size(), 0);
    }
    return new Fit(sb.toString(), kept, lines.size(), sb.length());
  }

  /** The report of one answer, for the hook's log: how much of the budget it used, what it left. */
  String report(String event, Fit fit) {
    return event
        + " context: "
        + fit.chars()
        + " of "
        + maxChars
        + " characters, "
        + Sizes.count(fit.kept().size(), "memory", "memories")
        + (fit.leftOut() == 0 ? "" : " (" + fit.leftOut() + " left out by the budget)");
  }
}
