package dev.memhook.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Mono;

/**
 * The MCP server's transport on standard input and output: one JSON-RPC message per line each way
 * (MCP's stdio transport), for one session. It stands in for the SDK's {@code
 * StdioServerTransportProvider}, which stops reading for good at the first line it cannot parse,
 * and from then on answers nothing and never sees its input end, so the server holds the store
 * until it is killed. A filter in front of that transport, passing it only valid lines, would still
 * leave the end of the input to a reader that can stop on its own, and two writers on standard
 * output; so this transport reads, frames and writes everything itself, and the SDK's session only
 * handles messages.
 *
 * <h2>Design note</h2>
 *
 * One reader thread reads standard input as bytes and cuts it into lines at {@code \n} (a {@code
 * \r} before it is dropped; a last line without its newline counts as a line). It keeps at most
 * {@link #MAX_LINE_BYTES} of a line: the rest of a longer one is read and dropped, so no input can
 * fill the heap. Each line is then, in the order read:
 *
 * <ul>
 *   <li>blank (only spaces, tabs, carriage returns): skipped, unanswered;
 *   <li>longer than the bound: answered with {@code -32600} (invalid request);
 *   <li>not exactly one JSON value in UTF-8 ({@code hello}, a cut object, an object followed by
 *       more text): {@code -32700} (parse error);
 *   <li>one JSON value that is no object: a number, a string, {@code null}, or an array, since MCP
 *       has no batches (its 2025-06-18 revision removed them, and the SDK never handled them):
 *       {@code -32600};
 *   <li>an object that is no JSON-RPC 2.0 request or notification ({@code jsonrpc} is not {@code
 *       "2.0"}, {@code method} is no string, {@code id} is neither a string nor an integer, or the
 *       SDK cannot read it): {@code -32600}, with the object's {@code id} when it is a valid one;
 *   <li>a request whose {@code params} its method cannot take ({@link McpParams}): {@code -32602}
 *       (invalid params), with the request's {@code id};
 *   <li>a {@code ping}: answered here with an empty result, at any time; the SDK's session would
 *       hold it until the client's {@code notifications/initialized};
 *   <li>a response (no {@code method}, a {@code result} or an {@code error}): handed to the session
 *       if it is well formed, else dropped with a report, never answered, so two peers cannot
 *       answer each other's errors for ever;
 *   <li>otherwise a request or notification, handed to the SDK's session, which answers it.
 * </ul>
 *
 * An error the transport answers has {@code "id":null} unless stated above, and a message that says
 * what was wrong without quoting the line, which may hold a secret; each is also reported on
 * standard error. Reading goes on after every one of them.
 *
 * <p>Every line written, the session's messages and these errors alike, is queued to one writer
 * thread that writes it whole with its newline and flushes, so lines never interleave, and neither
 * the reader nor a tool call waits while the client is slow to read; the queue holds the replies
 * not yet written, at most one per line read.
 *
 * <p>The client is gone when standard input ends (its end, or a read that fails) or a write to
 * standard output fails. Then {@code clientGone} is counted down, in whatever state the session is
 * (before {@code initialize}, in the middle of a line or of a tool call), and the command closes
 * the server and the store. Closing writes what is queued (waiting at most {@link
 * #CLOSE_WAIT_SECONDS} seconds, so a client that stopped reading cannot keep the store held) and
 * stops the session; a read still blocked on standard input ends with the process, the reader being
 * a daemon thread.
 *
 * <p>Thread-safe. {@link #setSessionFactory} is called once, by the SDK, when the server is built;
 * it starts reading.
 */
final class McpStdioTransport implements McpServerTransportProvider {

  /** The longest line read, in bytes: {@code memhook hook}'s input bound. */
  static final int MAX_LINE_BYTES = HookCommand.MAX_INPUT_BYTES;

  /** How long closing waits for the queued lines to be written. */
  static final long CLOSE_WAIT_SECONDS = 5;

  private static final int PARSE_ERROR = McpSchema.ErrorCodes.PARSE_ERROR;
  private static final int INVALID_REQUEST = McpSchema.ErrorCodes.INVALID_REQUEST;
  private static final int INVALID_PARAMS = McpSchema.ErrorCodes.INVALID_PARAMS;
  private static final ObjectReader ONE_VALUE =
      JsonRecords.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final McpJsonMapper mapper;
  private final InputStream in;
  private final PrintStream out;
  private final PrintStream err;
  private final CountDownLatch clientGone;
  private final AtomicBoolean closing = new AtomicBoolean();
  private final ExecutorService writer =
      Executors.newSingleThreadExecutor(r -> daemon(r, "memhook-mcp-stdout"));
  private volatile McpServerSession session;

