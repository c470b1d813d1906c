package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI through a running server ({@link RemoteCli} to {@link CliEndpoint}), in process on a real
 * loopback socket: every served command prints and returns what it does locally, the client runs
 * the command itself (with a note) when the server cannot answer for it, and {@code forget} asks
 * its questions on the client's terminal.
 */
class RemoteCliTest {
  private static final String TOKEN = "ab".repeat(32);
  private static final String VERSION = "test";

  @TempDir Path dir;
  @TempDir Path copies;
  private TestStore.Seeded seeded;
  private MemoryService memory;
  private HookServer server;
  private Process owner;

  @BeforeEach
  void seed() {
    seeded = TestStore.seed(dir);
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null) {
      server.close();
      memory.close();
    }
    if (owner != null) {
      owner.destroyForcibly();
      owner.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** What a run printed, returned and asked. */
  record Run(int code, String out, String err, List<String> prompts, boolean served) {}

  /**
   * Each served command against the same command run in this process, which opens the store
   * read-only beside the server, as it does without this feature; forget, which cannot run beside
   * the server, against a run on a copy of the store made before the server opened it.
   */
  @Test
  void everyServedCommand_printsAndReturnsWhatItDoesLocally() throws Exception {
    String tabs = seeded.tabs().id().value();
    List<List<String>> forgets =
        List.of(
            List.of("forget", "--yes", "--memory-only", tabs),
            List.of("forget", "--yes", "--json", "--scope", "acme/bob"),
            List.of("forget", "--yes", "mem_doesnotexist0000000000"));
    Path copy = copies.resolve("copy");
    copy(dir, copy);
    List<Run> forgotLocally = new ArrayList<>();
    for (List<String> args : forgets) {
      forgotLocally.add(here(copy, List.of(), args.toArray(String[]::new)));
    }
    serve();
    List<List<String>> commands =
        List.of(
            List.of("stats"),
            List.of("stats", "--json"),
            List.of("list"),
            List.of("list", "--all-versions", "--json"),
            List.of("list", "--scope", "acme/alice", "--limit", "1"),
            List.of("list", "--since", "2026-11-30T10:01:30Z", "--type", "fact"),
            List.of("show", tabs),
            List.of("show", "--json", seeded.timeoutV2().id().value()),
            List.of("show", "mem_doesnotexist0000000000"),
            List.of("search", "--scope", "acme/alice", "gateway", "timeout"),
            List.of("search", "--json", "--scope", "acme/alice", "tabs"),
            List.of("search", "--limit", "0", "x"),
            List.of("export"),
            List.of("list", "--no-such-option"),
            List.of("show"),
            List.of("search", "--help"));
    for (List<String> args : commands) {
      String[] a = args.toArray(String[]::new);
      assertSame(here(dir, List.of(), a), run(dir, List.of(), a), args);
    }
    for (int i = 0; i < forgets.size(); i++) {
      List<String> args = forgets.get(i);
      assertSame(forgotLocally.get(i), run(dir, List.of(), args.toArray(String[]::new)), args);
    }
  }

  private static void assertSame(Run local, Run served, List<String> args) {
    assertTrue(served.served(), "through the server: " + args);
    assertEquals(local.code(), served.code(), "exit of " + args + ": " + served.err());
    assertEquals(local.out(), served.out(), "stdout of " + args);
    assertEquals(local.err(), served.err(), "stderr of " + args);
  }

  @Test
  void forgetThroughTheServer_forgetsWhileTheServerHoldsTheStore_whichALocalForgetCannot()
      throws Exception {
    serve();
    String tabs = seeded.tabs().id().value();
    // the command's own path, with the server's lock held: refused
    Run local = here(dir, List.of(), "forget", "--yes", tabs);
    assertEquals(ExitCode.STORE_UNAVAILABLE, local.code(), local.err());

    Run served = run(dir, List.of(), "forget", "--yes", tabs);
    assertTrue(served.served());
    assertEquals(ExitCode.OK, served.code(), served.err());
    assertEquals("forgotten " + tabs + "\n", served.out());
    assertEquals("1 id forgotten by tester\n", served.err());
    assertTrue(memory.get(seeded.tabs().id()).isEmpty(), "the server's store forgot it");
  }

  @Test
  void forgetWithoutYes_asksOnTheClientsTerminal_asLocally_andForgetsOnYes() throws Exception {
    String tabs = seeded.tabs().id().value();
    Path local = copies.resolve("local");
    copy(dir, local);
    Run expected = here(local, List.of("y"), "forget", tabs);
    serve();

    Run served = run(dir, List.of("y"), "forget", tabs);

    assertTrue(served.served());
    assertEquals(ExitCode.OK, served.code(), served.err());
    assertEquals(List.of("Forget this memory and its older versions? [y/N] "), served.prompts());
    assertEquals(expected.prompts(), served.prompts());
    assertEquals(expected.out(), served.out());
    assertEquals(expected.err(), served.err(), "the listing once, then the summary");
    assertTrue(served.err().startsWith("  " + tabs + "  acme/alice  Alice prefers tabs\n"));
    assertTrue(memory.get(seeded.tabs().id()).isEmpty());
  }

  @Test
  void forgetsTwoQuestions_theMemoryAndItsObservations_areBothAskedOnTheClient() throws Exception {
    TestStore.Consolidated c =
        TestStore.consolidate(dir, TestStore.ALICE, "s-tabs", "I prefer tabs over spaces.");
    String memoryId = c.memory().id().value();
    Path local = copies.resolve("local");
    copy(dir, local);
    Run expected = here(local, List.of("y", "n"), "forget", memoryId);
    serve();

    Run served = run(dir, List.of("y", "n"), "forget", memoryId);

    assertTrue(served.served());
    assertEquals(
        List.of(
            "Forget this memory and its older versions? [y/N] ",
            memoryId + " was made from 1 observation; forget it too? [y/N] "),
        served.prompts());
    assertEquals(expected.code(), served.code(), served.err());
    assertEquals(expected.out(), served.out());
    assertEquals(expected.err(), served.err());
    assertTrue(memory.get(c.memory().id()).isEmpty());
    assertTrue(memory.get(c.source().id()).isPresent(), "answered no: the observation stays");
  }

  @Test
  void forgetAnsweredNo_orWithoutATerminal_forgetsNothing_withTheLocalMessages() throws Exception {
    String tabs = seeded.tabs().id().value();
    Path local = copies.resolve("local");
    copy(dir, local);
    Run expectedNo = here(local, List.of("n"), "forget", tabs);
    Run expectedNone = here(local, null, "forget", tabs);
    serve();

    Run no = run(dir, List.of("n"), "forget", tabs);
    Run none = run(dir, null, "forget", tabs);

    assertEquals(ExitCode.NOT_CONFIRMED, no.code());
    assertEquals(expectedNo.err(), no.err());
    assertTrue(no.err().endsWith("memhook: not confirmed: nothing was forgotten\n"), no.err());
    assertEquals(ExitCode.NOT_CONFIRMED, none.code());
    assertEquals(expectedNone.err(), none.err());
    assertTrue(none.prompts().isEmpty());
    assertTrue(memory.get(seeded.tabs().id()).isPresent(), "nothing was forgotten");
  }

  @Test
  void anAnswerToWhatTheUserWasNotShown_isNotTaken_theQuestionComesBack() throws Exception {
    serve();
    String tabs = seeded.tabs().id().value();
    Map<String, Object> request = request("forget", tabs);
    request.put("interactive", true);
    request.put("answers", List.of("y"));
    request.put("shown", List.of("  mem_other  acme/alice  Something else\nForget? [y/N] "));

    Map<String, Object> answer = FlatJson.read(post(FlatJson.write(request), TOKEN).body());

    assertEquals("Forget this memory and its older versions? [y/N] ", answer.get("ask"));
    assertEquals("  " + tabs + "  acme/alice  Alice prefers tabs\n", answer.get("err"));
    assertTrue(memory.get(seeded.tabs().id()).isPresent(), "nothing was forgotten");
  }

  @Test
  void theEndpoint_refusesCommandsThatAreNotServed_argumentFiles_otherVersions_andNoToken()
      throws Exception {
    serve();
    for (String command : List.of("serve", "hook", "mcp", "install", "import", "doctor")) {
      HttpResponse<String> r = post(FlatJson.write(request(command, "stop")), TOKEN);
      assertEquals(400, r.statusCode(), command);
      assertTrue(r.body().contains("does not run through the server"), r.body());
    }
    HttpResponse<String> argFile = post(FlatJson.write(request("list", "@/etc/passwd")), TOKEN);
    assertEquals(400, argFile.statusCode());
    Map<String, Object> older = request("list");
    older.put("version", "0.0.1");
    assertEquals(409, post(FlatJson.write(older), TOKEN).statusCode());
    Map<String, Object> elsewhere = request("list");
    elsewhere.put("dir", copies.toString());
    assertEquals(409, post(FlatJson.write(elsewhere), TOKEN).statusCode());
    assertEquals(401, post(FlatJson.write(request("list")), "cd".repeat(32)).statusCode());
    assertEquals(
        200, post(FlatJson.write(request("list")), TOKEN).statusCode(), "the same, well formed");
  }

  @Test
  void aWrongToken_fallsBackToTheLocalRun_withOneNote() throws Exception {
    Run expected = runLocally(dir, "list");
    serve();
    announce(owner.pid(), server.port(), "cd".repeat(32), VERSION);

    Run r = run(dir, List.of(), "list");

    assertFalse(r.served());
    assertEquals(expected.out(), r.out());
    assertEquals(
        "memhook: memhook serve (pid "
            + owner.pid()
            + ") refused the command (401 missing or wrong token: send Authorization: Bearer"
            + " <serve.token>); running the command in this process\n"
            + expected.err(),
        r.err());
  }

  @Test
  void aServerThatDoesNotAnswer_fallsBackToTheLocalRun_withOneNote() throws Exception {
    Run expected = runLocally(dir, "list");
    owner = new ProcessBuilder("sleep", "600").start();
    int closedPort;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    announce(owner.pid(), closedPort, TOKEN, VERSION);

    Run r = run(dir, List.of(), "list");

    assertRanHereAfterNoAnswer(r, expected);
  }

  /** {@code r} ran in this process as {@code expected} did, after one note that none answered. */
  private void assertRanHereAfterNoAnswer(Run r, Run expected) {
    assertFalse(r.served());
    assertEquals(expected.out(), r.out());
    String[] lines = r.err().split("\n", 2);
    assertTrue(
        lines[0].startsWith("memhook: memhook serve (pid " + owner.pid() + ") did not answer ("),
        r.err());
    assertTrue(lines[0].endsWith("); running the command in this process"), r.err());
    assertEquals(expected.err(), lines[1]);
  }

  @Test
  void aServerThatTakesTheConnectionButNeverAnswers_fallsBackAfterTheCommandsAnswerTime()
      throws Exception {
    Run expected = runLocally(dir, "list");
    owner = new ProcessBuilder("sleep", "600").start();
    // a hung server: the kernel takes the connection into the backlog, nothing ever reads it
    try (java.net.ServerSocket hung = new java.net.ServerSocket(0)) {
      announce(owner.pid(), hung.getLocalPort(), TOKEN, VERSION);
      List<String> asked = new ArrayList<>();
      Run r =
          run(
              true,
              dir,
              List.of(),
              command -> {
                asked.add(command);
                return Duration.ofMillis(300);
              },
              "list");

      assertEquals(List.of("list"), asked, "the answer time is the command's");
      assertRanHereAfterNoAnswer(r, expected);
    }
  }

  @Test
  void onlyAnExport_waitsAsLongAsALargeStoreTakes() {
    assertEquals(RemoteCli.EXPORT_ANSWER, RemoteCli.answerTime("export"));
    for (String command : List.of("stats", "list", "show", "search", "forget")) {
      assertEquals(RemoteCli.COMMAND_ANSWER, RemoteCli.answerTime(command), command);
    }
    assertTrue(RemoteCli.COMMAND_ANSWER.compareTo(RemoteCli.EXPORT_ANSWER) < 0);
  }

  @Test
  void aServerOfAnotherVersion_fallsBackToTheLocalRun_withOneNote() throws Exception {
    Run expected = runLocally(dir, "list");
    serve();
    announce(owner.pid(), server.port(), TOKEN, "0.0.1");

    Run r = run(dir, List.of(), "list");

    assertFalse(r.served());
    assertEquals(
        "memhook: memhook serve (pid "
            + owner.pid()
            + ") runs version 0.0.1, this is test; running the command in this process\n"
            + expected.err(),
        r.err());
  }

  @Test
  void aDeadServersFile_orNoServer_runsLocallyWithoutANote() throws Exception {
    Run expected = runLocally(dir, "list");
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor(10, TimeUnit.SECONDS);
    announce(gone.pid(), 1, TOKEN, VERSION);

    Run r = run(dir, List.of(), "list");

    assertFalse(r.served());
    assertEquals(expected, r);
  }

  @Test
  void whatTheServedStoreCannotDo_runsInTheClient_silently() throws Exception {
    serve();
    Path file = copies.resolve("export.jsonl");

    Run export = run(dir, List.of(), "export", "-o", file.toString());
    Run tuned = run(dir, List.of(), "search", "--no-gate", "--scope", "acme/alice", "tabs");
    Run embedder = run(dir, List.of(), "list", "--embedder", "hashing");

    assertFalse(export.served());
    assertEquals(ExitCode.OK, export.code(), export.err());
    assertTrue(Files.readString(file).contains(seeded.tabs().id().value()));
    assertFalse(tuned.served());
    assertEquals(ExitCode.OK, tuned.code(), tuned.err());
    assertTrue(tuned.out().contains(seeded.tabs().id().value()), tuned.out());
    assertFalse(embedder.served());
    assertEquals(ExitCode.OK, embedder.code(), embedder.err());
  }

  @Test
  void secretsCapturedByTheServer_stayRedactedInWhatTheServedCommandsPrint() throws Exception {
    serve();
    String prompt =
        "remember: the deploy uses key "
            + PlantedSecrets.AWS_KEY_ID
            + " and password="
            + PlantedSecrets.PASSWORD;
    dev.memhook.api.Memory kept =
        memory.remember(dev.memhook.api.MemoryDraft.builder(TestStore.ALICE, prompt).build());

    for (String[] args :
        List.of(
            new String[] {"list", "--json"},
            new String[] {"show", kept.id().value()},
            new String[] {"search", "deploy", "key"},
            new String[] {"export"})) {
      Run r = run(dir, List.of(), args);
      assertTrue(r.served());
      assertEquals(ExitCode.OK, r.code(), r.err());
      PlantedSecrets.assertNoneIn(String.join(" ", args), r.out() + r.err());
    }
    assertTrue(run(dir, List.of(), "export").out().contains(kept.id().value()));
  }

  @Test
  void theDirArgument_isReadAsPicocliReadsIt() {
    assertEquals(
        Path.of("a"), RemoteCli.dirArgument(new String[] {"list", "--dir", "a"}).orElseThrow());
    assertEquals(Path.of("b"), RemoteCli.dirArgument(new String[] {"list", "--dir=b"}).get());
    assertEquals(
        Path.of("c"),
        RemoteCli.dirArgument(new String[] {"list", "--dir", "a", "--dir=c"}).orElseThrow());
    assertTrue(RemoteCli.dirArgument(new String[] {"search", "--", "--dir", "a"}).isEmpty());
    assertTrue(RemoteCli.dirArgument(new String[] {"list"}).isEmpty());
    assertTrue(RemoteCli.plain(new String[] {"search", "--dir", "@x", "y"}));
    assertTrue(RemoteCli.plain(new String[] {"search", "--", "@x"}));
    assertFalse(RemoteCli.plain(new String[] {"search", "@args"}));
    assertFalse(RemoteCli.plain(new String[] {"list", "--dir"}));
  }

  // --- helpers

  /** Opens the store for writing and serves it, as memhook serve does, owned by a live process. */
  private void serve() throws IOException {
    StoreArguments store = new StoreArguments();
    store.dir = dir;
    store.embedder = EmbedderChoice.HASHING;
    CliContext context =
        new CliContext(
            InputStream.nullInputStream(),
            new PrintStream(OutputStream.nullOutputStream()),
            new PrintStream(OutputStream.nullOutputStream()),
            Map.of(),
            Terminal.NONE);
    memory = store.openWritable(context, Scope.DEFAULT, true);
    HookLog log = new HookLog(context.err(), dir, StoreArguments.REDACTION);
    AgentEvents events =
        new AgentEvents(
            dir,
            log,
            new AgentEvents.Settings(
                5, new ContextBudget(ContextBudget.DEFAULT_MAX_CHARS), null, null));
    server = new HookServer(HookServer.bind(0), memory, events, log, TOKEN, VERSION);
    // serve.json never names the reading process as a server: a child stands in for this JVM
    owner = new ProcessBuilder("sleep", "600").start();
    announce(owner.pid(), server.port(), TOKEN, VERSION);
  }

  private void announce(long pid, int port, String token, String version) throws IOException {
    new ServeFiles(dir).announce(new ServeFiles.Running(pid, port, token, version));
  }

  /**
   * Runs {@code memhook args} as {@code main} does: through the directory's server if it answers,
   * else here. {@code answers} are the terminal's answers in turn; null for no terminal.
   */
  private static Run run(Path store, List<String> answers, String... args) {
    return run(true, store, answers, args);
  }

  /** Runs {@code memhook args} in this process, as without a server. */
  private static Run here(Path store, List<String> answers, String... args) {
    return run(false, store, answers, args);
  }

  private static Run run(boolean viaServer, Path store, List<String> answers, String... args) {
    return run(viaServer, store, answers, RemoteCli::answerTime, args);
  }

  private static Run run(
      boolean viaServer,
      Path store,
      List<String> answers,
      java.util.function.Function<String, Duration> answerTime,
      String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> asked = new ArrayList<>();
    Terminal terminal = answers == null ? Terminal.NONE : answering(answers, asked);
    CliContext context =
        new CliContext(
            InputStream.nullInputStream(),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Map.of(StoreArguments.DIR_VARIABLE, store.toString(), "USER", "tester"),
            terminal);
    OptionalInt served =
        viaServer ? RemoteCli.run(args, context, VERSION, answerTime) : OptionalInt.empty();
    int code = served.isPresent() ? served.getAsInt() : MemhookCli.run(args, context);
    return new Run(
        code,
        out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8),
        List.copyOf(asked),
        served.isPresent());
  }

  private static Run runLocally(Path store, String... args) {
    Run r = run(store, List.of(), args);
    assertFalse(r.served(), "no server runs for " + store);
    return r;
  }

  private static Terminal answering(List<String> answers, List<String> asked) {
    Deque<String> left = new ArrayDeque<>(answers);
    return new Terminal() {
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
  }

  private Map<String, Object> request(String... args) {
    Map<String, Object> n = new LinkedHashMap<>();
    n.put("version", VERSION);
    n.put("cwd", "/");
    n.put("dir", dir.toAbsolutePath().toString());
    n.put("args", List.of(args));
    n.put("env", List.of("USER=tester"));
    n.put("interactive", false);
    return n;
  }

  private HttpResponse<String> post(String body, String token) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/cli"))
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else if (!f.getFileName().toString().equals("write.lock")) {
          Files.copy(f, target);
        }
      }
    }
  }
}
