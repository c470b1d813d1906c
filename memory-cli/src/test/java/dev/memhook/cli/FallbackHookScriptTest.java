package dev.memhook.cli;

import static dev.memhook.cli.PlantedSecrets.AWS_KEY_ID;
import static dev.memhook.cli.PlantedSecrets.AWS_SECRET;
import static dev.memhook.cli.PlantedSecrets.GITHUB_TOKEN;
import static dev.memhook.cli.PlantedSecrets.PASSWORD;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.Session;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The no-JVM hook script {@code memhook install} writes, run for real with {@code sh}: with the
 * server down it spools every event encrypted, so no file under the store holds any secret of a
 * payload that has them in every field, and a drain takes each event in once, redacted; with the
 * server up it prints the server's answer and spools nothing; without openssl it drops and counts.
 * Skipped, saying so, where {@code sh}, {@code openssl} or {@code curl} is missing.
 */
class FallbackHookScriptTest {

  private static final String COMMON =
      "\"session_id\":\"s-fb\",\"transcript_path\":\"/nowhere/t.jsonl\",\"cwd\":\"/home/dev/shop\"";

  /** Tool events, a prompt and an answer, with a secret in every field a payload has. */
  private static final List<String> EVENTS =
      List.of(
          event(
              "UserPromptSubmit",
              "\"prompt\":\"deploy the shop with AWS_SECRET_ACCESS_KEY="
                  + AWS_SECRET
                  + " and the token "
                  + GITHUB_TOKEN
                  + "\""),
          event(
              "PreToolUse",
              "\"tool_name\":\"Bash\",\"tool_use_id\":\"toolu_"
                  + AWS_KEY_ID
                  + "\",\"tool_input\":{\"command\":\"AWS_ACCESS_KEY_ID="
                  + AWS_KEY_ID
                  + " AWS_SECRET_ACCESS_KEY="
                  + AWS_SECRET
                  + " aws s3 ls s3://shop-assets\",\"description\":\"List the shop assets\"}"),
          event(
              "PostToolUse",
              "\"tool_name\":\"Bash\",\"tool_use_id\":\"toolu_2\",\"tool_input\":{\"command\":"
                  + "\"cat ~/.aws/credentials\"},\"tool_response\":{\"stdout\":\"[default]\\n"
                  + "aws_access_key_id = "
                  + AWS_KEY_ID
                  + "\\naws_secret_access_key = "
                  + AWS_SECRET
                  + "\\n\",\"stderr\":\"\",\"interrupted\":false}"),
          event(
              "PreToolUse",
              "\"tool_name\":\"mcp__db__connect\",\"tool_use_id\":\"toolu_3\",\"tool_input\":"
                  + "{\"host\":\"db.internal\",\"user\":\"shop\",\"password\":\""
                  + PASSWORD
                  + "\",\""
                  + GITHUB_TOKEN
                  + "\":\"a token as a key\"}"),
          event(
              "PostToolUseFailure",
              "\"tool_name\":\"Bash\",\"tool_use_id\":\"toolu_5\",\"tool_input\":{\"command\":"
                  + "\"git push\"},\"error\":\"fatal: Authentication failed for"
                  + " 'https://x-access-token:"
                  + GITHUB_TOKEN
                  + "@github.com/acme/shop.git/'\""),
          event(
              "Stop",
              "\"stop_hook_active\":false,\"last_assistant_message\":\"Pushed with password="
                  + PASSWORD
                  + "; the orders-primary pool is up.\""));

  @TempDir Path store;
  @TempDir Path elsewhere;
  private Path script;

  @BeforeEach
  void install() {
    assumeTrue(ScriptTools.onPath("sh"), "no sh on the PATH: the hook script cannot run here");
    assumeTrue(
        ScriptTools.onPath("openssl"), "no openssl on the PATH: the script cannot encrypt here");
    assumeTrue(
        ScriptTools.onPath("curl"), "no curl on the PATH: the script cannot reach a server here");
    Cli.Result r =
        new Cli(store)
            .run(
                "install",
                "--agent",
                "claude-code",
                "--dir",
                store.toString(),
                "--settings",
                elsewhere.resolve("settings.json").toString(),
                "--no-mcp");
    assertEquals(0, r.code(), r.err());
    script = store.resolve("bin").resolve(InstallCommand.SCRIPT);
  }

