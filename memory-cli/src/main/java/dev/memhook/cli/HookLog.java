package dev.memhook.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Where {@code memhook hook} reports what went wrong, since it never fails the agent's step:
 * standard error (which agents show in a verbose or debug view) and {@code <store>/}{@value #FILE},
 * appended. A failure to write the file is ignored: the report is best effort.
 */
final class HookLog {
  static final String FILE = "hook.log";

  private final PrintStream err;
  private final Path file;

  HookLog(PrintStream err, Path storeDirectory) {
    this.err = err;
    this.file = storeDirectory.resolve(FILE);
  }

  void warn(String message) {
    String line = Instant.now() + " memhook hook: " + message;
    err.println(line);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(
          file,
          line + System.lineSeparator(),
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException | RuntimeException e) {
      // best effort: stderr has it
    }
  }
}
