package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /mcp} of {@link HookServer} in process, on a real store and a real loopback socket,
 * driven by a raw HTTP client: the MCP exchange, scope binding per request, each rule of the
 * Streamable HTTP transport, secrets through {@code memory_remember}, and the SDK's own client.
 */
class McpHttpTest {
  private static final String TOKEN = "ef".repeat(32);
  private static final String ALICE = "acme/alice";
  private static final String BOB = "acme/bob";

  @TempDir Path dir;
  private MemoryService memory;
  private InProcessServer running;
  private HookServer server;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final HttpClient client = HttpClient.newHttpClient();
  private int nextId = 1;

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
  void initialize_listTools_andCalls_workInTheScopeOfTheirUrl_only() throws Exception {
    HttpResponse<String> init = rpc(ALICE, request("initialize", initializeParams()));
    assertEquals(200, init.statusCode(), init.body());
    assertEquals("application/json", init.headers().firstValue("Content-Type").orElseThrow());
    JsonNode result = json(init).get("result");
    assertEquals("2025-06-18", result.get("protocolVersion").asText());
    assertEquals("memhook", result.at("/serverInfo/name").asText());
    assertTrue(result.at("/capabilities/tools").isObject(), init.body());

    HttpResponse<String> initialized = rpc(ALICE, notification("notifications/initialized"));
    assertEquals(202, initialized.statusCode());
    assertEquals("", initialized.body());

    JsonNode tools = json(rpc(ALICE, request("tools/list", mapper().createObjectNode())));
    List<String> names = new ArrayList<>();
    tools.at("/result/tools").forEach(t -> names.add(t.get("name").asText()));
    assertEquals(
        List.of(
            "memory_recall",
            "get_memory",
            "memory_remember",
            "memory_forget",
            "memory_sessions",
            "memory_observe"),
        names);

    JsonNode remembered =
        call(
            ALICE,
            "memory_remember",
            Map.of("content", "The invoice service retries three times with backoff."));
    String id = remembered.get("id").asText();
    assertEquals(1, memory.maintenance().count(new Scope(ALICE)));
    assertEquals(0, memory.maintenance().count(new Scope(BOB)));

    JsonNode aliceRecall = call(ALICE, "memory_recall", Map.of("query", "invoice service retries"));
    assertEquals(id, aliceRecall.at("/memories/0/id").asText(), aliceRecall.toString());
    JsonNode bobRecall = call(BOB, "memory_recall", Map.of("query", "invoice service retries"));
    assertEquals(0, bobRecall.get("memories").size(), "bob's scope does not see alice's memory");

    JsonNode aliceGet = call(ALICE, "get_memory", Map.of("ids", List.of(id)));
    assertEquals(id, aliceGet.at("/memories/0/id").asText());
    JsonNode bobGet = call(BOB, "get_memory", Map.of("ids", List.of(id)));
    assertEquals(0, bobGet.get("memories").size());
    assertEquals(id, bobGet.at("/notFound/0").asText());

    CallToolResult escape =
        callResult(BOB, "memory_recall", Map.of("query", "invoice", "scope", ALICE));
    assertTrue(escape.isError(), "a scope argument cannot leave the URL's scope");
    assertTrue(text(escape).contains("bound to scope acme/bob"), text(escape));

    JsonNode defaultRecall = call(null, "memory_recall", Map.of("query", "invoice retries"));
    assertEquals(0, defaultRecall.get("memories").size(), "without ?scope= the default scope");
  }

  @Test
  void notificationsAndResponses_areAccepted202_withNoBody() throws Exception {
    HttpResponse<String> note = rpc(ALICE, notification("notifications/initialized"));
    assertEquals(202, note.statusCode());
    assertEquals("", note.body());
    ObjectNode response = mapper().createObjectNode().put("jsonrpc", "2.0").put("id", 7);
    response.putObject("result");
    HttpResponse<String> answered = rpc(ALICE, response.toString());
    assertEquals(202, answered.statusCode());
    assertEquals("", answered.body());
  }

  @Test
  void aMalformedBody_isAParseError400_andTheServerGoesOnServing() throws Exception {
    for (String bad : List.of("hello", "{\"jsonrpc\":\"2.0\",", "{} {}", "")) {
      HttpResponse<String> r = rpc(ALICE, bad);
      assertEquals(400, r.statusCode(), bad);
      JsonNode e = json(r);
      assertEquals(-32700, e.at("/error/code").asInt(), r.body());
      assertTrue(e.get("id").isNull(), r.body());
    }
    HttpResponse<String> batch = rpc(ALICE, "[" + request("tools/list", null) + "]");
    assertEquals(400, batch.statusCode());
    assertEquals(-32600, json(batch).at("/error/code").asInt(), "no batches: invalid request");
    HttpResponse<String> noVersion = rpc(ALICE, "{\"id\":1,\"method\":\"tools/list\"}");
    assertEquals(400, noVersion.statusCode());
    assertEquals(-32600, json(noVersion).at("/error/code").asInt());

    HttpResponse<String> init = rpc(ALICE, request("initialize", initializeParams()));
    assertEquals(200, init.statusCode(), "still serving: " + init.body());
  }

