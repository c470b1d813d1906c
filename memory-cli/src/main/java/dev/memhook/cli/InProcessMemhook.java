package dev.memhook.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * Runs the {@code memhook} command in this JVM, with standard input from a string and its output
 * captured, without {@link System#exit}: what the benchmarks need to ask {@code memhook hook} as a
 * coding agent would, hundreds of times, without a JVM start per call.
 *
 * <p>Not an API: the command's contract is its command line and its JSON. The module exports this
 * package to the benchmarks module only, which is why this class is public. Stateless and
 * thread-safe if the command run is.
 */
public final class InProcessMemhook {

  private InProcessMemhook() {}

  /**
   * What one run printed and returned.
   *
   * @param exitCode the exit status
   * @param out standard output
   * @param err standard error
   */
  public record Result(int exitCode, String out, String err) {}

  /**
   * Runs {@code memhook args} with {@code stdin} on standard input and {@code env} as its
   * environment (for {@code MEMHOOK_DIR}, say), never a terminal.
   */
  public static Result run(Map<String, String> env, String stdin, String... args) {
    Objects.requireNonNull(stdin, "stdin");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CliContext context =
        new CliContext(
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            env,
            Terminal.NONE);
    int code = MemhookCli.run(args.clone(), context);
    return new Result(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
