package dev.memhook.cli;

import static dev.memhook.cli.PlantedSecrets.AWS_KEY_ID;
import static dev.memhook.cli.PlantedSecrets.AWS_SECRET;
import static dev.memhook.cli.PlantedSecrets.GITHUB_TOKEN;
import static dev.memhook.cli.PlantedSecrets.PASSWORD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cursor's and GitHub Copilot's payloads for every event Memhook reads from them, with credentials
 * planted in every string (JSON held in a string included) and as a key of every tool input: no
 * file under the store directory holds any of them, through {@code memhook hook --agent} (the JVM
 * path) or through the no-JVM script with the server down (spooled encrypted, with the agent and
 * event named inside the encryption, then drained), and what is not secret is captured, in the
 * scope the hook was given.
 */
class AgentHookSecretsTest {
  /** What is appended to every string of a payload. */
  private static final String PLANTED =
      " AWS_ACCESS_KEY_ID="
          + AWS_KEY_ID
          + " AWS_SECRET_ACCESS_KEY="
          + AWS_SECRET
          + " password="
          + PASSWORD
          + " token "
          + GITHUB_TOKEN;

  @TempDir Path store;
  @TempDir Path elsewhere;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"cursor", "copilot"})
  void jvmPath_secretsInEveryField_neverReachTheDisk(String agent) throws Exception {
    Cli cli = new Cli(store);
    for (String event : events(agent)) {
      String payload = planted(agent, event);
      Cli.Result r =
          cli.withStdin(
              payload,
              "hook",
              "--embedder",
              "hashing",
              "--scope",
              "me/shop",
              "--agent",
              agent,
              "--event",
              event);
      assertEquals(0, r.code(), r.err());
      PlantedSecrets.assertNoneIn("memhook hook's output for " + event, r.out() + r.err());
      PlantedSecrets.assertNoneUnder(store, "after memhook hook took " + agent + " " + event);
    }
    assertCapturedWithoutSecrets();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"cursor", "copilot"})
  void scriptPath_serverDown_secretsInEveryField_neverReachTheDisk_andTheDrainReadsTheAgent(
      String agent) throws Exception {
    assumeTrue(
        ScriptTools.which("sh") != null, "no sh on the PATH: the hook script cannot run here");
    assumeTrue(
        ScriptTools.which("openssl") != null,
        "no openssl on the PATH: the script cannot encrypt here");
    Cli.Result installed =
        new Cli(store)
            .run(
                "install",
                "--agent",
                agent,
                "--dir",
                store.toString(),
                "--scope",
                "me/shop",
                "--settings",
                elsewhere.resolve("hooks.json").toString());
    assertEquals(0, installed.code(), installed.err());
    Path script = store.resolve("bin").resolve(InstallCommand.SCRIPT);
    List<String> events = events(agent);
    for (String event : events) {
      String payload = planted(agent, event);
      Process p =
          new ProcessBuilder("sh", script.toString(), "me/shop", agent, event)
              .redirectErrorStream(true)
              .start();
      try (OutputStream in = p.getOutputStream()) {
        in.write(payload.getBytes(StandardCharsets.UTF_8));
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the script returned");
      assertEquals(0, p.exitValue(), out);
      assertEquals("{}\n", out, "no server: spooled, and the neutral answer printed");
      PlantedSecrets.assertNoneUnder(store, "after the script spooled " + agent + " " + event);
    }
    assertEquals(events.size(), ScriptTools.spooled(store).size(), "one encrypted file per event");

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    HookLog log =
        new HookLog(
            new PrintStream(err, true, StandardCharsets.UTF_8), store, StoreArguments.REDACTION);
    try (MemoryService memory = open()) {
      int taken = new HookSpool(store, StoreArguments.REDACTION).drain(memory, Scope.DEFAULT, log);
      assertEquals(events.size(), taken, err.toString(StandardCharsets.UTF_8));
    }
    assertEquals(List.of(), ScriptTools.spooled(store), "nothing is left in the spool");
    assertFalse(
        Files.exists(store.resolve(HookSpool.DIRECTORY).resolve(HookSpool.REJECTED)),
        "nothing was rejected: " + err.toString(StandardCharsets.UTF_8));
    PlantedSecrets.assertNoneIn("the drain's reports", err.toString(StandardCharsets.UTF_8));
    assertCapturedWithoutSecrets();
  }

  /** The store holds the non-secret parts of the session, in the hook's scope, and no secret. */
  private void assertCapturedWithoutSecrets() throws IOException {
    List<String> texts = new ArrayList<>();
    try (MemoryService memory = open()) {
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
      memory
          .maintenance()
          .export(
              m -> {
                if (m.scope().equals(Scope.of("me", "shop"))) {
                  texts.add(PlantedSecrets.memoryText(m));
                }
              });
    }
    String all = String.join("\n", texts);
    PlantedSecrets.assertNoneIn("the captured memories", all);
    for (String kept : List.of("gradlew test --tests CheckoutTest", "[redacted:")) {
      assertTrue(all.contains(kept), kept + " is not in " + all);
    }
    PlantedSecrets.assertNoneUnder(store, "after capture processed the events");
  }

  /** The events Memhook reads from {@code agent}: those installed, and Cursor's per-tool ones. */
  private static List<String> events(String agent) {
    List<String> events = new ArrayList<>();
    CodingAgent.of(agent).events().forEach(e -> events.add(e.name()));
    if (agent.equals("cursor")) {
      events.addAll(
          List.of(
              "beforeShellExecution",
              "afterShellExecution",
              "beforeMCPExecution",
              "afterMCPExecution",
              "beforeReadFile",
              "afterFileEdit"));
    }
    return events;
  }

  /** The documented payload of {@code event}, with the secrets in every string and tool input. */
  private static String planted(String agent, String event) throws IOException {
    return plant(AgentPayloadsTest.resource(agent + "/" + event + ".json"), "").toString();
  }

  private static JsonNode plant(JsonNode n, String field) throws IOException {
    if (n.isTextual()) {
      String text = n.textValue();
      if (text.startsWith("{")) {
        // JSON in a string (Cursor's tool_output, Copilot's toolArgs): planted inside, still JSON
        return new TextNode(plant(JsonRecords.MAPPER.readTree(text), field).toString());
      }
      return new TextNode(text + PLANTED);
    }
    if (n.isArray()) {
      ArrayNode out = JsonRecords.MAPPER.createArrayNode();
      for (JsonNode e : n) {
        out.add(plant(e, field));
      }
      return out;
    }
    if (n.isObject()) {
      ObjectNode out = JsonRecords.MAPPER.createObjectNode();
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        out.set(e.getKey(), plant(e.getValue(), e.getKey()));
      }
      if (field.equals("tool_input") || field.equals("toolArgs")) {
        out.put(GITHUB_TOKEN, "a token as a key");
      }
      return out;
    }
    return n;
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
}
