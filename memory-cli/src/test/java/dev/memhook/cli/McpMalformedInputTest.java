package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.IndexInfo;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * memhook mcp in process, its standard input and output OS pipes, driven by a raw client that
 * writes bytes: every malformed line is answered with a JSON-RPC error and reading goes on, and the
 * end of input ends the server and releases the store in every state.
 */
class McpMalformedInputTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Charset UTF8 = StandardCharsets.UTF_8;
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"initialize\",\"params\":{"
          + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
  private static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
  private static final String TOOLS_LIST =
      "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/list\"}";

  @TempDir Path dir;
  private TestStore.Seeded seeded;

  @BeforeEach
  void seed() {
    seeded = TestStore.seed(dir);
  }

  @Test
  void malformedLines_areAnsweredWithErrors_andLaterRequestsAreServed() throws Exception {
    try (Server server = Server.start(dir)) {
      server.send("hello");
      server.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initia");
      server.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"} garbage");
      server.send("");
      server.send(" \t\r");
      server.send("[{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}]");
      server.send("42");
      server.send("{\"jsonrpc\":\"2.0\",\"id\":4}");
      server.send("{\"jsonrpc\":\"1.0\",\"id\":\"five\",\"method\":\"ping\"}");

      assertError(server.reply(), null, -32700);
      assertError(server.reply(), null, -32700);
      assertError(server.reply(), null, -32700);
      // the blank lines are skipped unanswered: the next reply is the array's
      assertError(server.reply(), null, -32600);
      assertError(server.reply(), null, -32600);
      assertError(server.reply(), 4, -32600);
      JsonNode wrongVersion = server.reply();
      assertEquals("five", wrongVersion.get("id").asText(), wrongVersion.toString());
      assertEquals(-32600, wrongVersion.get("error").get("code").asInt(), wrongVersion.toString());

      initialize(server);
      server.send(TOOLS_LIST.formatted(11));
      JsonNode tools = server.reply();
      assertEquals(11, tools.get("id").asInt(), tools.toString());
      assertEquals(6, tools.get("result").get("tools").size(), tools.toString());

      server.send("{\"jsonrpc\":\"2.0\",\"id\":12,");
      assertError(server.reply(), null, -32700);
      server.send("{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"ping\"}");
      JsonNode pong = server.reply();
      assertEquals(13, pong.get("id").asInt(), pong.toString());
      assertTrue(pong.has("result"), pong.toString());

      assertEquals(0, server.endInput(), server.err());
      assertFalse(server.err().contains("initia"), "errors never echo the line: " + server.err());
    }
    assertStoreReleased();
  }

  @Test
  void endOfInput_rightAfterAMalformedLine_endsTheServer_andReleasesTheStore() throws Exception {
    try (Server server = Server.start(dir)) {
      server.send("hello");
      assertError(server.reply(), null, -32700);
      assertEquals(0, server.endInput(), server.err());
    }
    assertStoreReleased();
  }

  @Test
  void endOfInput_inTheMiddleOfALine_answersTheCutLine_andEndsTheServer() throws Exception {
    try (Server server = Server.start(dir)) {
      initialize(server);
      server.write("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/li".getBytes(UTF8));
      assertEquals(0, server.endInput(), server.err());
      assertError(server.reply(), null, -32700);
    }
    assertStoreReleased();
  }

  @Test
  void overLongLines_areAnsweredWithAnError_andReadingGoesOn() throws Exception {
    try (Server server = Server.start(dir)) {
      initialize(server);
      // ten megabytes of one line that is not JSON: read, refused, answered
      server.sendLong("{\"x\":\"", 10 * 1024 * 1024, "\" garbage");
      assertError(server.reply(), null, -32700);
      // a line past the bound is not kept: the rest of it is read and dropped
      server.sendLong("{\"x\":\"", McpStdioTransport.MAX_LINE_BYTES, "\"}");
      JsonNode tooLong = server.reply();
      assertError(tooLong, null, -32600);
      assertTrue(
          tooLong.get("error").get("message").asText().contains("longer than"), tooLong.toString());
      server.send(TOOLS_LIST.formatted(21));
      JsonNode tools = server.reply();
      assertEquals(21, tools.get("id").asInt(), tools.toString());
      assertEquals(6, tools.get("result").get("tools").size(), tools.toString());
      assertEquals(0, server.endInput(), server.err());
    }
    assertStoreReleased();
  }

  @Test
  void paramsOfTheWrongShape_areInvalidParams_neverQuoted_andReadingGoesOn() throws Exception {
    String secret = "hunter2-" + "z".repeat(12);
    try (Server server = Server.start(dir)) {
      initialize(server);
      server.send(
          "{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"tools/call\",\"params\":\""
              + secret
              + "\"}");
      server.send("{\"jsonrpc\":\"2.0\",\"id\":32,\"method\":\"tools/call\"}");
      server.send(
          "{\"jsonrpc\":\"2.0\",\"id\":33,\"method\":\"tools/call\",\"params\":"
              + "{\"name\":\"memory_recall\",\"arguments\":\""
              + secret
              + "\"}}");
      server.send("{\"jsonrpc\":\"2.0\",\"id\":34,\"method\":\"initialize\"}");
      server.send(
          "{\"jsonrpc\":\"2.0\",\"id\":35,\"method\":\"initialize\",\"params\":"
              + "{\"capabilities\":\""
              + secret
              + "\"}}");
      server.send("{\"jsonrpc\":\"2.0\",\"id\":36,\"method\":\"logging/setLevel\"}");
      server.send(
          "{\"jsonrpc\":\"2.0\",\"id\":37,\"method\":\"ping\",\"params\":[\"" + secret + "\"]}");
      for (int id = 31; id <= 37; id++) {
        JsonNode reply = server.reply();
        assertError(reply, id, -32602);
        assertFalse(reply.toString().contains(secret), "never quoted: " + reply);
      }
      server.send(TOOLS_LIST.formatted(38));
      assertEquals(38, server.reply().get("id").asInt());
      assertEquals(0, server.endInput(), server.err());
      assertFalse(server.err().contains(secret), "never quoted: " + server.err());
    }
    assertStoreReleased();
  }

  @Test
  void aPing_isAnsweredBeforeInitialization_asAtAnyTime() throws Exception {
    try (Server server = Server.start(dir)) {
      server.send("{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"ping\"}");
      JsonNode before = server.reply();
      assertEquals(41, before.get("id").asInt(), before.toString());
      assertTrue(before.get("result").isObject(), before.toString());
      server.send(INITIALIZE.formatted(42));
      JsonNode init = server.reply();
      assertEquals(42, init.get("id").asInt(), init.toString());
      server.send("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");
      JsonNode between = server.reply();
      assertEquals("p", between.get("id").asText(), between.toString());
      assertTrue(between.get("result").isObject(), between.toString());
      assertEquals(0, server.endInput(), server.err());
    }
    assertStoreReleased();
  }

  private static void initialize(Server server) throws Exception {
    server.send(INITIALIZE.formatted(10));
    JsonNode init = server.reply();
    assertEquals(10, init.get("id").asInt(), init.toString());
    assertEquals("memhook", init.get("result").get("serverInfo").get("name").asText());
    server.send(INITIALIZED);
  }

  private static void assertError(JsonNode reply, Integer id, int code) {
    assertEquals("2.0", reply.path("jsonrpc").asText(), reply.toString());
    assertTrue(reply.has("id"), "an error reply always has an id: " + reply);
    if (id == null) {
      assertTrue(reply.get("id").isNull(), reply.toString());
    } else {
      assertEquals(id.intValue(), reply.get("id").asInt(), reply.toString());
    }
    assertEquals(code, reply.path("error").path("code").asInt(), reply.toString());
    assertFalse(reply.path("error").path("message").asText().isBlank(), reply.toString());
  }

  /** The store can be opened for writing again: the server's lock is gone. */
  private void assertStoreReleased() {
    assertFalse(IndexInfo.read(dir).writeLocked(), "the server released the store");
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).noCapture().build()) {
      assertTrue(memory.get(seeded.tabs().id()).isPresent());
    }
  }

  /** memhook mcp on a thread of this JVM, with pipes for standard input and output. */
  private static final class Server implements AutoCloseable {
    private final Pipe in;
    private final Pipe out;
    private final OutputStream stdin;
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final Future<Integer> command;

    private Server(Path dir) throws IOException {
      in = Pipe.open();
      out = Pipe.open();
      stdin = Channels.newOutputStream(in.sink());
      CliContext context =
          new CliContext(
              Channels.newInputStream(in.source()),
              new PrintStream(Channels.newOutputStream(out.sink()), true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8),
              Map.of(StoreArguments.DIR_VARIABLE, dir.toString(), "USER", "tester"),
              Terminal.NONE);
      threads.submit(this::readReplies);
      command =
          threads.submit(
              () ->
                  MemhookCli.run(
                      new String[] {"mcp", "--scope", "acme/alice", "--embedder", "hashing"},
                      context));
    }

    static Server start(Path dir) throws IOException {
      return new Server(dir);
    }

    private Void readReplies() throws IOException {
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(Channels.newInputStream(out.source()), UTF8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          replies.add(line);
        }
      }
      return null;
    }

    void send(String line) throws Exception {
      write((line + "\n").getBytes(UTF8));
    }

    /** A line of {@code head}, {@code length} letters, {@code tail}, written in pieces. */
    void sendLong(String head, int length, String tail) throws Exception {
      write(head.getBytes(UTF8));
      byte[] piece = new byte[1 << 20];
      Arrays.fill(piece, (byte) 'a');
      for (int left = length; left > 0; left -= piece.length) {
        write(left >= piece.length ? piece : Arrays.copyOf(piece, left));
      }
      write((tail + "\n").getBytes(UTF8));
    }

    /** Writes {@code bytes}, failing if the server does not read them in time. */
    void write(byte[] bytes) throws Exception {
      Future<?> w =
          threads.submit(
              () -> {
                stdin.write(bytes);
                stdin.flush();
                return null;
              });
      try {
        w.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError("the server stopped reading its input; stderr: " + err(), e);
      }
    }

    /** The next line the server wrote, as JSON. */
    JsonNode reply() throws Exception {
      String line = replies.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
      if (line == null) {
        throw new AssertionError("no reply within " + WAIT + "; stderr: " + err());
      }
      return JsonRecords.MAPPER.readTree(line);
    }

    /** Closes standard input and returns the command's exit code once it has returned. */
    int endInput() throws Exception {
      stdin.close();
      try {
        return command.get(60, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError("the server did not end when its input did; stderr: " + err(), e);
      }
    }

    String err() {
      return err.toString(UTF8);
    }

    @Override
    public void close() throws IOException {
      stdin.close();
      in.source().close();
      out.sink().close();
      out.source().close();
      threads.shutdownNow();
    }
  }
}
