package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.lucene.IndexInfo;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * memhook mcp in a child JVM, driven by the MCP SDK's own client over stdio: the tools, good and
 * bad arguments, and that a server bound to one scope never reaches another.
 */
class McpServerTest {
  @TempDir Path dir;
  private TestStore.Seeded seeded;

  @BeforeEach
  void seed() {
    seeded = TestStore.seed(dir);
  }

  @Test
  void everyTool_answersGoodArguments_andReportsBadOnesAsToolErrors() throws Exception {
    try (McpSyncClient client = client("acme/alice")) {
      client.initialize();
      List<String> names = new ArrayList<>();
      for (Tool t : client.listTools().tools()) {
        names.add(t.name());
        assertFalse(t.description().isBlank(), t.name());
        assertEquals("object", t.inputSchema().get("type"), t.name());
      }
      assertEquals(
          List.of(
              "get_memory",
              "memory_forget",
              "memory_observe",
              "memory_recall",
              "memory_remember",
              "memory_sessions"),
          names.stream().sorted().toList());

      JsonNode recalled = ok(client, "memory_recall", Map.of("query", "gateway timeout"));
      assertEquals(
          seeded.timeoutV2().id().value(), recalled.get("memories").get(0).get("id").asText());
      error(client, "memory_recall", Map.of("query", "   "), "'query' is required");
      error(
          client,
          "memory_recall",
          Map.of("query", "x", "limit", 500),
          "'limit' must be from 1 to 20");

      JsonNode got =
          ok(client, "get_memory", Map.of("ids", List.of(seeded.timeoutV2().id().value())));
      assertEquals(
          "The gateway timeout is 45 seconds since the outage.",
          got.get("memories").get(0).get("content").asText());
      JsonNode summary =
          ok(
              client,
              "get_memory",
              Map.of("ids", List.of(seeded.tabs().id().value()), "summary", true));
      assertTrue(summary.get("memories").get(0).get("content") == null, summary.toString());
      // the SDK checks arguments against the tool's schema first, also a tool error
      error(
          client,
          "get_memory",
          Map.of("ids", "not-an-array"),
          "/ids: string found, array expected");

      JsonNode remembered =
          ok(
              client,
              "memory_remember",
              Map.of("content", "Deploys happen on Tuesdays only.", "type", "workflow"));
      String newId = remembered.get("id").asText();
      JsonNode found = ok(client, "memory_recall", Map.of("query", "when do deploys happen"));
      assertEquals(newId, found.get("memories").get(0).get("id").asText());
      error(client, "memory_remember", Map.of("content", "x", "type", "gossip"), "/type");

      String checklist =
          ok(
                  client,
                  "memory_remember",
                  Map.of(
                      "content",
                      "Deploy checklist.\nRollback: run deploy/rollback.sh with the previous tag.",
                      "summary",
                      "Deploy checklist",
                      "type",
                      "workflow"))
              .get("id")
              .asText();
      JsonNode excerpted =
          ok(client, "memory_recall", Map.of("query", "rollback the deploy to the previous tag"));
      JsonNode entry = excerpted.get("memories").get(0);
      assertEquals(checklist, entry.get("id").asText(), excerpted.toString());
      assertEquals(
          "…Rollback: run deploy/rollback.sh with the previous tag.",
          entry.get("excerpt").asText());
      assertTrue(
          found.get("memories").get(0).get("excerpt") == null,
          "the summary shows all there is: " + found);
      JsonNode focused =
          ok(
              client,
              "get_memory",
              Map.of("ids", List.of(checklist), "summary", true, "focus", "rollback previous"));
      assertEquals(
          "…Rollback: run deploy/rollback.sh with the previous tag.",
          focused.get("memories").get(0).get("excerpt").asText());
      error(
          client,
          "get_memory",
          Map.of("ids", List.of(checklist), "focus", "rollback"),
          "'focus' applies with summary=true only");
      error(
          client,
          "get_memory",
          Map.of(
              "ids",
              List.of(checklist),
              "summary",
              true,
              "focus",
              "x".repeat(McpTools.MAX_FOCUS + 1)),
          "'focus' must be at most 1000 characters");

      ok(client, "memory_forget", Map.of("id", newId, "reason", "wrong"));
      JsonNode gone = ok(client, "get_memory", Map.of("ids", List.of(newId)));
      assertEquals(newId, gone.get("notFound").get(0).asText());
      error(client, "memory_forget", Map.of("id", newId), "no memory with id");

      JsonNode observed =
          ok(
              client,
              "memory_observe",
              Map.of(
                  "event",
                  Map.of(
                      "hook_event_name", "UserPromptSubmit",
                      "session_id", "mcp-1",
                      "cwd", "/home/dev/shop",
                      "prompt", "Keep the changelog in Keep a Changelog format.")));
      assertEquals("accepted", observed.get("result").asText());
      error(
          client,
          "memory_observe",
          Map.of("event", Map.of("hook_event_name", "PostToolUse", "session_id", "mcp-1")),
          "toolName");
      JsonNode session = awaitSession(client, "mcp-1"); // capture processes in the background
      assertEquals("shop", session.get("project").asText());
      error(client, "memory_sessions", Map.of("limit", "ten"), "/limit");
      error(client, "memory_sessions", Map.of("unknown", 1), "unknown");
    }
    // closing the client ends the server's input: it closes the store and exits
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (IndexInfo.read(dir).writeLocked() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertFalse(IndexInfo.read(dir).writeLocked(), "the server released the store on exit");
    Cli.Result kept = new Cli(dir).run("list", "--json", "--session", "mcp-1");
    assertEquals(1, JsonRecords.MAPPER.readTree(kept.out()).get("matched").asInt(), kept.out());
  }

  @Test
  void aServerBoundToOneScope_neverReadsNorForgetsAnother() throws Exception {
    String bobs = seeded.bobBug().id().value();
    try (McpSyncClient client = client("acme/alice")) {
      client.initialize();
      JsonNode got = ok(client, "get_memory", Map.of("ids", List.of(bobs)));
      assertEquals(bobs, got.get("notFound").get(0).asText());
      assertEquals(0, got.get("memories").size());
      JsonNode recalled =
          ok(client, "memory_recall", Map.of("query", "AuthMiddleware clock skew tokens"));
      for (JsonNode m : recalled.get("memories")) {
        assertFalse(m.get("id").asText().equals(bobs), recalled.toString());
      }
      error(
          client,
          "memory_recall",
          Map.of("query", "tokens", "scope", "acme/bob"),
          "bound to scope acme/alice");
      error(client, "memory_forget", Map.of("id", bobs), "no memory with id");
    }
    assertEquals(0, new Cli(dir).run("show", bobs).code(), "bob's memory is still there");
  }

  @Test
  void whileServing_itTakesInWhatTheHookSpools() throws Exception {
    try (McpSyncClient client = client("acme/alice")) {
      client.initialize();
      Cli.Result hook =
          new Cli(dir)
              .withStdin(
                  "{\"hook_event_name\":\"UserPromptSubmit\",\"session_id\":\"hooked-1\","
                      + "\"cwd\":\"/home/dev/shop\",\"prompt\":\"Use tabs in the shop service.\"}",
                  "hook",
                  "--scope",
                  "acme/alice",
                  "--embedder",
                  "hashing");
      assertEquals(0, hook.code());
      assertEquals("shop", awaitSession(client, "hooked-1").get("project").asText());
    }
  }

  /** The session {@code id} as memory_sessions lists it, once capture has processed it. */
  private static JsonNode awaitSession(McpSyncClient client, String id) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      for (JsonNode s : ok(client, "memory_sessions", Map.of()).get("sessions")) {
        if (s.get("id").asText().equals(id)) {
          return s;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("memory_sessions never listed " + id);
      }
      Thread.sleep(100);
    }
  }

