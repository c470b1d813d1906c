package dev.memhook.core.internal.compress;

/**
 * The note that closes the content of a memory made while the agent did a task, quoting the task:
 * {@code (Read for the task "…".)} after the project rules read for it ({@link ProjectRules}),
 * {@code (For the task "…".)} after the steps worked out for it ({@link AgentRecaps}). A later
 * session asks for a task of the same kind in its own words, not in the rules' or the steps', so
 * the note lets recall find the memory by the task.
 *
 * <p>For the same reason the note is no part of what an excerpt shows ({@code
 * core.internal.inject.excerpt.Excerpts}): its words are the earlier request's, which match a later
 * request by design and would outscore the rule the request needs, and it tells the agent nothing
 * it can act on. This class is where the note's form is defined for both sides.
 *
 * <p>Stateless and thread-safe; null is never accepted.
 */
public final class TaskNote {

  /** How much of the task's text a note quotes, cut at a word: about a prompt's first sentence. */
  static final int QUOTED_CHARS = 160;

  private static final String READ_FOR = "Read for the task";

  private static final String WORKED_OUT_FOR = "For the task";

  private static final String CLOSE = "\".)";

  private TaskNote() {}

  /** The note for {@code task} (the prompt's words), to follow a sentence: {@code (LEAD "…".)}. */
  private static String of(String lead, String task) {
    return " (" + lead + " \"" + TextCuts.atWord(TextCuts.flat(task, 400), QUOTED_CHARS) + CLOSE;
  }

  /** {@link #of} for project rules: {@code (Read for the task "…".)}. */
  static String readFor(String task) {
    return of(READ_FOR, task);
  }

  /** {@link #of} for steps worked out: {@code (For the task "…".)}. */
  static String workedOutFor(String task) {
    return of(WORKED_OUT_FOR, task);
  }

  /**
   * Where the note that closes {@code content} begins (at the space before its bracket; the last
   * such opening, should the quoted task hold one), or {@code content.length()} when it closes with
   * none.
   */
  public static int start(String content) {
    if (!content.endsWith(CLOSE)) {
      return content.length();
    }
    int start =
        Math.max(
            content.lastIndexOf(" (" + READ_FOR + " \""),
            content.lastIndexOf(" (" + WORKED_OUT_FOR + " \""));
    return start < 0 ? content.length() : start;
  }
}