  @Test
  void serverDown_secretsInEveryField_neverReachTheDisk_andEachEventIsDrainedOnce()
      throws Exception {
    // a server that died left its serve.json behind: the port it names refuses
    Files.writeString(
        store.resolve("serve.json"),
        "{\"pid\":1,\"port\":" + closedPort() + ",\"token\":\"" + "ab".repeat(32) + "\"}");
    for (String payload : EVENTS) {
      Run run = run(payload, System.getenv("PATH"), "me/shop");
      assertEquals(0, run.code(), run.err());
      assertEquals("{}\n", run.out());
      PlantedSecrets.assertNoneIn("the script's stderr", run.err());
      PlantedSecrets.assertNoneUnder(store, "after " + payload);
    }
    assertEquals(EVENTS.size(), ScriptTools.spooled(store).size(), "one encrypted file per event");

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    HookLog log =
        new HookLog(
            new PrintStream(err, true, StandardCharsets.UTF_8), store, StoreArguments.REDACTION);
    try (MemoryService memory = open()) {
      // two drains at once, as the server and a memhook hook run may: each file is taken once
      ExecutorService two = Executors.newFixedThreadPool(2);
      List<Future<Integer>> drains = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        drains.add(
            two.submit(
                () ->
                    new HookSpool(store, StoreArguments.REDACTION)
                        .drain(memory, Scope.DEFAULT, log)));
      }
      int taken = 0;
      for (Future<Integer> d : drains) {
        taken += d.get(1, TimeUnit.MINUTES);
      }
      two.shutdown();
      assertEquals(EVENTS.size(), taken, err.toString(StandardCharsets.UTF_8));
      assertEquals(
          0, new HookSpool(store, StoreArguments.REDACTION).drain(memory, Scope.DEFAULT, log));
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
      CaptureStats stats = memory.capture().stats();
      assertEquals(EVENTS.size(), stats.accepted(), stats.toString());
      assertEquals(0, stats.duplicates(), stats.toString());
      assertEquals(0, stats.rejected(), stats.toString());
      assertEquals("shop", memory.capture().session("s-fb").orElseThrow().project());
      List<String> texts = new ArrayList<>();
      memory
          .maintenance()
          .export(
              m -> {
                // stored in the scope the script was given, not the drain's fallback
                if ("s-fb".equals(m.sourceSession()) && m.scope().equals(Scope.of("me", "shop"))) {
                  texts.add(PlantedSecrets.memoryText(m));
                }
              });
      String all = String.join("\n", texts);
      PlantedSecrets.assertNoneIn("the captured memories", all);
      // tool starts wait for their ends (or the session's end) before they are stored
      for (String kept :
          List.of(
              "deploy the shop",
              "cat ~/.aws/credentials",
              "github.com/acme/shop.git",
              "orders-primary",
              "[redacted:")) {
        assertTrue(all.contains(kept), kept + " is not in " + all);
      }
    }
    assertEquals(List.of(), ScriptTools.spooled(store), "nothing is left in the spool");
    PlantedSecrets.assertNoneIn("the drain's reports", err.toString(StandardCharsets.UTF_8));
    PlantedSecrets.assertNoneUnder(store, "after the drain");
  }

  /**
   * The same payloads through the JVM's hook handling ({@code memhook hook}: spool, drain, capture,
   * the path a server request takes in this branch): no secret reaches the disk there either.
   */
  @Test
  void jvmHookPath_sameSecretsInEveryField_neverReachTheDisk() throws Exception {
    Cli cli = new Cli(store);
    for (String payload : EVENTS) {
      Cli.Result r = cli.withStdin(payload, "hook", "--embedder", "hashing", "--scope", "me/shop");
      assertEquals(0, r.code(), r.err());
      PlantedSecrets.assertNoneIn("memhook hook's output", r.out() + r.err());
      PlantedSecrets.assertNoneUnder(store, "after memhook hook took " + payload);
    }
    try (MemoryService memory = open()) {
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
    }
    PlantedSecrets.assertNoneUnder(store, "after capture processed them");
  }

  @Test
  void serverUp_printsItsAnswer_andSpoolsNothing_butAWrongTokenSpools() throws Exception {
    String token = "0123456789abcdef".repeat(4);
    String answer =
        "{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"additionalContext\":\"- mem_1 (preference): tabs\"}}";
    List<String> received = new CopyOnWriteArrayList<>();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/hook",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          boolean ok =
              ("Bearer " + token).equals(exchange.getRequestHeaders().getFirst("Authorization"))
                  && "POST".equals(exchange.getRequestMethod())
                  && "scope=me/shop".equals(exchange.getRequestURI().getRawQuery());
          byte[] reply =
              (ok ? answer : "{\"error\":\"unauthorized\"}").getBytes(StandardCharsets.UTF_8);
          if (ok) {
            received.add(new String(body, StandardCharsets.UTF_8));
          }
          exchange.sendResponseHeaders(ok ? 200 : 401, reply.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(reply);
          }
        });
    server.start();
    try {
      int port = server.getAddress().getPort();
      Files.writeString(
          store.resolve("serve.json"),
          "{\"pid\":"
              + ProcessHandle.current().pid()
              + ",\"port\":"
              + port
              + ",\"token\":\""
              + token
              + "\",\"version\":\"test\"}");
      String prompt = EVENTS.get(0);
      Run up = run(prompt, System.getenv("PATH"), "me/shop");
      assertEquals(0, up.code(), up.err());
      assertEquals(answer + "\n", up.out());
      assertEquals(List.of(prompt), received, "the payload reached the server unchanged");
      assertEquals(List.of(), ScriptTools.spooled(store));

      Files.writeString(
          store.resolve("serve.json"),
          "{\"pid\":"
              + ProcessHandle.current().pid()
              + ",\"port\":"
              + port
              + ",\"token\":\""
              + "f".repeat(64)
              + "\"}");
      Run refused = run(prompt, System.getenv("PATH"), "me/shop");
      assertEquals("{}\n", refused.out());
      assertEquals(
          1,
          ScriptTools.spooled(store).size(),
          "a server that refuses the token does not take the event");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void serverUp_aScopeWithAPlus_reachesTheServerAsThatScope() throws Exception {
    List<Scope> scopes = new CopyOnWriteArrayList<>();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/hook",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          int status = 200;
          try {
            scopes.add(HookServer.scope(exchange.getRequestURI().getRawQuery()));
          } catch (IllegalArgumentException e) {
            status = 400; // as the real server answers an invalid scope
          }
          exchange.sendResponseHeaders(status, -1);
          exchange.close();
        });
    server.start();
    try {
      Files.writeString(
          store.resolve("serve.json"),
          "{\"pid\":"
              + ProcessHandle.current().pid()
              + ",\"port\":"
              + server.getAddress().getPort()
              + ",\"token\":\""
              + "ab".repeat(32)
              + "\",\"version\":\"test\"}\n");
      Run run = run(EVENTS.get(0), System.getenv("PATH"), "me/c++");
      assertEquals(0, run.code(), run.err());
      assertEquals(
          List.of(new Scope("me/c++")), scopes, "a '+' in a query is a space unless encoded");
      assertEquals(List.of(), ScriptTools.spooled(store), "the server took the event");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void serveJsonOfADeadProcess_isNotCalled_theEventIsSpooled() throws Exception {
    List<String> received = new CopyOnWriteArrayList<>();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/hook",
        exchange -> {
          received.add(new String(exchange.getRequestBody().readAllBytes(), UTF_8));
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    server.start();
    try {
      Process gone = new ProcessBuilder("sh", "-c", "exit 0").start();
      assertTrue(gone.waitFor(30, TimeUnit.SECONDS));
      Files.writeString(
          store.resolve("serve.json"),
          "{\"pid\":"
              + gone.pid()
              + ",\"port\":"
              + server.getAddress().getPort()
              + ",\"token\":\""
              + "ab".repeat(32)
              + "\",\"version\":\"test\"}\n");
      Run run = run(EVENTS.get(1), System.getenv("PATH"), "me/shop");
      assertEquals(0, run.code(), run.err());
      assertEquals("{}\n", run.out());
      assertEquals(List.of(), received, "a dead server's port is not called");
      assertEquals(1, ScriptTools.spooled(store).size());
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aSpoolFileStillBeingWritten_waitsForALaterDrain_andIsRejectedOnceItCannotBe()
      throws Exception {
    Run run = run(EVENTS.get(1), System.getenv("PATH"), "me/shop");
    assertEquals(0, run.code(), run.err());
    Path whole = ScriptTools.spooled(store).get(0);
    byte[] bytes = Files.readAllBytes(whole);
    Path dir = whole.getParent();
    // as a drain can meet the script's files: created, not yet written; half written
    Path empty = Files.createFile(dir.resolve("p7-0.json.enc"));
    Path half = Files.write(dir.resolve("p8-0.json.enc"), Arrays.copyOf(bytes, bytes.length / 2));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    HookLog log = new HookLog(new PrintStream(err, true, UTF_8), store, StoreArguments.REDACTION);
    HookSpool spool = new HookSpool(store, StoreArguments.REDACTION);
    try (MemoryService memory = open()) {
      assertEquals(1, spool.drain(memory, Scope.DEFAULT, log), err.toString(UTF_8));
      assertEquals(
          List.of(empty, half),
          ScriptTools.spooled(store),
          "young unreadable files stay, unclaimed");

      FileTime older = FileTime.from(Instant.now().minus(HookSpool.IN_FLIGHT).minusSeconds(5));
      Files.setLastModifiedTime(empty, older);
      Files.setLastModifiedTime(half, older);
      assertEquals(0, spool.drain(memory, Scope.DEFAULT, log));
    }
    assertEquals(List.of(), ScriptTools.spooled(store));
    Path rejected = dir.resolve(HookSpool.REJECTED);
    assertTrue(Files.exists(rejected.resolve(empty.getFileName())));
    assertTrue(Files.exists(rejected.resolve(half.getFileName())));
    PlantedSecrets.assertNoneUnder(store, "after the rejection");
  }

  @Test
  void scriptSpooledEvents_areTakenInTheOrderTheyWereWritten_asOfThatTime() throws Exception {
    List<Path> files = new ArrayList<>();
    for (String tool : List.of("first", "second", "third")) {
      String payload =
          event(
              "UserPromptSubmit",
              "\"prompt\":\"remember that the " + tool + " deploy goes through staging\"");
      assertEquals(0, run(payload, System.getenv("PATH"), "me/shop").code());
      List<Path> now = new ArrayList<>(ScriptTools.spooled(store));
      now.removeAll(files);
      files.add(now.get(0));
    }
    // written in the order first, second, third, whatever their names: stamp them far apart
    Instant base = Instant.parse("2026-03-01T10:00:00Z");
    for (int i = 0; i < files.size(); i++) {
      Files.setLastModifiedTime(files.get(i), FileTime.from(base.plusSeconds(60L * i)));
    }
    HookLog log =
        new HookLog(
            new PrintStream(new ByteArrayOutputStream(), true, UTF_8),
            store,
            StoreArguments.REDACTION);
    Map<String, Instant> prompted = new TreeMap<>();
    Session session;
    try (MemoryService memory = open()) {
      assertEquals(
          3, new HookSpool(store, StoreArguments.REDACTION).drain(memory, Scope.DEFAULT, log));
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
      session = memory.capture().session("s-fb").orElseThrow();
      memory
          .maintenance()
          .export(
              m -> {
                for (String word : List.of("first", "second", "third")) {
                  if (PlantedSecrets.memoryText(m).startsWith("remember that the " + word)) {
                    prompted.put(word, m.occurredAt());
                  }
                }
              });
    }
    assertEquals(base, session.startedAt(), "the first written is the session's start");
    assertEquals(base.plusSeconds(120), session.lastEventAt());
    assertEquals(
        Map.of("first", base, "second", base.plusSeconds(60), "third", base.plusSeconds(120)),
        prompted);
  }

  @Test
  void withoutOpenssl_theEventIsDroppedAndCounted_neverWrittenInClear() throws Exception {
    Path bin = elsewhere.resolve("bin-without-openssl");
    Files.createDirectories(bin);
    for (String tool : List.of("cat", "sed", "date", "od", "tr", "mkdir", "mv", "rm", "dirname")) {
      Path real = ScriptTools.which(tool);
      assumeTrue(real != null, "no " + tool + " on the PATH");
      Path wrapper = bin.resolve(tool);
      Files.writeString(wrapper, "#!/bin/sh\nexec '" + real + "' \"$@\"\n");
      assertTrue(wrapper.toFile().setExecutable(true));
    }
    Run run = run(EVENTS.get(1), bin.toString());
    assertEquals(0, run.code(), run.err());
    assertEquals("{}\n", run.out());
    assertEquals(List.of(), ScriptTools.spooled(store));
    List<String> dropped = Files.readAllLines(store.resolve(HookSpool.DROPPED));
    assertEquals(1, dropped.size(), dropped.toString());
    assertTrue(dropped.get(0).endsWith("no openssl: event not spooled"), dropped.get(0));
    PlantedSecrets.assertNoneUnder(store, "after a drop");

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    HookLog log =
        new HookLog(
            new PrintStream(err, true, StandardCharsets.UTF_8), store, StoreArguments.REDACTION);
    try (MemoryService memory = open()) {
      assertEquals(
          0, new HookSpool(store, StoreArguments.REDACTION).drain(memory, Scope.DEFAULT, log));
    }
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("memhook-hook dropped 1 event"),
        err.toString(StandardCharsets.UTF_8));
    assertFalse(Files.exists(store.resolve(HookSpool.DROPPED)), "reported once");
  }

  private MemoryService open() {
    return Memhook.builder()
        .directory(store)
        .embedder(HashingEmbedder.create())
        .redaction(StoreArguments.REDACTION)
        .capture(
            CaptureOptions.builder()
                .scope(Scope.of("me", "shop"))
                .keepSessionsOpenOnClose()
                .build())
        .build();
  }

  private record Run(int code, String out, String err) {}

  private Run run(String stdin, String path, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("sh", script.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().clear();
    pb.environment().putAll(Map.of("PATH", path, "HOME", elsewhere.toString()));
    if (!path.equals(System.getenv("PATH"))) {
      // sh itself must still be found by its absolute path
      pb.command().set(0, ScriptTools.which("sh").toString());
    }
    Process p = pb.start();
    try (OutputStream in = p.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the script returned");
    return new Run(p.exitValue(), out, err);
  }

  private static String event(String name, String fields) {
    return "{" + COMMON + ",\"hook_event_name\":\"" + name + "\"," + fields + "}";
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