  /**
   * A transport reading {@code in} and writing {@code out}, reporting on {@code err}, that counts
   * {@code clientGone} down when the client is gone.
   */
  McpStdioTransport(
      McpJsonMapper mapper,
      InputStream in,
      PrintStream out,
      PrintStream err,
      CountDownLatch clientGone) {
    this.mapper = Objects.requireNonNull(mapper, "mapper");
    this.in = Objects.requireNonNull(in, "in");
    this.out = Objects.requireNonNull(out, "out");
    this.err = Objects.requireNonNull(err, "err");
    this.clientGone = Objects.requireNonNull(clientGone, "clientGone");
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory sessionFactory) {
    if (session != null) {
      throw new IllegalStateException("the stdio transport serves one session");
    }
    session = sessionFactory.create(new SessionTransport());
    daemon(this::read, "memhook-mcp-stdin").start();
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    McpServerSession s = session;
    return s == null
        ? Mono.error(new IllegalStateException("no session to notify"))
        : s.sendNotification(method, params);
  }

  @Override
  public Mono<Void> notifyClient(String sessionId, String method, Object params) {
    McpServerSession s = session;
    return s != null && s.getId().equals(sessionId)
        ? s.sendNotification(method, params)
        : Mono.error(new IllegalStateException("no session " + sessionId));
  }

  @Override
  public Mono<Void> closeGracefully() {
    McpServerSession s = session;
    return s == null ? Mono.fromRunnable(this::stopWriting) : s.closeGracefully();
  }