  @Test
  void paramsOfTheWrongShape_areInvalidParams_neverQuoted() throws Exception {
    String secret = "hunter2-" + "z".repeat(12);
    List<String> bodies =
        List.of(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":\""
                + secret
                + "\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"memory_recall\",\"arguments\":\""
                + secret
                + "\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"capabilities\":\""
                + secret
                + "\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[\"" + secret + "\"]}");
    for (String body : bodies) {
      HttpResponse<String> r = rpc(ALICE, body);
      assertEquals(200, r.statusCode(), body + " -> " + r.body());
      assertEquals(-32602, json(r).at("/error/code").asInt(), r.body());
      assertEquals(1, json(r).get("id").asInt(), r.body());
      assertFalse(r.body().contains(secret), "never quoted: " + r.body());
    }
    Path log = dir.resolve(HookLog.FILE);
    assertFalse(
        Files.exists(log) && Files.readString(log).contains("hunter2"),
        "the log does not quote it either");
    HttpResponse<String> init = rpc(ALICE, request("initialize", initializeParams()));
    assertEquals(200, init.statusCode(), "still serving: " + init.body());
  }

  @Test
  void getAndDelete_areRefused405_allowingPost() throws Exception {
    for (String method : List.of("GET", "DELETE", "PUT")) {
      HttpResponse<String> r =
          send(
              authorized(mcp(ALICE))
                  .method(method, HttpRequest.BodyPublishers.noBody())
                  .header("Accept", "text/event-stream")
                  .build());
      assertEquals(405, r.statusCode(), method);
      assertEquals("POST", r.headers().firstValue("Allow").orElseThrow(), method);
    }
  }

  @Test
  void aNonLoopbackOrigin_isRefused403_aLoopbackOneIsServed() throws Exception {
    for (String origin :
        List.of("https://evil.example", "http://127.0.0.1.evil.example:7373", "null")) {
      HttpResponse<String> r =
          send(post(ALICE, request("tools/list", null)).header("Origin", origin).build());
      assertEquals(403, r.statusCode(), origin);
    }
    for (String origin :
        List.of("http://127.0.0.1:7373", "http://localhost", "http://[::1]:8080")) {
      HttpResponse<String> r =
          send(post(ALICE, request("tools/list", null)).header("Origin", origin).build());
      assertEquals(200, r.statusCode(), origin + ": " + r.body());
    }
    assertFalse(McpHttpEndpoint.loopbackOrigin("file://"));
    assertFalse(McpHttpEndpoint.loopbackOrigin("http://10.0.0.7"));
    assertTrue(McpHttpEndpoint.loopbackOrigin("http://127.8.9.10:1"));
  }

  @Test
  void theTokenIsRequired_asForEveryEndpoint() throws Exception {
    String body = request("tools/list", null);
    HttpResponse<String> missing = send(mcp(ALICE).POST(publish(body)).build());
    assertEquals(401, missing.statusCode());
    HttpResponse<String> wrong =
        send(
            mcp(ALICE)
                .header("Authorization", "Bearer " + "00".repeat(32))
                .POST(publish(body))
                .build());
    assertEquals(401, wrong.statusCode());
    assertEquals(200, rpc(ALICE, body).statusCode());
  }

  @Test
  void aBodyOverTheLimit_isRefused413() throws Exception {
    String huge =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"pad\":\""
            + "x".repeat(HookCommand.MAX_INPUT_BYTES)
            + "\"}}";
    HttpResponse<String> r = rpc(ALICE, huge);
    assertEquals(413, r.statusCode());
    assertEquals(200, rpc(ALICE, request("tools/list", null)).statusCode());
  }

  @Test
  void anUnsupportedProtocolVersion_is400_andABodyThatIsNotJson_is415() throws Exception {
    HttpResponse<String> version =
        send(
            post(ALICE, request("tools/list", null))
                .header("MCP-Protocol-Version", "1999-01-01")
                .build());
    assertEquals(400, version.statusCode());
    assertTrue(json(version).at("/error/message").asText().contains("2025-06-18"));
    HttpResponse<String> known =
        send(
            post(ALICE, request("tools/list", null))
                .header("MCP-Protocol-Version", "2025-06-18")
                .build());
    assertEquals(200, known.statusCode());
    HttpResponse<String> form =
        send(
            authorized(mcp(ALICE))
                .header("Content-Type", "text/plain")
                .POST(publish(request("tools/list", null)))
                .build());
    assertEquals(415, form.statusCode());
  }

