package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memhook serve} as real processes: one server per store directory, no accepted event lost
 * to a SIGKILL, and {@code memhook serve stop} and SIGTERM closing the store cleanly.
 */
class ServeProcessTest {
  @TempDir Path dir;
  @TempDir Path logs;
  private final List<Process> started = new ArrayList<>();
  private final HttpClient client = HttpClient.newHttpClient();

  @AfterEach
  void killLeftovers() throws InterruptedException {
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void aSecondServeOnTheSameDirectory_refuses_namingTheServerThatHoldsIt() throws Exception {
    Process first = start();
    JsonNode running = awaitRunning(first);
    Process second = start();
    assertTrue(second.waitFor(60, TimeUnit.SECONDS), "the second server exits");
    String err = stderr(second);
    assertEquals(ExitCode.STORE_UNAVAILABLE, second.exitValue(), err);
    assertTrue(
        err.contains("memhook serve (pid " + first.pid() + ") already serves"),
        "the message names the running server: " + err);
    assertTrue(err.contains("memhook serve stop"), err);
    assertTrue(first.isAlive(), "the first server is untouched");
    assertEquals(first.pid(), readRunning().get("pid").asLong());
    assertEquals(200, health(running).statusCode());
  }

  @Test
  void aSigkillAfterThe200s_losesNoAcceptedEvent() throws Exception {
    Process server = start();
    JsonNode running = awaitRunning(server);
    int events = 30;
    for (int i = 0; i < events; i++) {
      HttpResponse<String> r = hook(running, toolEvent(i));
      assertEquals(200, r.statusCode(), r.body());
    }
    server.destroyForcibly(); // SIGKILL: no shutdown hook runs
    assertTrue(server.waitFor(30, TimeUnit.SECONDS));
    assertTrue(Files.exists(dir.resolve(ServeFiles.RUNNING_FILE)), "a killed server leaves it");

    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      assertTrue(memory.capture().flush(Duration.ofSeconds(60)));
      List<String> contents = new ArrayList<>();
      memory.maintenance().export(m -> contents.add(m.content()));
      for (int i = 0; i < events; i++) {
        String marker = "step-" + i + "-done";
        assertTrue(
            contents.stream().anyMatch(c -> c.contains(marker)),
            "event " + i + " was lost: " + contents);
      }
    }
    Process again = start();
    JsonNode replaced = awaitRunning(again);
    assertEquals(again.pid(), replaced.get("pid").asLong(), "a stale serve.json is replaced");
    assertEquals(running.get("token").asText(), replaced.get("token").asText(), "token kept");
  }

  @Test
  void serveStop_andSigterm_closeTheStore_soThatALaterWriterOpensIt() throws Exception {
    Process server = start();
    JsonNode running = awaitRunning(server);
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(dir.resolve(ServeFiles.TOKEN_FILE))));
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(dir.resolve(ServeFiles.RUNNING_FILE))));
    assertEquals(200, hook(running, toolEvent(1)).statusCode());

    Cli cli = new Cli(dir);
    Cli.Result stop = cli.run("serve", "stop", "--dir", dir.toString());
    assertEquals(0, stop.code(), stop.err());
    assertTrue(stop.out().contains("stopped pid " + server.pid()), stop.out());
    assertFalse(server.isAlive(), "serve stop returns once the server has exited");
    assertEquals(0, server.exitValue());
    assertFalse(Files.exists(dir.resolve(ServeFiles.RUNNING_FILE)), "a clean stop deletes it");
    Cli.Result stats = cli.run("stats", "--json");
    assertEquals(0, stats.code(), stats.err());
    assertFalse(JsonRecords.MAPPER.readTree(stats.out()).get("writeLocked").asBoolean());
    assertEquals(
        0,
        cli.run("compact").code(),
        "a writer opens the store the server closed: the lock is free");
    assertTrue(cli.run("serve", "stop", "--dir", dir.toString()).out().contains("no server"));

    Process second = start();
    JsonNode again = awaitRunning(second);
    assertEquals(running.get("token").asText(), again.get("token").asText(), "the token is kept");
    assertEquals(200, hook(again, toolEvent(2)).statusCode());
    second.destroy(); // SIGTERM
    assertTrue(second.waitFor(90, TimeUnit.SECONDS));
    assertFalse(Files.exists(dir.resolve(ServeFiles.RUNNING_FILE)));
    assertEquals(0, cli.run("compact").code(), "SIGTERM closed the store too");
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      List<Memory> all = new ArrayList<>();
      memory.maintenance().export(all::add);
      for (String marker : List.of("step-1-done", "step-2-done")) {
        assertTrue(all.stream().anyMatch(m -> m.content().contains(marker)), marker);
      }
    }
  }

  @Test
  void detach_returnsOnceTheServerListens_andServeStopEndsIt() throws Exception {
    Cli cli = new Cli(dir);
    Cli.Result detached =
        cli.run(
            "serve", "--detach", "--dir", dir.toString(), "--port", "0", "--embedder", "hashing");
    assertEquals(0, detached.code(), detached.err());
    JsonNode running = readRunning();
    long pid = running.get("pid").asLong();
    assertTrue(detached.out().contains("pid " + pid + " serves"), detached.out());
    ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
    try {
      assertEquals(200, health(running).statusCode());
      Cli.Result stop = cli.run("serve", "stop", "--dir", dir.toString());
      assertEquals(0, stop.code(), stop.err());
      assertFalse(server.isAlive());
      assertFalse(Files.exists(dir.resolve(ServeFiles.RUNNING_FILE)));
    } finally {
      server.destroyForcibly();
    }
  }

  private Process start() throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                MemhookCli.class.getName(),
                "serve",
                "--dir",
                dir.toString(),
                "--port",
                "0",
                "--embedder",
                "hashing")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(logs.resolve("serve-" + started.size() + ".err").toFile())
            .start();
    started.add(p);
    return p;
  }

  /** serve.json once {@code p} has written it. */
  private JsonNode awaitRunning(Process p) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new AssertionError("the server exited: " + stderr(p));
      }
      if (Files.exists(dir.resolve(ServeFiles.RUNNING_FILE))) {
        JsonNode n = readRunning();
        if (n != null && n.path("pid").asLong() == p.pid()) {
          return n;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the server did not write serve.json in 90 s");
  }

  private String stderr(Process p) throws IOException {
    return Files.readString(logs.resolve("serve-" + started.indexOf(p) + ".err"));
  }

  private JsonNode readRunning() throws IOException {
    return JsonRecords.MAPPER.readTree(
        Files.readString(dir.resolve(ServeFiles.RUNNING_FILE), StandardCharsets.UTF_8));
  }

  private HttpResponse<String> hook(JsonNode running, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + running.get("port").asInt() + "/hook"))
            .header("Authorization", "Bearer " + running.get("token").asText())
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> health(JsonNode running) throws Exception {
    return client.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + running.get("port").asInt() + "/health"))
            .header("Authorization", "Bearer " + running.get("token").asText())
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String toolEvent(int i) throws IOException {
    return HookServerTest.resource("PostToolUse.json")
        .replace("SESSION", "s-kill")
        .replace("TRANSCRIPT", "/nowhere/t.jsonl")
        .replace("toolu_01ABC", "toolu_" + i)
        .replace("42 tests completed", "42 tests completed, step-" + i + "-done");
  }
}
