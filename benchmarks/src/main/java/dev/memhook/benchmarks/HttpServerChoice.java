package dev.memhook.benchmarks;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * What the HTTP server alone costs a hook request, for {@code memhook serve}'s choice: the JDK's
 * {@code com.sun.net.httpserver} (as {@code HookServer} runs it: four threads) against Jetty 12's
 * core server, each answering {@code {}} to a POST of a tool event's size on {@code 127.0.0.1}. The
 * client opens a new connection per request, as an agent's http hook does. Rounds alternate between
 * the two servers; each round is warmed up first. Prints median and p99 per server and round, in
 * microseconds; the run fails if an answer is not a 200 with {@code {}}.
 *
 * <pre>
 * {@code java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.HttpServerChoice [requests] [rounds]}
 * </pre>
 *
 * Defaults: 5,000 requests, 3 rounds.
 */
public final class HttpServerChoice {
  private static final byte[] EVENT = toolEvent().getBytes(StandardCharsets.UTF_8);

  private HttpServerChoice() {}

  public static void main(String[] args) throws Exception {
    int requests =
        CommandLine.parseOrExit(
            a -> a.length > 0 ? CommandLine.count("requests", a[0]) : 5_000, args);
    int rounds =
        CommandLine.parseOrExit(a -> a.length > 1 ? CommandLine.count("rounds", a[1]) : 3, args);
    System.out.printf(Locale.ROOT, "request body: %d bytes%n", EVENT.length);
    for (int round = 1; round <= rounds; round++) {
      jdk(requests, round);
      jetty(requests, round);
    }
  }

  private static void jdk(int requests, int round) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 64);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    server.setExecutor(pool);
    server.createContext(
        "/",
        x -> {
          try (InputStream in = x.getRequestBody()) {
            in.readAllBytes();
          }
          byte[] out = "{}".getBytes(StandardCharsets.UTF_8);
          x.getResponseHeaders().set("Content-Type", "application/json");
          x.sendResponseHeaders(200, out.length);
          try (OutputStream o = x.getResponseBody()) {
            o.write(out);
          }
          x.close();
        });
    server.start();
    try {
      measure("jdk.httpserver", round, server.getAddress().getPort(), requests);
    } finally {
      server.stop(0);
      pool.shutdown();
    }
  }

  private static void jetty(int requests, int round) throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            Content.Source.asString(request, StandardCharsets.UTF_8);
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.write(true, ByteBuffer.wrap("{}".getBytes(StandardCharsets.UTF_8)), callback);
            return true;
          }
        });
    server.start();
    try {
      measure("jetty 12 core", round, connector.getLocalPort(), requests);
    } finally {
      server.stop();
    }
  }

  private static void measure(String name, int round, int port, int requests) throws IOException {
    for (int i = 0; i < Math.min(2_000, requests); i++) {
      post(port);
    }
    double[] micros = new double[requests];
    for (int i = 0; i < requests; i++) {
      long t = System.nanoTime();
      post(port);
      micros[i] = (System.nanoTime() - t) / 1e3;
    }
    Arrays.sort(micros);
    System.out.printf(
        Locale.ROOT,
        "round %d  %-15s n=%d  p50 %7.0f us  p99 %7.0f us%n",
        round,
        name,
        requests,
        micros[requests / 2],
        micros[(int) Math.ceil(0.99 * requests) - 1]);
  }

  private static void post(int port) throws IOException {
    String head =
        "POST /hook HTTP/1.1\r\nHost: 127.0.0.1:"
            + port
            + "\r\nAuthorization: Bearer "
            + "ab".repeat(32)
            + "\r\nContent-Type: application/json\r\nContent-Length: "
            + EVENT.length
            + "\r\nConnection: close\r\n\r\n";
    try (Socket s = new Socket(InetAddress.getByName("127.0.0.1"), port)) {
      s.setTcpNoDelay(true);
      OutputStream out = s.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(EVENT);
      out.flush();
      String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!response.startsWith("HTTP/1.1 200") || !response.endsWith("{}")) {
        throw new IllegalStateException("not a 200 with {}: " + response);
      }
    }
  }

  private static String toolEvent() {
    return "{\"session_id\":\"s-1\",\"transcript_path\":\"/home/dev/.claude/projects/shop/s-1.jsonl\","
        + "\"cwd\":\"/home/dev/shop\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\","
        + "\"tool_use_id\":\"toolu_01ABC\",\"tool_input\":{\"command\":\"./gradlew test\","
        + "\"description\":\"Run the test suite\"},\"tool_response\":{\"stdout\":\"BUILD"
        + " SUCCESSFUL in 12s\\n42 tests completed\",\"stderr\":\"\",\"interrupted\":false}}";
  }
}
