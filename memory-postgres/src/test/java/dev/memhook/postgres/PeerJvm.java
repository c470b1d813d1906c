package dev.memhook.postgres;

import static org.junit.jupiter.api.Assertions.fail;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A second JVM running {@link PeerProcess} on one schema, driven over its pipes: each method sends
 * one command and waits for its one-line answer at most {@link #REPLY_TIMEOUT}, so a hung or dead
 * child fails the test instead of hanging it. The child's stderr is copied to this JVM's stderr,
 * each line prefixed {@code [peer]}, so its stack traces show in the test's output.
 *
 * <p>{@link #close()} asks the child to quit and destroys it if it does not; it is idempotent and
 * never throws, so a test calls it from {@code @AfterEach} whatever happened. Not thread-safe: one
 * test thread drives it.
 */
final class PeerJvm implements AutoCloseable {
  /** How long the child may take to start its JVM and open its service, on a loaded machine. */
  static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  /** How long one command may take to answer; far above a healthy answer, it bounds a hang. */
  static final Duration REPLY_TIMEOUT = Duration.ofSeconds(20);

  /** Marks the end of the child's stdout in the queue of its lines. */
  private static final String END_OF_STREAM = "\u0000eof";

  private final Process process;
  private final Writer commands;
  private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
  private boolean closed;

  private PeerJvm(Process process) {
    this.process = process;
    this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    pump("peer-stdout", process.getInputStream(), replies::add, () -> replies.add(END_OF_STREAM));
    pump("peer-stderr", process.getErrorStream(), l -> System.err.println("[peer] " + l), () -> {});
  }

  /**
   * Starts {@link PeerProcess} on {@code schema} with this JVM's {@code java} and class path and
   * environment (so the child sees the same database URL), and waits until its service is open.
   */
  static PeerJvm start(String schema) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder builder =
        new ProcessBuilder(
            java,
            "-Xmx256m",
            "-XX:+UseSerialGC",
            // a short-lived helper: C1 only starts faster and competes less for two cores
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            PeerProcess.class.getName(),
            schema);
    PeerJvm peer = new PeerJvm(builder.start());
    try {
      peer.expect("ready", START_TIMEOUT, "start");
    } catch (RuntimeException | Error e) {
      peer.close();
      throw e;
    }
    return peer;
  }

  /** Remembers {@code text} in {@code scope} through the child; the new memory's id. */
  MemoryId remember(Scope scope, String text) {
    return MemoryId.of(call("remember " + scope.value() + " " + oneLine(text)).get(0));
  }

  /** The ids the child recalls for {@code query} in {@code scope}, best first. */
  List<MemoryId> recall(Scope scope, String query) {
    List<MemoryId> out = new ArrayList<>();
    for (String id : call("recall " + scope.value() + " " + oneLine(query))) {
      out.add(MemoryId.of(id));
    }
    return out;
  }

  /** Forgets {@code id} through the child; whether anything was forgotten. */
  boolean forget(MemoryId id) {
    List<String> answer = call("forget " + id.value());
    return Boolean.parseBoolean(answer.get(0));
  }

  /** Sends {@code command}; the words of its {@code ok} answer, or fails the test. */
  private List<String> call(String command) {
    send(command);
    String reply = expect(null, REPLY_TIMEOUT, command);
    if (!reply.equals("ok") && !reply.startsWith("ok ")) {
      fail("the peer answered '" + command + "' with: " + reply);
    }
    String words = reply.substring(2).strip();
    return words.isEmpty() ? List.of() : List.of(words.split(" "));
  }

  private void send(String command) {
    try {
      commands.write(command + "\n");
      commands.flush();
    } catch (IOException e) {
      fail("could not send '" + command + "' to the peer (" + status() + ")", e);
    }
  }

  /** The next line, which must equal {@code expected} if that is not null. */
  private String expect(String expected, Duration timeout, String what) {
    String line;
    try {
      line = replies.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting for the peer's answer to '" + what + "'", e);
    }
    if (line == null) {
      fail("the peer did not answer '" + what + "' within " + timeout + " (" + status() + ")");
    }
    if (line.equals(END_OF_STREAM)) {
      fail("the peer closed its output before answering '" + what + "' (" + status() + ")");
    }
    if (expected != null && !line.equals(expected)) {
      fail("the peer answered '" + what + "' with '" + line + "', expected '" + expected + "'");
    }
    return line;
  }

  private String status() {
    Optional<Integer> exit =
        process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
    return exit.map(code -> "exited with status " + code).orElse("still running");
  }

  /** Asks the child to quit, waits briefly, then destroys it; idempotent, never throws. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (process.isAlive()) {
        commands.write("quit\n");
        commands.flush();
        commands.close();
      }
    } catch (IOException e) {
      // the child is gone or not reading: destroyed below either way
    }
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static String oneLine(String text) {
    if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("the protocol sends one line; got: " + text);
    }
    return text;
  }

  /** Copies {@code in}'s lines to {@code sink} on a daemon thread, then runs {@code atEnd}. */
  private static void pump(String name, InputStream in, Consumer<String> sink, Runnable atEnd) {
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                  sink.accept(line);
                }
              } catch (IOException e) {
                // the child went away; atEnd tells the reader
              } finally {
                atEnd.run();
              }
            },
            name);
    t.setDaemon(true);
    t.start();
  }
}