  /** The reader thread: lines until the end of the input, then the client is gone. */
  private void read() {
    byte[] chunk = new byte[64 * 1024];
    Line line = new Line();
    long number = 0;
    try {
      for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
        int start = 0;
        for (int i = 0; i < n; i++) {
          if (chunk[i] == '\n') {
            line.append(chunk, start, i - start);
            handleSafely(line, ++number);
            line.clear();
            start = i + 1;
          }
        }
        line.append(chunk, start, n - start);
      }
      if (!line.isEmpty()) {
        handleSafely(line, ++number);
      }
    } catch (IOException | RuntimeException e) {
      if (!closing.get()) {
        report("reading standard input failed (" + e + "); the server stops");
      }
    } finally {
      clientGone.countDown();
    }
  }

  /** {@link #handle}, reporting what it throws: one line never stops the reading. */
  private void handleSafely(Line line, long number) {
    try {
      handle(line, number);
    } catch (RuntimeException e) {
      report("handling input line " + number + " failed (" + e + "); reading goes on");
    }
  }

  private void handle(Line line, long number) {
    if (closing.get() || line.blank()) {
      return;
    }
    if (line.over()) {
      refuse(
          null,
          INVALID_REQUEST,
          "Invalid request: the message is longer than " + MAX_LINE_BYTES + " bytes",
          number);
      return;
    }
    String text;
    JsonNode tree;
    try {
      text = StandardCharsets.UTF_8.newDecoder().decode(line.bytes()).toString();
      tree = ONE_VALUE.readTree(text);
    } catch (CharacterCodingException | JsonProcessingException e) {
      refuse(
          null,
          PARSE_ERROR,
          "Parse error: the line is not one JSON value in UTF-8 (one JSON-RPC message per line)",
          number);
      return;
    }
    if (!(tree instanceof ObjectNode message)) {
      refuse(
          null,
          INVALID_REQUEST,
          "Invalid request: a message is one JSON object (batches are not supported)",
          number);
      return;
    }
    JsonNode id = message.get("id");
    boolean goodId = id == null || id.isTextual() || id.isIntegralNumber();
    JsonNode version = message.get("jsonrpc");
    boolean twoZero = version != null && version.isTextual() && "2.0".equals(version.textValue());
    boolean response = !message.has("method") && (message.has("result") || message.has("error"));
    JsonNode answerId = goodId ? id : null;
    String problem = response ? null : requestProblem(message, twoZero, goodId);
    if (problem != null) {
      refuse(answerId, INVALID_REQUEST, "Invalid request: " + problem, number);
      return;
    }
    JSONRPCMessage parsed = null;
    try {
      parsed = twoZero && goodId ? McpSchema.deserializeJsonRpcMessage(mapper, text) : null;
    } catch (IOException | RuntimeException e) {
      // not a message the SDK can read: answered or dropped below
    }
    if (parsed == null) {
      if (response) {
        report("input line " + number + " is a malformed response; dropped unanswered");
      } else {
        refuse(answerId, INVALID_REQUEST, "Invalid request: not a JSON-RPC message", number);
      }
      return;
    }
    if (parsed instanceof McpSchema.JSONRPCRequest request) {
      String unfit = McpParams.problem(mapper, request);
      if (unfit != null) {
        refuse(answerId, INVALID_PARAMS, "Invalid params: " + unfit, number);
        return;
      }
      if (McpSchema.METHOD_PING.equals(request.method())) {
        pong(answerId);
        return;
      }
    }
    session
        .handle(parsed)
        .subscribe(
            done -> {}, failure -> report("handling input line " + number + " failed: " + failure));
  }

  /** What makes {@code message}, no response, an invalid request, or null if nothing does. */
  private static String requestProblem(ObjectNode message, boolean twoZero, boolean goodId) {
    if (!twoZero) {
      return "\"jsonrpc\" must be \"2.0\"";
    }
    if (!goodId) {
      return "\"id\" must be a string or an integer";
    }
    if (!message.path("method").isTextual()) {
      return "a request or notification has a string \"method\"";
    }
    return null;
  }

  /**
   * Answers a ping, here rather than in the SDK's session, which holds every request but {@code
   * initialize} until the client's {@code notifications/initialized}: MCP lets a client ping before
   * that, and a ping must be answered promptly whenever it comes.
   */
  private void pong(JsonNode id) {
    ObjectNode reply = JsonRecords.MAPPER.createObjectNode();
    reply.put("jsonrpc", "2.0");
    reply.set("id", id.deepCopy());
    reply.putObject("result");
    try {
      queue(JsonRecords.MAPPER.writeValueAsString(reply));
    } catch (JsonProcessingException | RejectedExecutionException e) {
      report("a ping's answer could not be written: " + e);
    }
  }

  /** Answers input line {@code number} with an error, and reports it. */
  private void refuse(JsonNode id, int code, String message, long number) {
    report("input line " + number + ": " + message + "; answered with error " + code);
    ObjectNode reply = JsonRecords.MAPPER.createObjectNode();
    reply.put("jsonrpc", "2.0");
    reply.set("id", id == null ? reply.nullNode() : id.deepCopy());
    reply.putObject("error").put("code", code).put("message", message);
    try {
      queue(JsonRecords.MAPPER.writeValueAsString(reply));
    } catch (JsonProcessingException | RejectedExecutionException e) {
      report("an error reply could not be written: " + e);
    }
  }

  /**
   * Queues {@code json} to be written as one line.
   *
   * @throws RejectedExecutionException if the transport is closed
   */
  private void queue(String json) {
    // a newline would end the line early; JSON text never needs one outside a string
    String line = json.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n");
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    writer.execute(
        () -> {
          out.write(bytes, 0, bytes.length);
          out.flush();
          if (out.checkError()) {
            if (!closing.get()) {
              report("writing standard output failed; the server stops");
            }
            clientGone.countDown();
          }
        });
  }

  private void stopWriting() {
    closing.set(true);
    writer.shutdown();
    try {
      if (!writer.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
        report("the client did not read what was left to write; it is dropped");
        writer.shutdownNow();
      }
    } catch (InterruptedException e) {
      writer.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private void report(String message) {
    err.println("memhook mcp: " + message);
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /** The session's side: what it sends is queued for the writer. */
  private final class SessionTransport implements McpServerTransport {
    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
      return Mono.fromRunnable(
          () -> {
            try {
              queue(mapper.writeValueAsString(message));
            } catch (IOException e) {
              throw new IllegalStateException("a message could not be written as JSON", e);
            }
          });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return mapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.fromRunnable(McpStdioTransport.this::stopWriting);
    }

    @Override
    public void close() {
      stopWriting();
    }
  }

  /** The bytes of one line, at most {@link #MAX_LINE_BYTES} of them; the rest only counted. */
  private static final class Line {
    private byte[] bytes = new byte[8 * 1024];
    private int kept;
    private boolean over;

    void append(byte[] b, int offset, int length) {
      int room = MAX_LINE_BYTES - kept;
      if (length > room) {
        over = true;
      }
      int take = Math.min(length, room);
      if (kept + take > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.min(MAX_LINE_BYTES, Math.max(kept + take, kept * 2)));
      }
      System.arraycopy(b, offset, bytes, kept, take);
      kept += take;
    }

    /** The kept bytes, without a {@code \r} that ended the line. */
    ByteBuffer bytes() {
      int end = kept > 0 && bytes[kept - 1] == '\r' ? kept - 1 : kept;
      return ByteBuffer.wrap(bytes, 0, end);
    }

    boolean isEmpty() {
      return !over && kept == 0;
    }

    boolean over() {
      return over;
    }

    boolean blank() {
      if (over) {
        return false;
      }
      for (int i = 0; i < kept; i++) {
        byte c = bytes[i];
        if (c != ' ' && c != '\t' && c != '\r') {
          return false;
        }
      }
      return true;
    }

    void clear() {
      kept = 0;
      over = false;
      if (bytes.length > 64 * 1024) {
        bytes = new byte[8 * 1024]; // do not hold a long line's buffer after it
      }
    }
  }
}
