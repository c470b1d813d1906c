package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HookServer} in process, on a real store and a real loopback socket: who is let in, what
 * the hook endpoint answers (what {@code memhook hook} would print), that the spool is taken in,
 * and that secrets in every field of a payload reach no file under the store directory.
 */
class HookServerTest {
  private static final String TOKEN = "ab".repeat(32);

  @TempDir Path dir;
  @TempDir Path work;
  private MemoryService memory;
  private InProcessServer running;
  private HookServer server;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final HttpClient client = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws IOException {
    running = InProcessServer.start(dir, TOKEN, err);
    memory = running.memory();
    server = running.server();
  }

  @AfterEach
  void stop() {
    running.close();
  }

  @Test
  void aRequestWithoutTheToken_orWithAWrongOne_isRefused401_theRightOneIsServed() throws Exception {
    String tool = payload("PostToolUse", "s-1");
    HttpResponse<String> missing = send(post("/hook", tool).build());
    assertEquals(401, missing.statusCode());
    assertTrue(error(missing).contains("token"), missing.body());

    HttpResponse<String> wrong =
        send(post("/hook", tool).header("Authorization", "Bearer " + "cd".repeat(32)).build());
    assertEquals(401, wrong.statusCode());
    HttpResponse<String> notBearer =
        send(post("/hook", tool).header("Authorization", TOKEN).build());
    assertEquals(401, notBearer.statusCode());
    HttpResponse<String> healthWithout = send(get("/health").build());
    assertEquals(401, healthWithout.statusCode());
    assertEquals(0, memory.capture().stats().accepted(), "nothing refused was captured");

    HttpResponse<String> right = send(authorized(post("/hook", tool)));
    assertEquals(200, right.statusCode(), right.body());
    assertEquals("{}", right.body(), "a tool event is answered with nothing");
    assertEquals(1, memory.capture().stats().accepted());

    HttpResponse<String> health = send(authorized(get("/health")));
    assertEquals(200, health.statusCode());
    JsonNode h = JsonRecords.MAPPER.readTree(health.body());
    assertEquals("ok", h.get("status").asText());
    assertEquals(ProcessHandle.current().pid(), h.get("pid").asLong());
    assertEquals("test", h.get("version").asText());
    assertTrue(h.get("memories").canConvertToLong(), health.body());
  }

  @Test
  void onlyLoopbackAddresses_areAdmitted() throws Exception {
    assertTrue(HookServer.admits(InetAddress.getByName("127.0.0.1")));
    assertTrue(HookServer.admits(InetAddress.getByName("127.8.9.10")));
    assertTrue(HookServer.admits(InetAddress.getByName("::1")));
    assertFalse(HookServer.admits(InetAddress.getByName("10.0.0.7")));
    assertFalse(HookServer.admits(InetAddress.getByName("192.168.1.20")));
    assertFalse(HookServer.admits(InetAddress.getByName("fe80::1")));
    assertFalse(HookServer.admits(null));
  }

