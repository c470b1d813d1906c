package dev.memhook.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.spec.HttpHeaders;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Mono;

/**
 * {@code POST /mcp?scope=SCOPE} of {@code memhook serve}: the memory tools of {@code memhook mcp}
 * ({@link McpTools}) over MCP's Streamable HTTP transport, on the JDK's server that {@link
 * HookServer} runs, served by the SDK's stateless server ({@link McpStatelessSyncServer}), one
 * instance for every scope: a request's tools work in the scope its URL names (the default scope
 * without one), which travels to them in the request's {@link McpTransportContext}.
 *
 * <h2>Design note</h2>
 *
 * The SDK's HTTP transports are servlets; this is its {@link McpStatelessServerTransport} written
 * for {@link HttpExchange}. Stateless is enough for these tools: they never call back into the
 * client (no sampling, elicitation or progress) and never notify, so there is nothing to stream and
 * no session to keep; every answer is one JSON body, and a restarted server needs no client to
 * start again. {@link HookServer} checks the caller first (loopback, then the token) and the scope;
 * then, per request, in this order:
 *
 * <ul>
 *   <li>an {@code Origin} header that names no loopback origin: 403, the DNS-rebinding defence the
 *       MCP specification requires (clients that are no browser send none);
 *   <li>a method other than POST: 405 with {@code Allow: POST}; there is no server-initiated stream
 *       to GET and no session to DELETE;
 *   <li>an {@code MCP-Protocol-Version} the SDK does not speak: 400;
 *   <li>a {@code Content-Type} that is not JSON: 415;
 *   <li>a body over {@link HookCommand#MAX_INPUT_BYTES}: 413, the hook endpoint's bound;
 *   <li>a body that is not one JSON value in UTF-8: 400 with a JSON-RPC parse error ({@code
 *       -32700}); one JSON value that is no JSON-RPC message (an array: MCP has no batches since
 *       its 2025-06-18 revision): 400 with {@code -32600};
 *   <li>a request whose {@code params} its method cannot take ({@link McpParams}): 200 with a
 *       JSON-RPC invalid params error ({@code -32602}) and the request's id;
 *   <li>a request: 200, {@code application/json}, its response; a notification or a response: 202
 *       with no body.
 * </ul>
 *
 * JSON-RPC errors answered here have {@code "id":null} (or the request's id, for a failure while it
 * was handled) and a message that never quotes the body, which may hold a secret. The {@code
 * Accept} header is not checked: the answer is always JSON, which every client must accept.
 *
 * <p>Thread-safe: requests run on {@link HookServer}'s pool, each handled on its own thread from
 * start to end ({@code immediateExecution}). {@link #close()} is idempotent; a request that comes
 * after it is answered 503.
 */
final class McpHttpEndpoint implements McpStatelessServerTransport, AutoCloseable {
  /** The path served. */
  static final String PATH = "/mcp";

  private static final ObjectReader ONE_VALUE =
      JsonRecords.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final McpJsonMapper mapper;
  private final HookLog log;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile McpStatelessServerHandler handler;
  private McpStatelessSyncServer server;

  private McpHttpEndpoint(McpJsonMapper mapper, HookLog log) {
    this.mapper = mapper;
    this.log = log;
  }

  /**
   * The endpoint serving {@link McpTools} over {@code memory}, which stays the caller's, as MCP
   * server {@code memhook} of {@code version}.
   */
  static McpHttpEndpoint serving(MemoryService memory, HookLog log, String version) {
    McpHttpEndpoint endpoint =
        new McpHttpEndpoint(McpJsonDefaults.getMapper(), Objects.requireNonNull(log, "log"));
    endpoint.server =
        McpServer.sync(endpoint)
            .serverInfo("memhook", Objects.requireNonNull(version, "version"))
            .instructions(McpTools.instructions("the project this server's URL names (?scope=)"))
            .capabilities(ServerCapabilities.builder().tools(false).build())
            .immediateExecution(true)
            .tools(new McpTools(memory).perRequest())
            .build();
    return endpoint;
  }

  @Override
  public void setMcpHandler(McpStatelessServerHandler handler) {
    this.handler = Objects.requireNonNull(handler, "handler");
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(() -> closed.set(true));
  }

  @Override
  public void close() {
    if (!closed.getAndSet(true) && server != null) {
      server.close();
    }
  }

