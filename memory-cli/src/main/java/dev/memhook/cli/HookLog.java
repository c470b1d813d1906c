package dev.memhook.cli;

import dev.memhook.core.Redaction;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Objects;

/**
 * Where {@code memhook hook} reports what went wrong, since it never fails the agent's step:
 * standard error (which agents show in a verbose or debug view) and {@code <store>/}{@value #FILE},
 * appended; and, in the file only, what it did that is no problem (how much of the context budget
 * an answer used). A failure to write the file is ignored: the report is best effort. The file is
 * bounded: once it holds {@link #MAX_BYTES}, it becomes {@value #PREVIOUS} (replacing the one
 * before) and a new file starts, so the log keeps the latest one to two mebibytes of reports.
 *
 * <p>Every message is redacted first, with the store's rules, on both streams: a message may quote
 * the payload (an unknown event name, a path that is no path, a capture error), and the log is kept
 * on the disk. Its control characters, line breaks among them, are then written as escapes, so a
 * quoted payload can neither forge a line of the log nor drive the terminal that shows it. A
 * message the redaction fails on is replaced by a fixed one. Callers still never pass a whole
 * payload.
 */
final class HookLog {
  static final String FILE = "hook.log";

  /** The name the full log takes when a new one starts. */
  static final String PREVIOUS = "hook.log.1";

  /**
   * The size at which the log starts anew. An answer appends a line of its budget each time, so a
   * log left to grow would take megabytes a year of a coding agent's use.
   */
  static final long MAX_BYTES = 1L << 20;

  private final PrintStream err;
  private final Path file;
  private final Redaction redaction;

  HookLog(PrintStream err, Path storeDirectory, Redaction redaction) {
    this.err = Objects.requireNonNull(err, "err");
    this.file = storeDirectory.resolve(FILE);
    this.redaction = Objects.requireNonNull(redaction, "redaction");
  }

  /** Reports a problem, on standard error and in the file. */
  void warn(String message) {
    String line = line(message);
    err.println(line);
    append(line);
  }

  /**
   * Records, in the file only, what a run did that its owner may want to know (how much of its
   * context budget an answer used): it is no problem, and agents show a hook's standard error as
   * one.
   */
  void info(String message) {
    append(line(message));
  }

  /** One line, whatever the message quotes: its control characters written as escapes. */
  private String line(String message) {
    return Instant.now() + " memhook hook: " + ControlEscapes.oneLine(redacted(message));
  }

  private void append(String line) {
    try {
      Files.createDirectories(file.getParent());
      startAnewIfFull();
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

  /**
   * Moves a full log aside. Two processes may both find it full; the second move replaces the
   * first's new file, which held their few lines: best effort, as the rest of the log.
   */
  private void startAnewIfFull() {
    try {
      if (Files.size(file) >= MAX_BYTES) {
        Files.move(file, file.resolveSibling(PREVIOUS), StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      // no log yet, or another process moved it first: append to what is there
    }
  }

  private String redacted(String message) {
    try {
      return redaction.redact(message);
    } catch (IllegalArgumentException e) {
      return "a problem whose report could not be redacted (" + e.getMessage() + ")";
    }
  }
}