  /**
   * A client whose socket is bound to one of this machine's non-loopback addresses reaches the
   * loopback listener (Linux routes it over the loopback device) and is refused, token or not.
   * Skipped on a machine without such an address; {@link #onlyLoopbackAddresses_areAdmitted()}
   * covers the check itself.
   */
  @Test
  void aClientFromANonLoopbackAddress_isRefused403_evenWithTheToken() throws Exception {
    Optional<InetAddress> local = nonLoopbackAddress();
    Assumptions.assumeTrue(local.isPresent(), "this machine has no non-loopback IPv4 address");
    String body = payload("PostToolUse", "s-1");
    String request =
        "POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            + TOKEN
            + "\r\nContent-Type: application/json\r\nContent-Length: "
            + body.getBytes(StandardCharsets.UTF_8).length
            + "\r\nConnection: close\r\n\r\n"
            + body;
    String response;
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(local.get(), 0));
      s.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), server.port()), 5000);
      s.setSoTimeout(10_000);
      s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      s.getOutputStream().flush();
      response = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(response.startsWith("HTTP/1.1 403"), response);
    assertTrue(response.contains("loopback"), response);
    assertEquals(0, memory.capture().stats().accepted(), "nothing refused was captured");
  }

  @Test
  void promptsAndSessionStarts_areAnsweredAsMemhookHookAnswers_eachMemoryOncePerSession()
      throws Exception {
    for (String event : List.of("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd")) {
      assertEquals(200, hook(payload(event, "s-1"), "").statusCode());
    }
    assertTrue(memory.capture().flush(Duration.ofSeconds(30)));

    String question =
        payload("UserPromptSubmit", "s-2")
            .replace(
                "We build the shop service with Gradle, never with Maven. Run the tests please.",
                "Which build tool does the shop service use, Gradle or Maven?");
    HttpResponse<String> first = hook(question, "");
    assertEquals(200, first.statusCode(), first.body());
    JsonNode answer = JsonRecords.MAPPER.readTree(first.body()).get("hookSpecificOutput");
    assertEquals("UserPromptSubmit", answer.get("hookEventName").asText());
    String context = answer.get("additionalContext").asText();
    assertTrue(context.contains("Gradle"), context);
    assertTrue(context.startsWith("Memories from earlier sessions"), context);

    HttpResponse<String> again = hook(question, "");
    assertEquals(200, again.statusCode());
    assertEquals("{}", again.body(), "each memory is offered once per session");

    HttpResponse<String> otherScope = hook(question.replace("s-2", "s-3"), "?scope=me%2Fblog");
    assertEquals("{}", otherScope.body(), "another scope holds none of it");
  }

  @Test
  void eventsAreCapturedIntoTheRequestsScope_andAnInvalidScopeIsRefused400() throws Exception {
    assertEquals(200, hook(payload("UserPromptSubmit", "s-1"), "?scope=me%2Fshop").statusCode());
    HttpResponse<String> bad = hook(payload("PostToolUse", "s-1"), "?scope=");
    assertEquals(400, bad.statusCode(), bad.body());
    assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
    List<Memory> captured = new ArrayList<>();
    memory.maintenance().export(m -> captured.add(m));
    assertEquals(1, captured.size(), captured.toString());
    assertEquals(Scope.of("me", "shop"), captured.get(0).scope());
  }

  @Test
  void theSpool_isTakenInBeforeTheNextEvent_eachEventInTheScopeItNames() throws Exception {
    HookSpool spool = new HookSpool(dir, StoreArguments.REDACTION);
    JsonNode spooled =
        JsonRecords.MAPPER.readTree(
            payload("UserPromptSubmit", "s-0").replace("Gradle", "Bazel").replace("Maven", "Ant"));
    HookPayload.Prepared prepared = HookPayload.prepare(spooled, TestStore.T0);
    spool.add(prepared.event().orElseThrow(), Scope.of("me", "shop"));
    assertFalse(spool.isEmpty());

    assertEquals(200, hook(payload("PostToolUse", "s-1"), "").statusCode());
    assertTrue(spool.isEmpty(), "the spool was taken in");
    assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
    List<Memory> captured = new ArrayList<>();
    memory.maintenance().export(m -> captured.add(m));
    assertEquals(2, captured.size(), captured.toString());
    Memory bazel = only(captured, "Bazel");
    assertEquals(Scope.of("me", "shop"), bazel.scope(), "the scope the spooled event named");
    assertEquals(Scope.DEFAULT, only(captured, "gradlew").scope());
  }

  @Test
  void aBodyOverTheLimit_isRefused413_andMalformedOnesAreAnsweredWithNothing() throws Exception {
    byte[] big = new byte[HookCommand.MAX_INPUT_BYTES + 1];
    java.util.Arrays.fill(big, (byte) ' ');
    HttpResponse<String> tooBig =
        send(
            authorized(
                HttpRequest.newBuilder(uri("/hook"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(big))));
    assertEquals(413, tooBig.statusCode());
    for (String malformed : List.of("not json", "[1,2]", "{}", "{\"hook_event_name\":\"Bogus\"}")) {
      HttpResponse<String> r = hook(malformed, "");
      assertEquals(200, r.statusCode(), malformed);
      assertEquals("{}", r.body(), malformed);
    }
    assertEquals(0, memory.capture().stats().accepted());
    String log = Files.readString(dir.resolve(HookLog.FILE), StandardCharsets.UTF_8);
    assertTrue(log.contains("not JSON") && log.contains("Bogus"), log);
    assertTrue(log.contains("names no event"), log);
  }

  @Test
  void secretsInEveryFieldOfAPayload_reachNoFileUnderTheStoreDirectory() throws Exception {
    String secret = "AKIAZ3MHQ7RT2XK5PLNV";
    String password = "hunter2-Sup3r-s3cret";
    String token = "ghp_R7tYq2LmX9vB4nK8sD1fH6jP3wZ5cA0eU2gM";
    List<String> pieces =
        List.of(secret, password, token, "Z3MHQ7RT2XK5", "Sup3r-s3cret", "R7tYq2LmX9vB4nK8");
    String everywhere = "key " + secret + " password=" + password + " token " + token;
    List<String> payloads = new ArrayList<>();
    for (String event :
        List.of(
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PostToolUse",
            "PostToolUseFailure",
            "Stop",
            "PreCompact",
            "SessionEnd")) {
      payloads.add(
          "{\"session_id\":\"s-"
              + event
              + " "
              + everywhere
              + "\",\"transcript_path\":\"/nowhere/"
              + everywhere
              + "\",\"cwd\":\"/home/dev/"
              + everywhere
              + "\",\"permission_mode\":\""
              + everywhere
              + "\",\"hook_event_name\":\""
              + event
              + "\",\"prompt\":\""
              + everywhere
              + "\",\"tool_name\":\"Bash "
              + everywhere
              + "\",\"tool_use_id\":\"toolu_"
              + event
              + " "
              + everywhere
              + "\",\"tool_input\":{\"command\":\"aws s3 ls "
              + everywhere
              + "\",\"password\":\""
              + password
              + "\",\""
              + everywhere
              + "\":\"as a key\"},\"tool_response\":{\"stdout\":\""
              + everywhere
              + "\",\"pin\":1234},\"error\":\""
              + everywhere
              + "\",\"last_assistant_message\":\""
              + everywhere
              + "\",\"reason\":\""
              + everywhere
              + "\",\"trigger\":\""
              + everywhere
              + "\",\"custom_instructions\":\""
              + everywhere
              + "\"}");
    }
    // an unknown event whose name holds a secret: only reported, and the report is redacted
    payloads.add("{\"session_id\":\"s-x\",\"hook_event_name\":\"Bogus " + everywhere + "\"}");
    for (String p : payloads) {
      HttpResponse<String> r = hook(p, "?scope=me%2Fshop");
      assertEquals(200, r.statusCode(), r.body());
      for (String piece : pieces) {
        assertFalse(r.body().contains(piece), "the answer holds " + piece + ": " + r.body());
      }
    }
    assertTrue(memory.capture().flush(Duration.ofSeconds(60)));
    server.close();
    memory.close(); // everything written: the index committed, the journal, the sessions
    List<Path> files;
    try (Stream<Path> all = Files.walk(dir)) {
      files = all.toList();
    }
    assertTrue(files.size() > 5, files.toString());
    for (Path f : files) {
      String name = dir.relativize(f).toString();
      for (String piece : pieces) {
        assertFalse(name.contains(piece), "a path holds " + piece + ": " + name);
        if (Files.isRegularFile(f)) {
          String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
          assertFalse(bytes.contains(piece), name + " holds " + piece);
        }
      }
    }
    for (String piece : pieces) {
      assertFalse(err.toString(StandardCharsets.UTF_8).contains(piece), "stderr holds " + piece);
    }
  }

  private static Memory only(List<Memory> memories, String text) {
    List<Memory> found = memories.stream().filter(m -> m.content().contains(text)).toList();
    assertEquals(1, found.size(), memories.toString());
    return found.get(0);
  }

  private String payload(String event, String session) throws IOException {
    Path transcript = work.resolve("transcript.jsonl");
    if (!Files.exists(transcript)) {
      Files.writeString(transcript, resource("transcript.jsonl"), StandardCharsets.UTF_8);
    }
    return resource(event + ".json")
        .replace("SESSION", session)
        .replace("TRANSCRIPT", transcript.toString().replace("\\", "\\\\"));
  }

  private HttpResponse<String> hook(String body, String query) throws Exception {
    return send(authorized(post("/hook" + query, body)));
  }

  private HttpRequest.Builder post(String path, String body) {
    return HttpRequest.newBuilder(uri(path))
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
  }

  private HttpRequest.Builder get(String path) {
    return HttpRequest.newBuilder(uri(path)).GET();
  }

  private static HttpRequest authorized(HttpRequest.Builder b) {
    return b.header("Authorization", "Bearer " + TOKEN).build();
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  private HttpResponse<String> send(HttpRequest r) throws Exception {
    return client.send(r, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static String error(HttpResponse<String> r) throws IOException {
    return JsonRecords.MAPPER.readTree(r.body()).get("error").asText();
  }

  /** One of this machine's IPv4 addresses that is not a loopback one, if any. */
  static Optional<InetAddress> nonLoopbackAddress() throws IOException {
    for (NetworkInterface i : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (!i.isUp() || i.isLoopback()) {
        continue;
      }
      for (InetAddress a : Collections.list(i.getInetAddresses())) {
        if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
          return Optional.of(a);
        }
      }
    }
    return Optional.empty();
  }

  static String resource(String name) throws IOException {
    try (InputStream in = HookServerTest.class.getResourceAsStream("/hook/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
