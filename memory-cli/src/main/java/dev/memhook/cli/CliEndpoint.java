package dev.memhook.cli;

import com.sun.net.httpserver.HttpExchange;
import dev.memhook.api.MemoryService;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code POST /cli} of {@code memhook serve}: runs a {@code memhook} command for a client ({@link
 * RemoteCli}) in the server's process, on its open store, with the same picocli command tree a
 * local run builds, and answers what it printed and returned; so the output is the local output by
 * construction. The request and the answers are flat JSON ({@link FlatJson}):
 *
 * <pre>
 * request  {"version":"…","cwd":"/home/alice/shop","dir":"memhook-data","args":["search","tabs"],
 *           "env":["USER=alice"],"interactive":true,"answers":["y"],"shown":["…"]}
 * answer   {"exit":0,"out":"…","err":"…"}     the command ran
 *          {"ask":"Forget …? [y/N] ","err":"…"} it asks a question the client must put to its user
 *          {"local":"why"}                     it must run in the client's process (a file of the
 *                                              client, options the served store cannot take)
 * </pre>
 *
 * Only the commands of {@link RemoteCli#COMMANDS} run here, only {@link RemoteCli#FORWARDED_ENV}
 * reaches them, and no {@code @file} argument (picocli would read it here). A request of another
 * version or for another directory is refused with 409, a malformed one with 400, so the client
 * runs the command itself.
 *
 * <p>Questions: a command's terminal here answers from {@code answers}, the i-th answer only if
 * what the command printed to standard error since the previous question, followed by the i-th
 * question, is exactly {@code shown[i]}, what the user saw when answering. A question without such
 * an answer ends the run (nothing forgotten: {@code forget} asks before it changes anything) and is
 * sent to the client, with the standard error before it; the client asks its user on its own
 * terminal and repeats the request with one more answer. If the store changed in between so that
 * the command shows something else, the new question is sent instead of taking the old answer.
 *
 * <p>Thread-safe: each request runs its own command objects on the shared, thread-safe service.
 */
final class CliEndpoint {
  /** The largest request read: arguments, answers and the text shown with them. */
  static final int MAX_REQUEST_BYTES = 1 << 20;

  private final Path directory;
  private final MemoryService memory;
  private final String version;

  CliEndpoint(Path directory, MemoryService memory, String version) {
    this.directory = Objects.requireNonNull(directory, "directory");
    this.memory = Objects.requireNonNull(memory, "memory");
    this.version = Objects.requireNonNull(version, "version");
  }

  /** Answers one exchange whose client the server has admitted and authorized. */
  void handle(HttpExchange x) throws IOException {
    if (!x.getRequestMethod().equals("POST")) {
      respond(x, 405, Map.of("error", "POST a command to /cli"));
      return;
    }
    byte[] body;
    try (InputStream in = x.getRequestBody()) {
      body = in.readNBytes(MAX_REQUEST_BYTES + 1);
    }
    if (body.length > MAX_REQUEST_BYTES) {
      respond(x, 413, Map.of("error", "the request is over " + MAX_REQUEST_BYTES + " bytes"));
      return;
    }
    Request request;
    try {
      request = Request.of(FlatJson.read(new String(body, StandardCharsets.UTF_8)));
    } catch (IllegalArgumentException e) {
      respond(x, 400, Map.of("error", e.getMessage()));
      return;
    }
    Optional<Refusal> refused = refusal(request);
    if (refused.isPresent()) {
      respond(x, refused.get().status(), Map.of("error", refused.get().message()));
      return;
    }
    respond(x, 200, run(request));
  }

  /** Why a request is not run, and its HTTP status: 409 for a conflict, 400 for a bad request. */
  private record Refusal(int status, String message) {}

  /** Why {@code request} is not run here, if it is not. */
  private Optional<Refusal> refusal(Request request) throws IOException {
    if (!request.version().equals(version)) {
      return Optional.of(
          new Refusal(
              409, "the server runs memhook " + version + ", the client " + request.version()));
    }
    Path asked = Path.of(request.cwd()).resolve(request.dir());
    if (!Files.exists(asked) || !Files.isSameFile(asked, directory)) {
      return Optional.of(
          new Refusal(409, "the server serves " + directory.toAbsolutePath() + ", not " + asked));
    }
    List<String> args = request.args();
    if (args.isEmpty() || !RemoteCli.COMMANDS.contains(args.get(0))) {
      return Optional.of(
          new Refusal(
              400,
              "memhook "
                  + (args.isEmpty() ? "" : args.get(0))
                  + " does not run through the server; it runs "
                  + String.join(", ", RemoteCli.COMMANDS.stream().sorted().toList())));
    }
    if (args.stream().anyMatch(a -> a.startsWith("@"))) {
      return Optional.of(
          new Refusal(400, "arguments from @files are read by the client, not the server"));
    }
    return Optional.empty();
  }

  private Map<String, Object> run(Request request) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
    Replay terminal = new Replay(request, err, errStream);
    ServedStore served = new ServedStore(directory, Path.of(request.dir()), memory);
    CliContext context =
        new CliContext(
            InputStream.nullInputStream(),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            errStream,
            request.env(),
            terminal,
            Optional.of(served));
    int exit = MemhookCli.run(request.args().toArray(String[]::new), context);
    Map<String, Object> answer = new LinkedHashMap<>();
    if (terminal.pending != null) {
      answer.put("ask", terminal.pending);
      answer.put("err", terminal.pendingErr);
    } else if (served.declined().isPresent()) {
      answer.put("local", served.declined().get());
    } else {
      answer.put("exit", exit);
      answer.put("out", out.toString(StandardCharsets.UTF_8));
      answer.put("err", err.toString(StandardCharsets.UTF_8));
    }
    return answer;
  }

  private static void respond(HttpExchange x, int status, Map<String, ?> body) throws IOException {
    byte[] bytes = FlatJson.write(body).getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", "application/json");
    x.sendResponseHeaders(status, bytes.length);
    try (OutputStream o = x.getResponseBody()) {
      o.write(bytes);
    }
  }

  /** What a client asks, checked for shape. */
  private record Request(
      String version,
      String cwd,
      String dir,
      List<String> args,
      Map<String, String> env,
      boolean interactive,
      List<String> answers,
      List<String> shown) {

    static Request of(Map<String, Object> n) {
      List<String> answers = strings(n, "answers");
      List<String> shown = strings(n, "shown");
      if (answers.size() != shown.size()) {
        throw new IllegalArgumentException("answers and shown must be as long as each other");
      }
      Map<String, String> env = new HashMap<>();
      for (String pair : strings(n, "env")) {
        int eq = pair.indexOf('=');
        if (eq > 0 && RemoteCli.FORWARDED_ENV.contains(pair.substring(0, eq))) {
          env.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
      }
      return new Request(
          text(n, "version"),
          text(n, "cwd"),
          text(n, "dir"),
          strings(n, "args"),
          env,
          Boolean.TRUE.equals(n.get("interactive")),
          answers,
          shown);
    }

    private static String text(Map<String, Object> n, String key) {
      if (n.get(key) instanceof String s) {
        return s;
      }
      throw new IllegalArgumentException(key + " must be a string");
    }

    @SuppressWarnings("unchecked") // FlatJson reads arrays as lists of strings only
    private static List<String> strings(Map<String, Object> n, String key) {
      Object v = n.get(key);
      if (v == null) {
        return List.of();
      }
      if (v instanceof List<?>) {
        return (List<String>) v;
      }
      throw new IllegalArgumentException(key + " must be an array of strings");
    }
  }

  /**
   * The terminal of a command run here: answers the questions the client's user has answered, and
   * stops at the first other one.
   */
  private static final class Replay implements Terminal {
    private final Request request;
    private final ByteArrayOutputStream err;
    private final PrintStream errStream;
    private int asked;
    private int errShown;
    String pending;
    String pendingErr;

    Replay(Request request, ByteArrayOutputStream err, PrintStream errStream) {
      this.request = request;
      this.err = err;
      this.errStream = errStream;
    }

    @Override
    public boolean interactive() {
      return request.interactive();
    }

    @Override
    public String readLine(String prompt) {
      if (!request.interactive()) {
        throw new IllegalStateException("no terminal to ask on");
      }
      errStream.flush();
      byte[] all = err.toByteArray();
      String before = new String(all, errShown, all.length - errShown, StandardCharsets.UTF_8);
      errShown = all.length;
      int i = asked++;
      if (i < request.answers().size() && request.shown().get(i).equals(before + prompt)) {
        return request.answers().get(i);
      }
      pending = prompt;
      pendingErr = before;
      throw new CliException(ExitCode.NOT_CONFIRMED, "asked the client's user: " + prompt);
    }
  }
}