  @Test
  void secretsThroughRemember_reachNoFileUnderTheStoreDirectory() throws Exception {
    String everywhere =
        "deploy with AWS_ACCESS_KEY_ID="
            + PlantedSecrets.AWS_KEY_ID
            + " AWS_SECRET_ACCESS_KEY="
            + PlantedSecrets.AWS_SECRET
            + " password="
            + PlantedSecrets.PASSWORD
            + " token "
            + PlantedSecrets.GITHUB_TOKEN;
    JsonNode remembered =
        call(
            ALICE,
            "memory_remember",
            Map.of(
                "content",
                everywhere,
                "title",
                "Deploy with password=" + PlantedSecrets.PASSWORD,
                "summary",
                everywhere,
                "concepts",
                List.of(PlantedSecrets.GITHUB_TOKEN),
                "files",
                List.of("config/" + PlantedSecrets.AWS_KEY_ID + ".env")));
    PlantedSecrets.assertNoneIn("the tool's answer", remembered.toString());
    Memory m =
        memory
            .scoped(new Scope(ALICE))
            .get(MemoryId.of(remembered.get("id").asText()))
            .orElseThrow();
    PlantedSecrets.assertNoneIn("the memory", PlantedSecrets.memoryText(m));
    server.close();
    memory.close();
    memory = null;
    PlantedSecrets.assertNoneUnder(dir, "after remember over /mcp and a clean close");
    PlantedSecrets.assertNoneIn("standard error", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theSdksOwnStreamableHttpClient_initializesAndCallsATool() throws Exception {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
            .endpoint("/mcp?scope=" + ALICE)
            .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + TOKEN))
            .build();
    try (McpSyncClient sdk =
        McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
      InitializeResult init = sdk.initialize();
      assertEquals("memhook", init.serverInfo().name());
      assertEquals(6, sdk.listTools().tools().size());
      CallToolResult r =
          sdk.callTool(
              new CallToolRequest(
                  "memory_remember", Map.of("content", "Builds run with Java 17 and Maven.")));
      assertFalse(r.isError(), text(r));
      CallToolResult recall =
          sdk.callTool(new CallToolRequest("memory_recall", Map.of("query", "Java Maven builds")));
      assertTrue(text(recall).contains("Java 17"), text(recall));
    }
    assertEquals(1, memory.maintenance().count(new Scope(ALICE)));
  }

  // ---- helpers

  private JsonNode call(String scope, String tool, Map<String, Object> args) throws Exception {
    CallToolResult r = callResult(scope, tool, args);
    assertFalse(Boolean.TRUE.equals(r.isError()), text(r));
    return mapper().readTree(text(r));
  }

  private CallToolResult callResult(String scope, String tool, Map<String, Object> args)
      throws Exception {
    ObjectNode params = mapper().createObjectNode().put("name", tool);
    params.set("arguments", mapper().valueToTree(args));
    HttpResponse<String> r = rpc(scope, request("tools/call", params));
    assertEquals(200, r.statusCode(), r.body());
    JsonNode result = json(r).get("result");
    assertTrue(result != null, r.body());
    return new CallToolResult(
        List.of(new TextContent(result.at("/content/0/text").asText())),
        result.path("isError").asBoolean(false),
        null,
        null);
  }

  private static String text(CallToolResult r) {
    return ((TextContent) r.content().get(0)).text();
  }

  private String request(String method, JsonNode params) {
    ObjectNode n =
        mapper().createObjectNode().put("jsonrpc", "2.0").put("id", nextId++).put("method", method);
    if (params != null) {
      n.set("params", params);
    }
    return n.toString();
  }

  private static String notification(String method) {
    return mapper().createObjectNode().put("jsonrpc", "2.0").put("method", method).toString();
  }

  private static ObjectNode initializeParams() {
    ObjectNode p = mapper().createObjectNode().put("protocolVersion", "2025-06-18");
    p.putObject("capabilities");
    p.putObject("clientInfo").put("name", "raw-test").put("version", "1");
    return p;
  }

  private HttpResponse<String> rpc(String scope, String body) throws Exception {
    return send(post(scope, body).build());
  }

  private HttpRequest.Builder post(String scope, String body) {
    return authorized(mcp(scope))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(publish(body));
  }

  private HttpRequest.Builder mcp(String scope) {
    String query = scope == null ? "" : "?scope=" + scope;
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp" + query))
        .timeout(Duration.ofSeconds(30));
  }

  private static HttpRequest.Builder authorized(HttpRequest.Builder b) {
    return b.header("Authorization", "Bearer " + TOKEN);
  }

  private static HttpRequest.BodyPublisher publish(String body) {
    return HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8);
  }

  private HttpResponse<String> send(HttpRequest r) throws Exception {
    return client.send(r, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static JsonNode json(HttpResponse<String> r) throws IOException {
    return mapper().readTree(r.body());
  }

  private static com.fasterxml.jackson.databind.ObjectMapper mapper() {
    return JsonRecords.MAPPER;
  }
}
