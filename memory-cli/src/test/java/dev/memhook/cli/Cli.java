package dev.memhook.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/** Runs {@code memhook} in process against one store directory and captures what it printed. */
final class Cli {
  private final Path dir;

  Cli(Path dir) {
    this.dir = dir;
  }

  /** What one run printed and returned, and the questions it asked on the terminal, in turn. */
  record Result(int code, String out, String err, List<String> prompts) {}

  Result run(String... args) {
    return run(Terminal.NONE, "", args);
  }

  /** A run whose terminal answers {@code answers} in turn. */
  Result withTerminal(List<String> answers, String... args) {
    Deque<String> left = new ArrayDeque<>(answers);
    List<String> asked = new ArrayList<>();
    Terminal t =
        new Terminal() {
          @Override
          public boolean interactive() {
            return true;
          }

          @Override
          public String readLine(String prompt) {
            asked.add(prompt);
            return left.poll();
          }
        };
    return run(t, "", asked, Map.of(), args);
  }

  Result withStdin(String stdin, String... args) {
    return run(Terminal.NONE, stdin, args);
  }

  /** A run with {@code stdin} whose environment also holds {@code env}. */
  Result withStdinAndEnv(String stdin, Map<String, String> env, String... args) {
    return run(Terminal.NONE, stdin, List.of(), env, args);
  }

  private Result run(Terminal terminal, String stdin, String... args) {
    return run(terminal, stdin, List.of(), Map.of(), args);
  }

  private Result run(
      Terminal terminal,
      String stdin,
      List<String> asked,
      Map<String, String> env,
      String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CliContext context =
        new CliContext(
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            environment(env),
            terminal);
    int code = MemhookCli.run(args, context);
    return new Result(
        code,
        out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8),
        List.copyOf(asked));
  }

  private Map<String, String> environment(Map<String, String> extra) {
    Map<String, String> env = new java.util.HashMap<>(extra);
    env.put(StoreArguments.DIR_VARIABLE, dir.toString());
    env.put("USER", "tester");
    return env;
  }
}
