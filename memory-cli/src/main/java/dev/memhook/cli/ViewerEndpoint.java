package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.memhook.api.ForgetMode;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.cli.ViewerPages.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The viewer of {@code memhook serve}, under {@code /view/}: server-rendered pages of the captured
 * sessions, the memories, search with its explanation, the recent injection receipts, and forget
 * with confirmation, styled by one static style sheet and usable without script.
 *
 * <ul>
 *   <li>{@code GET /view/login?token=CODE}: spends a one-time login code ({@link ViewerAccess}),
 *       sets the session cookie and redirects to {@code /view/} (303), so the code leaves the
 *       address bar;
 *   <li>{@code POST /view/login-url} with {@code Authorization: Bearer TOKEN}: {@code
 *       {"url":"http://127.0.0.1:PORT/view/login?token=CODE"}}, a new code, for {@code memhook
 *       view};
 *   <li>with the session cookie: {@code GET /view/} (sessions), {@code /view/session?id=}, {@code
 *       /view/memories?scope=&type=}, {@code /view/memory?id=}, {@code
 *       /view/search?q=&scope=&limit=}, {@code /view/receipts}, {@code /view/forget?id=} (the
 *       confirmation), {@code /view/viewer.css}; and {@code POST /view/forget} (id, mode, csrf).
 * </ul>
 *
 * Every request must come from a loopback address and name this server in its {@code Host} (else
 * 403); every page but the login needs the session cookie (else 401); a POST that changes the store
 * needs a same-origin {@code Origin} and the session's CSRF token (else 403). Every response sends
 * {@code Content-Security-Policy: default-src 'self'}, {@code X-Frame-Options: DENY}, {@code
 * Referrer-Policy: no-referrer}, {@code X-Content-Type-Options: nosniff} and {@code Cache-Control:
 * no-store}; the forget confirmation alone says {@code Referrer-Policy: same-origin}, because under
 * {@code no-referrer} a browser sends its form's POST with {@code Origin: null}.
 *
 * <p>Thread-safe: requests run on the server's threads; the parts it holds are thread-safe.
 */
final class ViewerEndpoint implements HttpHandler {
  /** The path the viewer is mounted under. */
  static final String PREFIX = "/view";

  /** The largest form body read; a forget's form is a few hundred bytes. */
  static final int MAX_FORM_BYTES = 16 * 1024;

  private static final String CSS = "text/css; charset=utf-8";
  private static final String HTML = "text/html; charset=utf-8";

  private final ViewerAccess access;
  private final ViewerPages pages;
  private final ViewerRecall recall;
  private final ViewerForget forget;
  private final HookLog log;
  private final byte[] css;

  /**
   * @param actor who forgets, for the audit record: the user the server runs as
   */
  ViewerEndpoint(MemoryService memory, ViewerAccess access, String actor, HookLog log) {
    this.access = Objects.requireNonNull(access, "access");
    this.pages = new ViewerPages(memory);
    this.recall = new ViewerRecall(memory);
    this.forget = new ViewerForget(memory, pages, actor);
    this.log = Objects.requireNonNull(log, "log");
    try (InputStream in = ViewerEndpoint.class.getResourceAsStream("viewer.css")) {
      if (in == null) {
        throw new IllegalStateException("viewer.css is missing from the memhook jar");
      }
      this.css = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("reading viewer.css from the memhook jar failed", e);
    }
  }

  /** Serves the viewer on {@code http} under {@value #PREFIX}; call before the server starts. */
  void mount(HttpServer http) {
    http.createContext(PREFIX, this);
  }

  @Override
  public void handle(HttpExchange x) throws IOException {
    try {
      secure(x);
      if (!HookServer.admits(x.getRemoteAddress().getAddress())) {
        send(x, Reply.problem(403, "only loopback clients are served"));
        return;
      }
      String host = x.getRequestHeaders().getFirst("Host");
      if (!access.hostAllowed(host)) {
        // a page of another site whose name now resolves to 127.0.0.1 (DNS rebinding) says its own
        // name here; so does anything that did not come through the URL this server printed
        send(
            x,
            Reply.problem(403, "this server answers to 127.0.0.1 or localhost with its port only"));
        return;
      }
      String path = x.getRequestURI().getPath();
      String method = x.getRequestMethod();
      if (!path.equals(PREFIX) && !path.startsWith(PREFIX + "/")) {
        send(x, Reply.problem(404, "no such page: " + path));
        return;
      }
      Map<String, String> query = Html.params(x.getRequestURI().getRawQuery());
      if (path.equals("/view/login-url") && method.equals("POST")) {
        loginUrl(x);
        return;
      }
      if (path.equals("/view/login") && method.equals("GET")) {
        login(x, query.get("token"));
        return;
      }
      Optional<ViewerAccess.Session> session =
          access.session(x.getRequestHeaders().getFirst("Cookie"));
      if (session.isEmpty()) {
        send(
            x,
            Reply.problem(
                401,
                "not logged in: open the login URL memhook serve printed, or run memhook view"
                    + " for a new one"));
        return;
      }
      switch (method) {
        case "GET" -> get(x, path, query, session.get());
        case "POST" -> post(x, path, host, session.get());
        default -> send(x, Reply.problem(405, "the viewer answers GET and POST only"));
      }
    } catch (IllegalArgumentException e) {
      send(x, Reply.problem(400, e.getMessage()));
    } catch (IOException | RuntimeException e) {
      log.warn("a viewer request failed: " + e);
      send(x, Reply.problem(500, "the request failed; see hook.log"));
    } finally {
      x.close();
    }
  }

