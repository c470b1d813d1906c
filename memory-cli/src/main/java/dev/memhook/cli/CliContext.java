package dev.memhook.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a run of {@code memhook} talks to: its standard streams, its environment and its terminal,
 * so that tests run commands in process. Immutable; every component is non-null.
 *
 * @param in standard input
 * @param out standard output: results
 * @param err standard error: messages, progress
 * @param env the environment ({@code MEMHOOK_DIR}, {@code USER})
 * @param terminal where to ask for confirmation
 * @param served the store of the {@code memhook serve} that runs the command for a client ({@link
 *     CliEndpoint}), which the command uses instead of opening one; empty in the user's own process
 */
record CliContext(
    InputStream in,
    PrintStream out,
    PrintStream err,
    Map<String, String> env,
    Terminal terminal,
    Optional<ServedStore> served) {

  CliContext {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
    env = Map.copyOf(Objects.requireNonNull(env, "env"));
    Objects.requireNonNull(terminal, "terminal");
    Objects.requireNonNull(served, "served");
  }

  /** A context in the user's own process: commands open the store themselves. */
  CliContext(
      InputStream in,
      PrintStream out,
      PrintStream err,
      Map<String, String> env,
      Terminal terminal) {
    this(in, out, err, env, terminal, Optional.empty());
  }

  /** The process's own, printing through {@link #escaping}. */
  static CliContext system() {
    return escaping(System.in, System.out, System.err, System.getenv(), Terminal.system());
  }

  /**
   * A context whose {@code out} and {@code err} write control characters as visible escapes ({@link
   * ControlEscapes}; {@code err} keeps carriage returns for its progress line).
   */
  static CliContext escaping(
      InputStream in,
      PrintStream out,
      PrintStream err,
      Map<String, String> env,
      Terminal terminal) {
    return new CliContext(
        in, ControlEscapes.around(out, false), ControlEscapes.around(err, true), env, terminal);
  }
}