  /** Answers {@code x}, a request to {@link #PATH} already admitted, in {@code scope}. */
  void exchange(HttpExchange x, Scope scope) throws IOException {
    String origin = x.getRequestHeaders().getFirst("Origin");
    if (origin != null && !loopbackOrigin(origin)) {
      refuse(x, 403, McpSchema.ErrorCodes.INVALID_REQUEST, "Forbidden: Origin is not loopback");
      return;
    }
    if (!x.getRequestMethod().equals("POST")) {
      x.getResponseHeaders().set("Allow", "POST");
      refuse(
          x,
          405,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "Method not allowed: POST JSON-RPC messages to "
              + PATH
              + "; this server opens no stream");
      return;
    }
    if (closed.get() || handler == null) {
      refuse(x, 503, McpSchema.ErrorCodes.INTERNAL_ERROR, "The server is shutting down");
      return;
    }
    String version = x.getRequestHeaders().getFirst(HttpHeaders.PROTOCOL_VERSION);
    if (version != null && !protocolVersions().contains(version)) {
      refuse(
          x,
          400,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "Bad request: unsupported "
              + HttpHeaders.PROTOCOL_VERSION
              + "; supported: "
              + String.join(", ", protocolVersions()));
      return;
    }
    String type = x.getRequestHeaders().getFirst("Content-Type");
    if (type != null && !type.toLowerCase(Locale.ROOT).trim().startsWith("application/json")) {
      refuse(
          x,
          415,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "Unsupported media type: Content-Type must be application/json");
      return;
    }
    byte[] body;
    try (InputStream in = x.getRequestBody()) {
      body = in.readNBytes(HookCommand.MAX_INPUT_BYTES + 1);
    }
    if (body.length > HookCommand.MAX_INPUT_BYTES) {
      refuse(
          x,
          413,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "Payload too large: a message is at most " + HookCommand.MAX_INPUT_BYTES + " bytes");
      return;
    }
    String text;
    JsonNode tree;
    try {
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
      tree = ONE_VALUE.readTree(text);
    } catch (CharacterCodingException | JsonProcessingException e) {
      tree = null;
      text = null;
    }
    if (tree == null || tree.isMissingNode()) { // an empty body reads as a missing node
      refuse(x, 400, McpSchema.ErrorCodes.PARSE_ERROR, "Parse error: the body is not JSON");
      return;
    }
    JSONRPCMessage message = message(tree, text);
    if (message == null) {
      refuse(
          x,
          400,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "Invalid request: the body is not one JSON-RPC 2.0 message (batches are not supported)");
      return;
    }
    McpTransportContext context = McpTools.context(scope);
    if (message instanceof JSONRPCRequest request) {
      String unfit = McpParams.problem(mapper, request);
      if (unfit != null) {
        send(
            x,
            200,
            errorBody(
                request.id(), McpSchema.ErrorCodes.INVALID_PARAMS, "Invalid params: " + unfit));
        return;
      }
      JSONRPCResponse response;
      try {
        response =
            handler
                .handleRequest(context, request)
                .contextWrite(c -> c.put(McpTransportContext.KEY, context))
                .block();
      } catch (RuntimeException e) {
        log.warn("an MCP request (" + request.method() + ") failed: " + e);
        send(
            x, 500, errorBody(request.id(), McpSchema.ErrorCodes.INTERNAL_ERROR, "Internal error"));
        return;
      }
      send(x, 200, mapper.writeValueAsString(response).getBytes(StandardCharsets.UTF_8));
    } else if (message instanceof JSONRPCNotification notification) {
      try {
        handler
            .handleNotification(context, notification)
            .contextWrite(c -> c.put(McpTransportContext.KEY, context))
            .block();
      } catch (RuntimeException e) {
        log.warn("an MCP notification (" + notification.method() + ") failed: " + e);
      }
      accepted(x);
    } else {
      accepted(x); // a response: this server sends no requests, so none is awaited
    }
  }

  /** The message {@code tree} (the JSON {@code text}) holds, or null if it is none. */
  private JSONRPCMessage message(JsonNode tree, String text) {
    if (!(tree instanceof ObjectNode object) || !"2.0".equals(object.path("jsonrpc").asText(""))) {
      return null;
    }
    JsonNode id = object.get("id");
    if (id != null && !id.isTextual() && !id.isIntegralNumber()) {
      return null;
    }
    if (object.has("method") && !object.get("method").isTextual()) {
      return null;
    }
    try {
      return McpSchema.deserializeJsonRpcMessage(mapper, text);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Whether {@code origin} is a loopback one: {@code http(s)://} {@code localhost}, a {@code
   * 127.0.0.0/8} address or {@code [::1]}, with any port.
   */
  static boolean loopbackOrigin(String origin) {
    URI uri;
    try {
      uri = new URI(origin.trim());
    } catch (URISyntaxException e) {
      return false;
    }
    String scheme = uri.getScheme();
    String host = uri.getHost();
    if (host == null
        || scheme == null
        || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
      return false; // "null" (a sandboxed page), file:, and the like
    }
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    String literal = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    if (!literal.matches("[0-9.]+|[0-9a-fA-F:]+")) {
      return false; // a name other than localhost: never resolved
    }
    try {
      return InetAddress.getByName(literal).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /**
   * A JSON-RPC error response, written here rather than by the SDK, whose responses cannot carry
   * the {@code "id":null} JSON-RPC prescribes for a message that could not be read.
   */
  private static byte[] errorBody(Object id, int code, String message) throws IOException {
    ObjectNode reply = JsonRecords.MAPPER.createObjectNode();
    reply.put("jsonrpc", "2.0");
    reply.set("id", JsonRecords.MAPPER.valueToTree(id));
    reply.putObject("error").put("code", code).put("message", message);
    return JsonRecords.MAPPER.writeValueAsBytes(reply);
  }

  private static void refuse(HttpExchange x, int status, int code, String message)
      throws IOException {
    send(x, status, errorBody(null, code, message));
  }

  private static void send(HttpExchange x, int status, byte[] json) throws IOException {
    x.getResponseHeaders().set("Content-Type", "application/json");
    x.sendResponseHeaders(status, json.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(json);
    }
  }

  private static void accepted(HttpExchange x) throws IOException {
    x.sendResponseHeaders(202, -1);
  }
}
