package dev.memhook.cli;

/**
 * The exit statuses of {@code memhook}, stable for scripts; {@code memhook --help} and the README
 * list them. {@code memhook hook} always exits {@link #OK}: a coding agent's step must never fail
 * because of its memory.
 */
final class ExitCode {
  /** Done. */
  static final int OK = 0;

  /** A usage error: an unknown command or option, a malformed argument. */
  static final int USAGE = 1;

  /**
   * The store cannot be opened: no store in the directory, a damaged or incompatible index (another
   * embedding model, a newer format), or, for a command that writes, another process holds it.
   */
  static final int STORE_UNAVAILABLE = 2;

  /** A memory asked for by id does not exist (or was forgotten). */
  static final int NOT_FOUND = 3;

  /** {@code doctor} found a problem; it printed what to do. */
  static final int PROBLEMS_FOUND = 4;

  /**
   * A forget was not confirmed: declined, or no terminal to ask on and no {@code --yes}, or, for a
   * memory made from observations, neither {@code --with-sources} nor {@code --memory-only}.
   */
  static final int NOT_CONFIRMED = 5;

  /** An import file is malformed; the message names the line, and nothing of it was stored. */
  static final int BAD_INPUT = 6;

  /** Anything else failed (an I/O error, the embedder); the message says what. */
  static final int FAILED = 7;

  /** The list {@code --help} shows. */
  static final String HELP =
      """
      Exit codes:
        0  done
        1  usage error: unknown command or option, malformed argument
        2  store cannot be opened: missing, damaged, another embedding model,
           or held by another process for a command that writes
        3  not found: no memory with that id
        4  doctor found problems
        5  forget not confirmed: declined, or no terminal and no --yes
           (and, for a memory made from observations, no --with-sources
           or --memory-only)
        6  malformed import file: the line is named, nothing was stored
        7  other failure
      memhook hook always exits 0.
      Environment: MEMHOOK_DIR, the store directory when --dir is not given;
      MEMHOOK_STANDING_CHARS, memhook hook's --standing-chars when it is not given.""";

  private ExitCode() {}
}
