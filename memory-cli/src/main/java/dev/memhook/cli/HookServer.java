package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The HTTP face of {@code memhook serve}: the JDK's own server ({@code jdk.httpserver}) on a
 * loopback address, answering
 *
 * <ul>
 *   <li>{@code POST /hook?scope=SCOPE[&agent=NAME&event=NAME]}: one hook event, as {@code memhook
 *       hook} reads it on standard input (with {@code --agent} and {@code --event}: {@link
 *       HookOrigin}, 400 for an unknown agent); 200 with what {@code memhook hook} would print, or
 *       {@code {}} when it prints nothing. The 200 is sent only after the event was accepted
 *       (journaled by capture, or spooled), so that it survives a SIGKILL from then on; a body over
 *       {@link HookCommand#MAX_INPUT_BYTES} is refused with 413, and an event that could not be
 *       kept with 500;
 *   <li>{@code POST /cli}: a {@code memhook} command run on the server's store ({@link
 *       CliEndpoint});
 *   <li>{@code GET /health?scope=SCOPE}: {@code {"status":"ok","pid":…,"memories":…,"version":…}},
 *       the memories counted in the scope;
 *   <li>{@code POST /mcp?scope=SCOPE}: the memory tools of {@code memhook mcp} over MCP's
 *       Streamable HTTP transport, working in that scope ({@link McpHttpEndpoint}).
 * </ul>
 *
 * Every request must come from a loopback address (else 403) and carry {@code Authorization: Bearer
 * TOKEN} (else 401); the token is compared in constant time. Error bodies are {@code
 * {"error":"…"}}, but {@code /mcp}'s own, which are JSON-RPC errors. Before an event is captured,
 * the spool is taken in if it holds anything (written by {@code memhook hook} or a fallback while
 * no server ran), one drain at a time.
 *
 * <p>The viewer under {@code /view} is its own context on the same server ({@link ViewerEndpoint}),
 * with its own rules for a browser.
 *
 * <p>Thread-safe: requests run on a small pool of named daemon threads. {@link #close()} stops
 * taking requests, lets those under way finish, and is idempotent; the store stays the caller's.
 */
final class HookServer implements AutoCloseable {
  /** How many requests run at once; more wait in the connection backlog. */
  static final int THREADS = 4;

  private final HttpServer http;
  private final ExecutorService pool;
  private final MemoryService memory;
  private final AgentEvents events;
  private final HookLog log;
  private final McpHttpEndpoint mcp;
  private final byte[] expectedAuthorization;
  private final String version;
  private final CliEndpoint cli;
  private final ReentrantLock draining = new ReentrantLock();
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * Starts serving on {@code http}, which is bound but not started.
   *
   * @param token the access token every request must carry
   */
  HookServer(
      HttpServer http,
      MemoryService memory,
      AgentEvents events,
      HookLog log,
      String token,
      String version) {
    this.http = Objects.requireNonNull(http, "http");
    this.memory = Objects.requireNonNull(memory, "memory");
    this.events = Objects.requireNonNull(events, "events");
    this.log = Objects.requireNonNull(log, "log");
    this.expectedAuthorization = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    this.version = Objects.requireNonNull(version, "version");
    this.mcp = McpHttpEndpoint.serving(memory, log, version);
    this.cli = new CliEndpoint(events.directory(), memory, version);
    AtomicInteger n = new AtomicInteger();
    this.pool =
        Executors.newFixedThreadPool(
            THREADS,
            r -> {
              Thread t = new Thread(r, "memhook-serve-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    http.setExecutor(pool);
    http.createContext("/", this::exchange);
    http.start();
  }

  /** The port it listens on. */
  int port() {
    return http.getAddress().getPort();
  }

  /**
   * Takes in the spool, if no other request is doing so: before a request's own event, so that
   * events spooled while no server ran keep their order, and once at start.
   */
  void drainSpool(Scope scope) {
    if (!draining.tryLock()) {
      return; // another request is taking it in; it reads what this one would
    }
    try {
      if (!events.spool().isEmpty()) {
        events.spool().drain(memory, scope, log);
      }
    } catch (IOException | RuntimeException e) {
      log.warn("taking in the hook spool failed: " + e);
    } finally {
      draining.unlock();
    }
  }

  /** Whether a request from {@code address} may be served: loopback only. */
  static boolean admits(InetAddress address) {
    return address != null && address.isLoopbackAddress();
  }

  /** Whether {@code authorization} is the expected header, compared in constant time. */
  boolean authorized(String authorization) {
    byte[] given =
        authorization == null ? new byte[0] : authorization.getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(given, expectedAuthorization);
  }

  private void exchange(HttpExchange x) throws IOException {
    try {
      if (!admits(x.getRemoteAddress().getAddress())) {
        error(x, 403, "only loopback clients are served");
        return;
      }
      if (!authorized(x.getRequestHeaders().getFirst("Authorization"))) {
        error(x, 401, "missing or wrong token: send Authorization: Bearer <serve.token>");
        return;
      }
      String path = x.getRequestURI().getPath();
      String method = x.getRequestMethod();
      Scope scope;
      try {
        scope = scope(x.getRequestURI().getRawQuery());
      } catch (IllegalArgumentException e) {
        error(x, 400, e.getMessage());
        return;
      }
      switch (path) {
        case "/hook" -> {
          if (method.equals("POST")) {
            hook(x, scope);
          } else {
            error(x, 405, "POST a hook event to /hook");
          }
        }
        case "/cli" -> cli.handle(x);
        case "/health" -> {
          if (method.equals("GET")) {
            health(x, scope);
          } else {
            error(x, 405, "GET /health");
          }
        }
        case McpHttpEndpoint.PATH -> mcp.exchange(x, scope);
        default ->
            error(
                x,
                404,
                "no such endpoint: " + path + " (POST /hook, POST /mcp, POST /cli, GET /health)");
      }
    } catch (IOException | RuntimeException e) {
      log.warn("a request failed: " + e);
      throw e;
    } finally {
      x.close();
    }
  }

  private void hook(HttpExchange x, Scope scope) throws IOException {
    byte[] body;
    try (InputStream in = x.getRequestBody()) {
      body = in.readNBytes(HookCommand.MAX_INPUT_BYTES + 1);
    }
    if (body.length > HookCommand.MAX_INPUT_BYTES) {
      error(x, 413, "the hook event is over " + HookCommand.MAX_INPUT_BYTES + " bytes");
      return;
    }
    HookOrigin origin;
    try {
      origin = HookOrigin.fromQuery(x.getRequestURI().getRawQuery());
    } catch (IllegalArgumentException e) {
      error(x, 400, e.getMessage()); // an unknown agent: the hook's configuration is wrong
      return;
    }
    Optional<AgentEvents.Event> read;
    try {
      read = events.read(body, origin);
    } catch (IllegalArgumentException e) {
      log.warn(e.getMessage()); // as memhook hook: reported, and the agent's step goes on
      read = Optional.empty();
    }
    if (read.isEmpty()) {
      json(x, 200, JsonRecords.MAPPER.createObjectNode());
      return;
    }
    AgentEvents.Event event = read.get();
    drainSpool(scope);
    try {
      events.capture(memory, event, scope);
    } catch (IOException | RuntimeException e) {
      log.warn("an event could not be captured or spooled: " + e);
      error(x, 500, "the event could not be kept; see hook.log");
      return;
    }
    ObjectNode answer;
    try {
      answer = events.answer(memory, event, scope).orElseGet(JsonRecords.MAPPER::createObjectNode);
    } catch (IOException | RuntimeException e) {
      // the event is kept; only its answer is lost, as memhook hook loses it
      log.warn(e instanceof CliException ? e.getMessage() : e.toString());
      answer = JsonRecords.MAPPER.createObjectNode();
    }
    json(x, 200, answer);
  }

  private void health(HttpExchange x, Scope scope) throws IOException {
    ObjectNode n = JsonRecords.MAPPER.createObjectNode();
    n.put("status", "ok")
        .put("pid", ProcessHandle.current().pid())
        .put("memories", memory.maintenance().count(scope))
        .put("version", version);
    json(x, 200, n);
  }

  /**
   * The scope a query names ({@code scope=…}), else the default scope.
   *
   * @throws IllegalArgumentException if it names an invalid one
   */
  static Scope scope(String rawQuery) {
    if (rawQuery == null) {
      return Scope.DEFAULT;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      if (key.equals("scope")) {
        return new Scope(
            eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return Scope.DEFAULT;
  }

  private static void error(HttpExchange x, int status, String message) throws IOException {
    ObjectNode n = JsonRecords.MAPPER.createObjectNode();
    n.put("error", message);
    json(x, status, n);
  }

  private static void json(HttpExchange x, int status, ObjectNode body) throws IOException {
    byte[] bytes = JsonRecords.MAPPER.writeValueAsBytes(body);
    x.getResponseHeaders().set("Content-Type", "application/json");
    x.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    if (closed.getAndSet(true)) {
      return;
    }
    http.stop(1);
    mcp.close();
    pool.shutdown();
    try {
      if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
        pool.shutdownNow();
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /** Binds a server to {@code 127.0.0.1:port} (0: any free port), not yet started. */
  static HttpServer bind(int port) throws IOException {
    InetAddress loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    return HttpServer.create(new InetSocketAddress(loopback, port), 64);
  }
}