  private void get(
      HttpExchange x, String path, Map<String, String> query, ViewerAccess.Session session)
      throws IOException {
    switch (path) {
      case "/view", "/view/" -> send(x, pages.sessions());
      case "/view/viewer.css" -> send(x, 200, CSS, css);
      case "/view/session" -> send(x, pages.session(required(query, "id")));
      case "/view/memories" ->
          send(x, pages.memories(optionalScope(query.get("scope")), type(query.get("type"))));
      case "/view/memory" -> send(x, pages.memory(new MemoryId(required(query, "id"))));
      case "/view/search" ->
          send(
              x,
              recall.search(
                  query.getOrDefault("q", ""),
                  Optional.ofNullable(optionalScope(query.get("scope"))).orElse(Scope.DEFAULT),
                  limit(query.get("limit"))));
      case "/view/receipts" -> send(x, recall.receipts());
      case "/view/forget" -> {
        // the one exception to no-referrer: under it a browser sends "Origin: null" with the
        // page's form POST (the Fetch standard), and the POST needs its own origin; same-origin
        // still sends no referrer to any other site
        x.getResponseHeaders().set("Referrer-Policy", "same-origin");
        send(x, forget.confirm(new MemoryId(required(query, "id")), session.csrf()));
      }
      default -> send(x, Reply.problem(404, "no such page: " + path));
    }
  }

  private void post(HttpExchange x, String path, String host, ViewerAccess.Session session)
      throws IOException {
    if (!path.equals("/view/forget")) {
      send(x, Reply.problem(404, "nothing to POST to at " + path));
      return;
    }
    if (!access.sameOrigin(x.getRequestHeaders().getFirst("Origin"), host)) {
      send(x, Reply.problem(403, "a form of another origin: nothing was forgotten"));
      return;
    }
    byte[] body;
    try (InputStream in = x.getRequestBody()) {
      body = in.readNBytes(MAX_FORM_BYTES + 1);
    }
    if (body.length > MAX_FORM_BYTES) {
      send(x, Reply.problem(413, "the form is over " + MAX_FORM_BYTES + " bytes"));
      return;
    }
    Map<String, String> form = Html.params(new String(body, StandardCharsets.UTF_8));
    if (!session.csrfMatches(form.get("csrf"))) {
      send(
          x,
          Reply.problem(403, "the form's CSRF token is missing or stale: nothing was forgotten"));
      return;
    }
    ForgetMode mode =
        switch (required(form, "mode")) {
          case "with_sources" -> ForgetMode.WITH_SOURCES;
          case "memory_only" -> ForgetMode.MEMORY_ONLY;
          default -> throw new IllegalArgumentException("mode must be with_sources or memory_only");
        };
    send(x, forget.forget(new MemoryId(required(form, "id")), mode));
  }

  private void login(HttpExchange x, String code) throws IOException {
    Optional<ViewerAccess.Session> session = access.login(code);
    if (session.isEmpty()) {
      send(
          x,
          Reply.problem(
              401,
              "this login link was used already or has expired: run memhook view for a new one"));
      return;
    }
    x.getResponseHeaders().add("Set-Cookie", access.cookie(session.get()));
    x.getResponseHeaders().set("Location", "/view/");
    x.sendResponseHeaders(303, -1);
  }

  private void loginUrl(HttpExchange x) throws IOException {
    if (!access.bearerMatches(x.getRequestHeaders().getFirst("Authorization"))) {
      send(
          x,
          Reply.problem(401, "missing or wrong token: send Authorization: Bearer <serve.token>"));
      return;
    }
    ObjectNode n = JsonRecords.MAPPER.createObjectNode();
    n.put("url", access.loginUrl());
    send(x, 200, "application/json", JsonRecords.MAPPER.writeValueAsBytes(n));
  }

  private static String required(Map<String, String> params, String name) {
    String v = params.get(name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException("missing parameter " + name);
    }
    return v;
  }

  private static Scope optionalScope(String value) {
    return value == null || value.isBlank() ? null : new Scope(value.strip());
  }

  private static MemoryType type(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return MemoryType.valueOf(value.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("no memory type " + value, e);
    }
  }

  private static int limit(String value) {
    if (value == null || value.isBlank()) {
      return RecallQuery.DEFAULT_LIMIT;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("limit must be a number, got " + value, e);
    }
  }

  /** The headers every viewer response carries, refusals included. */
  private static void secure(HttpExchange x) {
    var h = x.getResponseHeaders();
    h.set("Content-Security-Policy", "default-src 'self'");
    h.set("X-Frame-Options", "DENY");
    h.set("Referrer-Policy", "no-referrer");
    h.set("X-Content-Type-Options", "nosniff");
    h.set("Cache-Control", "no-store");
  }

  private static void send(HttpExchange x, Reply reply) throws IOException {
    send(x, reply.status(), HTML, reply.html().getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange x, int status, String type, byte[] body)
      throws IOException {
    x.getResponseHeaders().set("Content-Type", type);
    x.sendResponseHeaders(status, body.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(body);
    }
  }
}
