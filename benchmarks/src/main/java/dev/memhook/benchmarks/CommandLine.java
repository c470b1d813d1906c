package dev.memhook.benchmarks;

import java.util.function.Function;

/**
 * How the harnesses' {@code main} methods read their arguments: a usage error is printed to {@code
 * System.err} and ends the process with status 2, so a mistyped option never surfaces as a stack
 * trace or runs with a default the user did not ask for. Stateless.
 */
public final class CommandLine {

  private CommandLine() {}

  /**
   * {@code parse} applied to {@code args}; if it throws an {@link IllegalArgumentException}, its
   * message goes to {@code System.err} and the process exits with status 2 (this never returns
   * then).
   */
  public static <T> T parseOrExit(Function<String[], T> parse, String[] args) {
    try {
      return parse.apply(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      throw new AssertionError("System.exit returned", e);
    }
  }
}
