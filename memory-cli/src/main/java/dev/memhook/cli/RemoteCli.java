package dev.memhook.cli;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;

/**
 * The client half of {@code memhook search/list/show/stats/export/forget} when a {@code memhook
 * serve} runs for the same store directory: sends the command line to its {@code POST /cli} ({@link
 * CliEndpoint}), which runs it on the server's open store, and prints what it answers, so that the
 * command needs neither the store opened nor the model loaded in this process.
 *
 * <p>{@link MemhookCli#main} asks it first, before picocli builds its command tree: it loads only
 * JDK classes and the few small ones of this package it needs ({@link StoreDirectory}, {@link
 * ServeFiles}, {@link FlatJson}), and speaks HTTP/1.1 over a plain socket, which loads the fewest
 * classes of the JDK's three HTTP clients (benchmarks/RESULTS.md, section 18). The directory is
 * resolved by {@link StoreDirectory}, the commands' own rule, from {@code --dir} as picocli would
 * read it.
 *
 * <p>When it does not apply it returns empty and the command runs in this process, as without a
 * server: silently when the command is not one of {@link #COMMANDS}, no live server owns the
 * directory ({@link ServeFiles#running}), or the command must run here (it names a file of the
 * client or options the server's store cannot take); with one line on standard error when the
 * server runs another version, refuses the request, or cannot be reached. Questions ({@code forget}
 * without {@code --yes}) are asked on this process's terminal and answered to the server, as {@link
 * CliEndpoint} describes.
 *
 * <p>Stateless and thread-safe if the context's streams are.
 */
final class RemoteCli {
  /**
   * The commands a server runs: those that only need the open store and read no file of the client.
   * {@code import} reads a file; {@code compact} and {@code doctor} are about the store's files,
   * which they read with no server in the way; {@code hook}, {@code mcp}, {@code serve} and {@code
   * install} are the agent's side or the server itself.
   */
  static final Set<String> COMMANDS = Set.of("stats", "list", "show", "search", "export", "forget");

  /** The environment variables a command run in the server sees: {@code forget}'s actor. */
  static final List<String> FORWARDED_ENV = List.of("USER");

  /** How long connecting to the server may take: it is on this machine. */
  private static final int CONNECT_MILLIS = 1000;

  /**
   * How long an export may run in the server before the client gives up on it: a large store's
   * export is the longest a served command takes.
   */
  static final Duration EXPORT_ANSWER = Duration.ofMinutes(10);

  /**
   * How long any other served command may take to answer: a working server answers them from its
   * open store in well under a second, so a server that takes this long is hung (stopped, or stuck
   * in a pause), and the command runs here instead of waiting as long as an export may.
   */
  static final Duration COMMAND_ANSWER = Duration.ofSeconds(30);

  /** How many questions one run answers: forget asks two; more means the store keeps changing. */
  private static final int MAX_QUESTIONS = 8;

  private RemoteCli() {}

  /**
   * Runs {@code memhook args} through the directory's server, and returns its exit status; empty
   * when the command is to run in this process instead.
   */
  static OptionalInt run(String[] args, CliContext context, String version) {
    return run(args, context, version, RemoteCli::answerTime);
  }

  /**
   * {@link #run(String[], CliContext, String)}, waiting for each answer as long as {@code
   * answerTime} gives for the command's name.
   */
  static OptionalInt run(
      String[] args, CliContext context, String version, Function<String, Duration> answerTime) {
    if (args.length == 0 || !COMMANDS.contains(args[0])) {
      return OptionalInt.empty();
    }
    if (!plain(args)) {
      return OptionalInt.empty(); // picocli reads the @file, or says what is wrong
    }
    Path dir = StoreDirectory.resolve(dirArgument(args).orElse(null), context.env());
    Optional<ServeFiles.Running> running;
    try {
      running = new ServeFiles(dir.toAbsolutePath()).running();
    } catch (IOException e) {
      return OptionalInt.empty();
    }
    if (running.isEmpty()) {
      return OptionalInt.empty();
    }
    ServeFiles.Running server = running.get();
    String who = "memhook serve (pid " + server.pid() + ")";
    if (!server.version().equals(version)) {
      return fallBack(context, who + " runs version " + server.version() + ", this is " + version);
    }
    try {
      return converse(args, context, version, dir, server, who, answerTime.apply(args[0]));
    } catch (IOException | IllegalArgumentException e) {
      return fallBack(context, who + " did not answer (" + e.getMessage() + ")");
    }
  }