  private McpSyncClient client(String scope) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ServerParameters params =
        ServerParameters.builder(java)
            .args(
                "-cp",
                System.getProperty("java.class.path"),
                "-Dai.djl.offline=true",
                MemhookCli.class.getName(),
                "mcp",
                "--dir",
                dir.toString(),
                "--scope",
                scope,
                "--embedder",
                "hashing",
                "--drain-interval",
                "1")
            .build();
    return McpClient.sync(new StdioClientTransport(params, McpJsonDefaults.getMapper()))
        .requestTimeout(Duration.ofSeconds(60))
        .initializationTimeout(Duration.ofSeconds(60))
        .build();
  }

  private static JsonNode ok(McpSyncClient client, String tool, Map<String, Object> args)
      throws Exception {
    CallToolResult r = client.callTool(new CallToolRequest(tool, args));
    String text = ((TextContent) r.content().get(0)).text();
    assertFalse(Boolean.TRUE.equals(r.isError()), tool + ": " + text);
    return JsonRecords.MAPPER.readTree(text);
  }

  private static void error(
      McpSyncClient client, String tool, Map<String, Object> args, String expected) {
    CallToolResult r = client.callTool(new CallToolRequest(tool, args));
    String text = ((TextContent) r.content().get(0)).text();
    assertTrue(Boolean.TRUE.equals(r.isError()), tool + " should fail: " + text);
    assertTrue(text.contains(expected), tool + ": " + text);
  }
}
