package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memhook serve}'s hook endpoint told the agent by the query, as the script tells it:
 * Cursor's and GitHub Copilot's payloads are captured and answered in their own shape, an unknown
 * agent is a 400, and the script, with the server up, passes its agent and event through to it.
 */
class AgentHookServerTest {
  private static final String TOKEN = "cd".repeat(32);

  @TempDir Path dir;
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
  void agentsPayloads_areCaptured_andASessionStartIsAnsweredInTheAgentsShape() throws Exception {
    String text = "Build the shop with Gradle, never with Maven.";
    Memory preference =
        memory.remember(
            MemoryDraft.builder(Scope.DEFAULT, text)
                .type(MemoryType.PREFERENCE)
                .summary(text)
                .importance(0.5)
                .build());

    HttpResponse<String> tool =
        post(
            "agent=cursor&event=postToolUse",
            AgentPayloadsTest.resource("cursor/postToolUse.json"));
    assertEquals(200, tool.statusCode(), tool.body());
    assertEquals("{}", tool.body());
    assertEquals(1, memory.capture().stats().accepted());

    HttpResponse<String> start =
        post(
            "agent=copilot&event=sessionStart",
            AgentPayloadsTest.resource("copilot/sessionStart.json"));
    assertEquals(200, start.statusCode(), start.body());
    JsonNode answer = JsonRecords.MAPPER.readTree(start.body());
    assertTrue(
        answer.path("additionalContext").asText().contains(preference.id().value()), start.body());
    assertEquals(1, answer.size(), start.body());
    assertEquals(2, memory.capture().stats().accepted());
  }

  @Test
  void anUnknownAgent_isRefused400_andNothingIsCaptured() throws Exception {
    HttpResponse<String> r =
        post("agent=windsurf", AgentPayloadsTest.resource("cursor/preToolUse.json"));
    assertEquals(400, r.statusCode());
    assertTrue(
        JsonRecords.MAPPER.readTree(r.body()).get("error").asText().contains("unknown agent"),
        r.body());
    assertEquals(0, memory.capture().stats().accepted());
  }

  @Test
  void theScript_withTheServerUp_passesItsAgentAndEventThrough() throws Exception {
    assumeTrue(
        ScriptTools.onPath("sh") && ScriptTools.onPath("curl"),
        "no sh or curl on the PATH: the script cannot run");
    Path settings = dir.resolve("elsewhere-hooks.json");
    Cli.Result installed =
        new Cli(dir)
            .run(
                "install",
                "--agent",
                "copilot",
                "--dir",
                dir.toString(),
                "--settings",
                settings.toString());
    assertEquals(0, installed.code(), installed.err());
    Files.writeString(
        dir.resolve("serve.json"),
        "{\"pid\":"
            + ProcessHandle.current().pid()
            + ",\"port\":"
            + server.port()
            + ",\"token\":\""
            + TOKEN
            + "\",\"version\":\"test\"}\n");
    Process p =
        new ProcessBuilder(
                "sh",
                dir.resolve("bin").resolve(InstallCommand.SCRIPT).toString(),
                "default",
                "copilot",
                "preToolUse")
            .redirectErrorStream(true)
            .start();
    try (OutputStream in = p.getOutputStream()) {
      in.write(
          AgentPayloadsTest.resource("copilot/preToolUse.json")
              .toString()
              .getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    assertEquals("{}\n", out);
    assertEquals(1, memory.capture().stats().accepted(), err.toString(StandardCharsets.UTF_8));
    assertEquals(List.of(), ScriptTools.spooled(dir), "delivered, not spooled");
  }

  private HttpResponse<String> post(String query, JsonNode body) throws Exception {
    HttpRequest r =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/hook?scope=default&" + query))
            .header("Authorization", "Bearer " + TOKEN)
            .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8))
            .build();
    return client.send(r, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }
}