  private static OptionalInt converse(
      String[] args,
      CliContext context,
      String version,
      Path dir,
      ServeFiles.Running server,
      String who,
      Duration answerTime)
      throws IOException {
    List<String> env = new ArrayList<>();
    for (String name : FORWARDED_ENV) {
      String value = context.env().get(name);
      if (value != null) {
        env.add(name + "=" + value);
      }
    }
    List<String> answers = new ArrayList<>();
    List<String> shown = new ArrayList<>();
    StringBuilder printedErr = new StringBuilder();
    while (true) {
      Map<String, Object> request = new LinkedHashMap<>();
      request.put("version", version);
      request.put("cwd", Path.of("").toAbsolutePath().toString());
      request.put("dir", dir.toString());
      request.put("args", List.of(args));
      request.put("env", env);
      request.put("interactive", context.terminal().interactive());
      request.put("answers", answers);
      request.put("shown", shown);
      Answer answer = post(server, FlatJson.write(request), answerTime);
      if (answer.status() != 200) {
        return fallBack(
            context,
            who + " refused the command (" + answer.status() + " " + answer.text("error") + ")");
      }
      if (answer.body().get("local") instanceof String) {
        return OptionalInt.empty();
      }
      if (answer.body().get("ask") instanceof String prompt) {
        if (answers.size() == MAX_QUESTIONS) {
          throw new IOException("over " + MAX_QUESTIONS + " questions: the store keeps changing");
        }
        String before = answer.text("err");
        context.err().print(before);
        context.err().flush();
        printedErr.append(before);
        String reply = context.terminal().readLine(prompt);
        answers.add(reply == null ? "" : reply); // both mean no
        shown.add(before + prompt);
        continue;
      }
      if (!(answer.body().get("exit") instanceof Long exit)) {
        throw new IOException("an answer without an exit status");
      }
      context.out().print(answer.text("out"));
      context.out().flush();
      String err = answer.text("err");
      // the standard error shown before the questions is the start of the whole run's
      context
          .err()
          .print(err.startsWith(printedErr.toString()) ? err.substring(printedErr.length()) : err);
      context.err().flush();
      return OptionalInt.of(exit.intValue());
    }
  }

  /**
   * Whether {@link #dirArgument} reads all that picocli would: no {@code @file} (picocli expands
   * it) and no {@code --dir} without a value.
   */
  static boolean plain(String[] args) {
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--")) {
        return true;
      }
      if (args[i].startsWith("@") || (args[i].equals("--dir") && i + 1 == args.length)) {
        return false;
      }
      if (args[i].equals("--dir")) {
        i++; // its value may start with @
      }
    }
    return true;
  }

  /**
   * The {@code --dir} argument as picocli reads it: {@code --dir X} or {@code --dir=X}, the last
   * one, none after {@code --}; empty if none.
   */
  static Optional<Path> dirArgument(String[] args) {
    String dir = null;
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) {
        break;
      }
      if (a.equals("--dir") && i + 1 < args.length) {
        dir = args[++i];
      } else if (a.startsWith("--dir=")) {
        dir = a.substring("--dir=".length());
      }
    }
    return dir == null ? Optional.empty() : Optional.of(Path.of(dir));
  }

  private static OptionalInt fallBack(CliContext context, String why) {
    context.err().println("memhook: " + why + "; running the command in this process");
    return OptionalInt.empty();
  }

  /** A server's answer: its status and flat JSON body. */
  private record Answer(int status, Map<String, Object> body) {
    String text(String key) {
      return body.get(key) instanceof String s ? s : "";
    }
  }

  /** How long the server may take to answer {@code command}. */
  static Duration answerTime(String command) {
    return command.equals("export") ? EXPORT_ANSWER : COMMAND_ANSWER;
  }

  /**
   * {@code POST /cli} with {@code json}, over HTTP/1.1 on a plain socket, waiting for each read at
   * most {@code answerTime}.
   */
  private static Answer post(ServeFiles.Running server, String json, Duration answerTime)
      throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    InetAddress loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(loopback, server.port()), CONNECT_MILLIS);
      socket.setSoTimeout(Math.toIntExact(answerTime.toMillis()));
      OutputStream out = new BufferedOutputStream(socket.getOutputStream());
      String head =
          "POST /cli HTTP/1.1\r\nHost: 127.0.0.1:"
              + server.port()
              + "\r\nAuthorization: Bearer "
              + server.token()
              + "\r\nContent-Type: application/json\r\nContent-Length: "
              + body.length
              + "\r\nConnection: close\r\n\r\n";
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      String status = line(in);
      String[] parts = status.split(" ", 3);
      if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
        throw new IOException("not an HTTP answer: " + status);
      }
      int code;
      try {
        code = Integer.parseInt(parts[1]);
      } catch (NumberFormatException e) {
        throw new IOException("not an HTTP status: " + status, e);
      }
      long length = -1;
      for (String h = line(in); !h.isEmpty(); h = line(in)) {
        int colon = h.indexOf(':');
        String name = colon < 0 ? h : h.substring(0, colon).trim();
        if (name.equalsIgnoreCase("Content-Length")) {
          length = Long.parseLong(h.substring(colon + 1).trim());
        } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
          throw new IOException("a chunked answer; the server sends its length");
        }
      }
      if (length < 0 || length > Integer.MAX_VALUE - 8) {
        throw new IOException("an answer without a usable Content-Length");
      }
      byte[] payload = in.readNBytes((int) length);
      if (payload.length != length) {
        throw new IOException("the answer was cut after " + payload.length + " bytes");
      }
      return new Answer(code, FlatJson.read(new String(payload, StandardCharsets.UTF_8)));
    }
  }

  /** One header line, without its CRLF. */
  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new IOException("the connection closed in the answer's head");
      }
      if (c != '\r') {
        b.write(c);
      }
      if (b.size() > 64 * 1024) {
        throw new IOException("an answer's head line over 64 KiB");
      }
    }
    return b.toString(StandardCharsets.ISO_8859_1);
  }
}
