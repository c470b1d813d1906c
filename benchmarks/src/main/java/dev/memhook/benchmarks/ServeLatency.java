package dev.memhook.benchmarks;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.core.Memhook;
import dev.memhook.djl.DjlEmbedderProvider;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A coding agent's hook events end to end at the client, side by side: {@code memhook hook} as the
 * agent runs it today (one JVM per event, with the launcher's fast-start flags) against an HTTP
 * hook posted to {@code memhook serve}, on one store of {@code --size} memories made with the
 * default int8 MiniLM, in the scope the events name. Reported per path: a tool event ({@code
 * PostToolUse}) and a prompt ({@code UserPromptSubmit} of a new session, answered with recalled
 * memories), median and p99 in milliseconds; for the server also its start (to {@code serve.json})
 * and its resident set size after ten idle seconds. Every HTTP request opens a new connection, as
 * an agent's hook does; the run fails if an answer is not a 200 or a prompt's answer holds no
 * memory.
 *
 * <p>MCP, side by side: against the running server, {@code --mcp-requests} times each of an MCP
 * {@code initialize} and a {@code tools/call} of {@code memory_recall} posted to {@code
 * /mcp?scope=bench/shop} (a new connection each, the run failing unless the call answers with
 * memories); after the server has stopped, {@code --mcp-stdio} runs of {@code memhook mcp} timed
 * from its process start to its answer to {@code initialize}, which is what an agent waits for
 * before the tools are usable when it starts the stdio server itself.
 *
 * <pre>
 * {@code java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.ServeLatency \
 *     --jar memory-cli/target/memhook.jar [--size 10000] [--dir DIR] [--oneshot 20] [--requests 1000]
 *     [--random-vectors] [--server-jvm "JVM OPTIONS"] [--pace-ms 0] [--mcp-requests 200]
 *     [--mcp-stdio 5] [--build-only]}
 * </pre>
 *
 * The store is built once per size under {@code java.io.tmpdir/memhook-bench/serve-nSIZE} (or
 * {@code --dir}) and reused; {@code --oneshot 0} measures the server alone; {@code
 * --random-vectors} builds the store with random vectors in MiniLM's space ({@link RandomVectors}),
 * for the resident set of a large store. {@code --pace-ms N} waits N ms before each measured
 * request, as an agent's events arrive (a tool call takes time to run); without it the requests
 * come back to back, so capture's work on one event overlaps the next request. {@code --build-only}
 * builds the store and stops.
 */
public final class ServeLatency {
  private static final Scope SCOPE = Scope.of("bench", "shop");
  private static final String MARKER = "memhook-bench-complete";
  private static final String[] QUESTIONS = {
    "Which build tool does the shop service use?",
    "How do we deploy the billing service to staging?",
    "What did we decide about database migrations?",
    "Why did the refund webhook retry fail?",
    "Where is the release checklist kept?",
    "How should I name a new queue?",
    "What is the rollback procedure for prod?",
    "Which cache settings did we pick for sessions?"
  };

  private ServeLatency() {}

  public static void main(String[] args) throws Exception {
    Path jar = null;
    int size = 10_000;
    Path dir = null;
    int oneshot = 20;
    int requests = 1_000;
    boolean randomVectors = false;
    int paceMillis = 0;
    int mcpRequests = 200;
    int mcpStdio = 5;
    boolean buildOnly = false;
    List<String> serverJvm = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--jar" -> jar = Path.of(CommandLine.value(args, ++i));
        case "--size" -> size = CommandLine.count(args, ++i);
        case "--dir" -> dir = Path.of(CommandLine.value(args, ++i));
        case "--oneshot" -> oneshot = CommandLine.count(args, ++i);
        case "--requests" -> requests = CommandLine.count(args, ++i);
        case "--random-vectors" -> randomVectors = true;
        case "--pace-ms" -> paceMillis = CommandLine.count(args, ++i);
        case "--mcp-requests" -> mcpRequests = CommandLine.count(args, ++i);
        case "--mcp-stdio" -> mcpStdio = CommandLine.count(args, ++i);
        case "--build-only" -> buildOnly = true;
        case "--server-jvm" ->
            serverJvm.addAll(Arrays.asList(CommandLine.value(args, ++i).split(" ")));
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (jar == null || !Files.isRegularFile(jar)) {
      throw new IllegalArgumentException("--jar must name memory-cli/target/memhook.jar");
    }
    if (dir == null) {
      dir = Path.of(System.getProperty("java.io.tmpdir"), "memhook-bench", "serve-n" + size);
    }
    build(dir, size, randomVectors);
    System.out.printf(Locale.ROOT, "store: %,d memories in %s (%s)%n", size, SCOPE, dir);
    if (buildOnly) {
      return; // the store for another harness (scripts/cli-latency.sh)
    }
    if (oneshot > 0) {
      oneShot(jar, dir, oneshot);
    }
    served(jar, dir, requests, serverJvm, !randomVectors, paceMillis, mcpRequests);
    if (mcpStdio > 0) {
      mcpStdio(jar, dir, mcpStdio);
    }
  }

  private static void build(Path dir, int size, boolean randomVectors) {
    if (Files.exists(dir.resolve(MARKER))) {
      return;
    }
    BenchStores.deleteRecursively(dir);
    long start = System.nanoTime();
    Memhook.Builder builder = Memhook.builder().directory(dir).noCapture();
    if (randomVectors) {
      builder.embedder(new RandomVectors(new DjlEmbedderProvider().create()));
    }
    try (MemoryService memory = builder.build()) {
      memory.maintenance().rememberAll(drafts(size, new Random(42)));
    }
    BenchStores.markComplete(dir);
    System.out.printf(
        Locale.ROOT, "built %,d memories in %.0f s%n", size, (System.nanoTime() - start) / 1e9);
  }

  private static void oneShot(Path jar, Path dir, int runs) throws Exception {
    List<String> command = launched(jar, dir, "hook");
    double[] tool = new double[runs];
    double[] prompt = new double[runs];
    int answered = 0;
    for (int i = 0; i < runs; i++) {
      tool[i] = run(command, toolEvent("oneshot-" + i, i)).millis();
      Run p = run(command, promptEvent("oneshot-p" + i, QUESTIONS[i % QUESTIONS.length]));
      prompt[i] = p.millis();
      answered += p.out().contains("additionalContext") ? 1 : 0;
    }
    report("memhook hook, tool event", tool);
    report("memhook hook, prompt", prompt);
    System.out.printf(Locale.ROOT, "  prompts answered with memories: %d of %d%n", answered, runs);
  }

  private record Run(double millis, String out) {}

  private static Run run(List<String> command, String stdin) throws Exception {
    long start = System.nanoTime();
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (OutputStream in = p.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("memhook hook failed: " + out);
    }
    return new Run((System.nanoTime() - start) / 1e6, out);
  }

  private static void served(
      Path jar,
      Path dir,
      int requests,
      List<String> jvm,
      boolean answersRequired,
      int paceMillis,
      int mcpRequests)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvm);
    command.addAll(
        List.of(
            "-Dai.djl.offline=true",
            "-jar",
            jar.toString(),
            "serve",
            "--dir",
            dir.toString(),
            "--port",
            "0"));
    System.out.println("server: " + String.join(" ", command));
    long start = System.nanoTime();
    Process server =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      String json = awaitRunning(dir, server);
      double startup = (System.nanoTime() - start) / 1e6;
      int port = Integer.parseInt(field(json, "\"port\":(\\d+)"));
      String token = field(json, "\"token\":\"([0-9a-f]+)\"");
      System.out.printf(
          Locale.ROOT, "memhook serve: pid %d, listening after %.0f ms%n", server.pid(), startup);
      // warm-up: the JIT, the model's first calls, the searcher
      for (int i = 0; i < 200; i++) {
        post(port, token, toolEvent("warm", i));
        if (i % 4 == 0) {
          post(port, token, promptEvent("warm-p" + i, QUESTIONS[i % QUESTIONS.length]));
        }
      }
      double[] tool = new double[requests];
      double[] prompt = new double[requests / 2];
      int answered = 0;
      for (int i = 0; i < requests; i++) {
        Thread.sleep(paceMillis);
        long t = System.nanoTime();
        post(port, token, toolEvent("served", 10_000 + i));
        tool[i] = (System.nanoTime() - t) / 1e6;
        if (i % 2 == 0) {
          Thread.sleep(paceMillis);
          t = System.nanoTime();
          String body = post(port, token, promptEvent("served-p" + i, QUESTIONS[i % 8]));
          prompt[i / 2] = (System.nanoTime() - t) / 1e6;
          answered += body.contains("additionalContext") ? 1 : 0;
        }
      }
      String paced = paceMillis == 0 ? "back to back" : "one every " + paceMillis + " ms";
      report("http hook to memhook serve, tool event, " + paced, tool);
      report("http hook to memhook serve, prompt, " + paced, prompt);
      System.out.printf(
          Locale.ROOT, "  prompts answered with memories: %d of %d%n", answered, prompt.length);
      if (answersRequired && answered < prompt.length) {
        throw new IllegalStateException("a prompt was answered without memories");
      }
      if (mcpRequests > 0) {
        mcpHttp(port, token, mcpRequests, answersRequired);
      }
      Thread.sleep(10_000);
      System.out.printf(Locale.ROOT, "memhook serve RSS after 10 s idle: %s%n", rss(server.pid()));
    } finally {
      server.destroy(); // SIGTERM: closes the store
      server.waitFor(120, TimeUnit.SECONDS);
    }
  }

  /** MCP over HTTP against the running server: initialize, and a recall through tools/call. */
  private static void mcpHttp(int port, String token, int requests, boolean answersRequired)
      throws IOException {
    String initialize =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}";
    for (int i = 0; i < 50; i++) { // warm-up
      mcp(port, token, initialize);
      mcp(port, token, recallCall(i));
    }
    double[] init = new double[requests];
    double[] call = new double[requests];
    int answered = 0;
    for (int i = 0; i < requests; i++) {
      long t = System.nanoTime();
      String body = mcp(port, token, initialize);
      init[i] = (System.nanoTime() - t) / 1e6;
      if (!body.contains("\"protocolVersion\":\"2025-06-18\"")) {
        throw new IllegalStateException("initialize was not answered: " + body);
      }
      t = System.nanoTime();
      body = mcp(port, token, recallCall(i));
      call[i] = (System.nanoTime() - t) / 1e6;
      if (body.contains("\"isError\":true")) {
        throw new IllegalStateException("memory_recall failed: " + body);
      }
      answered += body.contains("mem_") ? 1 : 0;
    }
    report("MCP over HTTP, initialize", init);
    report("MCP over HTTP, tools/call memory_recall", call);
    System.out.printf(
        Locale.ROOT, "  recalls answered with memories: %d of %d%n", answered, requests);
    if (answersRequired && answered < requests) {
      throw new IllegalStateException("a recall was answered without memories");
    }
  }

  private static String recallCall(int i) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + (i + 2)
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\"memory_recall\","
        + "\"arguments\":{\"query\":\""
        + QUESTIONS[i % QUESTIONS.length]
        + "\",\"limit\":5}}}";
  }

  /**
   * {@code memhook mcp} as an agent starts it (the launcher's fast-start flags), from its process
   * start to its answer to {@code initialize}; the server must have stopped, as the store is held.
   */
  private static void mcpStdio(Path jar, Path dir, int runs) throws Exception {
    List<String> command = launched(jar, dir, "mcp");
    String initialize =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n";
    double[] millis = new double[runs];
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      Process p =
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      OutputStream in = p.getOutputStream();
      in.write(initialize.getBytes(StandardCharsets.UTF_8));
      in.flush();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      millis[i] = (System.nanoTime() - start) / 1e6;
      in.close(); // its input ends: it closes the store and exits
      if (line == null || !line.contains("\"protocolVersion\"")) {
        p.destroy();
        throw new IllegalStateException("memhook mcp did not answer initialize: " + line);
      }
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroy();
        throw new IllegalStateException("memhook mcp did not exit after its input ended");
      }
    }
    report("memhook mcp (stdio), start to initialize", millis);
  }

  /** One MCP message posted to /mcp on a new connection; the answer's body. */
  private static String mcp(int port, String token, String body) throws IOException {
    return request(
        port,
        "/mcp?scope=" + SCOPE.value().replace("/", "%2F"),
        token,
        "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n",
        body);
  }

  private static String awaitRunning(Path dir, Process server) throws Exception {
    Path file = dir.resolve("serve.json");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (System.nanoTime() < deadline) {
      if (!server.isAlive()) {
        throw new IllegalStateException("memhook serve exited with " + server.exitValue());
      }
      if (Files.exists(file)) {
        String json = Files.readString(file);
        if (json.contains("\"pid\":" + server.pid() + ",")) {
          return json;
        }
      }
      Thread.sleep(20);
    }
    throw new IllegalStateException("memhook serve did not start in 5 minutes");
  }

  /** One request on a new connection, as an agent's http hook sends it; the answer's body. */
  private static String post(int port, String token, String body) throws IOException {
    return request(port, "/hook?scope=" + SCOPE.value().replace("/", "%2F"), token, "", body);
  }

  /** A POST of {@code body} to {@code path} with {@code headers} on a new connection. */
  private static String request(int port, String path, String token, String headers, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head =
        "POST "
            + path
            + " HTTP/1.1\r\nHost: 127.0.0.1:"
            + port
            + "\r\nAuthorization: Bearer "
            + token
            + "\r\n"
            + headers
            + "Content-Type: application/json\r\nContent-Length: "
            + bytes.length
            + "\r\nConnection: close\r\n\r\n";
    try (Socket s = new Socket(InetAddress.getByName("127.0.0.1"), port)) {
      s.setTcpNoDelay(true);
      OutputStream out = s.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.flush();
      InputStream in = s.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      if (!response.startsWith("HTTP/1.1 200")) {
        throw new IllegalStateException("not a 200: " + response);
      }
      return response.substring(response.indexOf("\r\n\r\n") + 4);
    }
  }

  private static String field(String json, String regex) {
    Matcher m = Pattern.compile(regex).matcher(json);
    if (!m.find()) {
      throw new IllegalStateException("serve.json has no " + regex + ": " + json);
    }
    return m.group(1);
  }

  /** The resident set, and its anonymous (heap, native) and file-backed (mapped index) parts. */
  private static String rss(long pid) throws IOException {
    List<String> rss = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("VmRSS:") || line.startsWith("RssAnon:") || line.startsWith("RssFile:")) {
        rss.add(line.replaceAll("\\s+", " "));
      }
    }
    return String.join(", ", rss);
  }

  private static void report(String what, double[] millis) {
    double[] sorted = millis.clone();
    Arrays.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "%-42s n=%-5d p50 %8.1f ms  p99 %8.1f ms  max %8.1f ms%n",
        what,
        sorted.length,
        percentile(sorted, 0.50),
        percentile(sorted, 0.99),
        sorted[sorted.length - 1]);
  }

  private static double percentile(double[] sorted, double p) {
    int i = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  private static String toolEvent(String session, int i) {
    return "{\"session_id\":\""
        + session
        + "\",\"transcript_path\":\"/nowhere/t.jsonl\",\"cwd\":\"/home/dev/shop\","
        + "\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\",\"tool_use_id\":\"toolu_"
        + i
        + "\",\"tool_input\":{\"command\":\"./gradlew test --tests Step"
        + i
        + "\"},\"tool_response\":{\"stdout\":\"BUILD SUCCESSFUL in 12s, step "
        + i
        + "\",\"stderr\":\"\",\"interrupted\":false}}";
  }

  private static String promptEvent(String session, String prompt) {
    return "{\"session_id\":\""
        + session
        + "\",\"transcript_path\":\"/nowhere/t.jsonl\",\"cwd\":\"/home/dev/shop\","
        + "\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\""
        + prompt
        + "\"}";
  }

  /**
   * MiniLM's embedding space with a random unit vector per text, for a store whose size, not whose
   * recall, is measured (the server's resident set): building 100,000 memories through the model
   * takes most of an hour on two cores. The server still loads the real model, and a prompt's
   * answer then holds memories that are not about it.
   */
  private static final class RandomVectors implements Embedder {
    private final Embedder model;

    RandomVectors(Embedder model) {
      this.model = model;
    }

    @Override
    public Embedding embed(String text) {
      Random r = new Random(text.hashCode());
      float[] v = new float[model.dimension()];
      for (int i = 0; i < v.length; i++) {
        v[i] = (float) r.nextGaussian();
      }
      return Embedding.of(v).normalized();
    }

    @Override
    public int dimension() {
      return model.dimension();
    }

    @Override
    public String modelId() {
      return model.modelId();
    }

    @Override
    public EmbeddingSpace space() {
      return model.space();
    }

    @Override
    public void close() {
      model.close();
    }
  }

  /** Generated decisions and notes about a shop's services, 10 to 40 words each. */
  private static List<MemoryDraft> drafts(int n, Random r) {
    String[] words = {
      "deploy",
      "billing",
      "database",
      "migration",
      "refund",
      "webhook",
      "retry",
      "cache",
      "session",
      "token",
      "review",
      "release",
      "staging",
      "prod",
      "rollback",
      "alert",
      "queue",
      "gradle",
      "build",
      "checklist",
      "service",
      "shop",
      "name",
      "procedure",
      "settings"
    };
    MemoryType[] types = {
      MemoryType.DECISION, MemoryType.FACT, MemoryType.WORKFLOW, MemoryType.PATTERN
    };
    List<MemoryDraft> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      StringBuilder sb = new StringBuilder("Note " + i + ":");
      int len = 10 + r.nextInt(31);
      for (int j = 0; j < len; j++) {
        sb.append(' ').append(words[r.nextInt(words.length)]);
      }
      out.add(
          MemoryDraft.builder(SCOPE, sb.append('.').toString())
              .type(types[r.nextInt(types.length)])
              .build());
    }
    return out;
  }

  /**
   * {@code memhook COMMAND --dir DIR --scope bench/shop} as an agent starts it: the launcher's
   * fast-start flags ({@code bin/memhook}), models from the jar only.
   */
  private static List<String> launched(Path jar, Path dir, String command) {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "-Dai.djl.offline=true",
        "-jar",
        jar.toString(),
        command,
        "--dir",
        dir.toString(),
        "--scope",
        SCOPE.value());
  }
}
