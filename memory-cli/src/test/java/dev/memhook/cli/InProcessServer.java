package dev.memhook.cli;

import com.sun.net.httpserver.HttpServer;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * A {@link HookServer} in this JVM as {@code memhook serve} builds it, on a real store (the hashing
 * embedder, so no model loads) and a loopback socket at a free port: what the server's endpoint
 * tests share. Its log goes to the {@code err} the test passes, so a test can look for what was
 * reported (and that no secret was). Not thread-safe to start or close; the server it runs is.
 */
final class InProcessServer implements AutoCloseable {
  /** What a test mounts on the server before it starts (the viewer's context, say). */
  @FunctionalInterface
  interface Mount {
    void mount(HttpServer http, MemoryService memory, HookLog log) throws IOException;
  }

  private final MemoryService memory;
  private final HookServer server;

  private InProcessServer(MemoryService memory, HookServer server) {
    this.memory = memory;
    this.server = server;
  }

  /** Opens the store in {@code dir} for writing and serves it with {@code token}. */
  static InProcessServer start(Path dir, String token, ByteArrayOutputStream err)
      throws IOException {
    return start(dir, token, err, (http, memory, log) -> {});
  }

  /** As {@link #start(Path, String, ByteArrayOutputStream)}, with {@code mount} run first. */
  static InProcessServer start(Path dir, String token, ByteArrayOutputStream err, Mount mount)
      throws IOException {
    StoreArguments store = new StoreArguments();
    store.dir = dir;
    store.embedder = EmbedderChoice.HASHING;
    CliContext context =
        new CliContext(
            InputStream.nullInputStream(),
            new PrintStream(OutputStream.nullOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Map.of(),
            Terminal.NONE);
    MemoryService memory = store.openWritable(context, Scope.DEFAULT, true);
    try {
      HookLog log = new HookLog(context.err(), dir, StoreArguments.REDACTION);
      AgentEvents events =
          new AgentEvents(
              dir,
              log,
              new AgentEvents.Settings(
                  5, new ContextBudget(ContextBudget.DEFAULT_MAX_CHARS), null, null));
      HttpServer http = HookServer.bind(0);
      mount.mount(http, memory, log);
      return new InProcessServer(memory, new HookServer(http, memory, events, log, token, "test"));
    } catch (IOException | RuntimeException e) {
      memory.close();
      throw e;
    }
  }

  MemoryService memory() {
    return memory;
  }

  HookServer server() {
    return server;
  }

  @Override
  public void close() {
    server.close();
    memory.close();
  }
}
