package dev.memhook.cli;

import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code memhook mcp}: an MCP server on standard input and output, serving {@link McpTools} bound
 * to one scope, until its client is gone (its input ends, or its output breaks) or SIGTERM. It
 * holds the store for writing while it runs, and takes in what {@code memhook hook} spools
 * meanwhile ({@link HookSpool}) every {@code --drain-interval} seconds, so an agent can run both.
 * Its transport ({@link McpStdioTransport}) answers a malformed line with a JSON-RPC error and
 * reads on, so no input keeps the server, and the store, from closing.
 */
@Command(
    name = "mcp",
    description =
        "Serve the memory tools (memory_recall, get_memory, memory_remember, memory_forget,"
            + " memory_sessions, memory_observe) over MCP on standard input and output, bound to"
            + " one scope, until standard input ends. Holds the store; takes in what memhook hook"
            + " spools meanwhile.")
final class McpCommand implements Callable<Integer> {
  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;

  @Option(
      names = "--scope",
      required = true,
      paramLabel = "SCOPE",
      description = "The one scope the tools read and write, such as alice/shop.")
  Scope scope;

  @Option(
      names = "--drain-interval",
      paramLabel = "SECONDS",
      description = "How often the hook's spool is taken in (1-3600). Default: ${DEFAULT-VALUE}.")
  int drainInterval = 2;

  @Override
  public Integer call() throws InterruptedException {
    if (drainInterval < 1 || drainInterval > 3600) {
      throw new CliException(
          ExitCode.USAGE, "--drain-interval must be 1-3600 seconds, got " + drainInterval);
    }
    CliContext context = root.context();
    Path dir = store.directory(context);
    HookLog log = new HookLog(context.err(), dir, StoreArguments.REDACTION);
    // counted down when the client is gone (McpStdioTransport) or on SIGTERM
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    // an agent may end its server with SIGTERM rather than by closing its input: close the store
    // then too, so the index is committed and the journal checkpointed before the JVM halts
    Thread onTerm =
        new Thread(
            () -> {
              stop.countDown();
              try {
                closed.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "memhook-mcp-shutdown");
    Runtime.getRuntime().addShutdownHook(onTerm);
    ScheduledExecutorService drainer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "memhook-mcp-spool");
              t.setDaemon(true);
              return t;
            });
    try (MemoryService memory = store.openWritable(context, scope, true)) {
      HookSpool spool = new HookSpool(dir, StoreArguments.REDACTION);
      drainer.scheduleWithFixedDelay(
          () -> {
            try {
              spool.drain(memory, scope, log);
            } catch (IOException | RuntimeException e) {
              log.warn("taking in the hook spool failed: " + e);
            }
          },
          0,
          drainInterval,
          TimeUnit.SECONDS);
      McpStdioTransport transport =
          new McpStdioTransport(
              McpJsonDefaults.getMapper(), context.in(), context.out(), context.err(), stop);
      McpSyncServer server =
          McpServer.sync(transport)
              .serverInfo("memhook", new MemhookCli.Version().getVersion()[0])
              .instructions(McpTools.instructions("the project " + scope))
              .capabilities(ServerCapabilities.builder().tools(false).build())
              .tools(new McpTools(memory).boundTo(scope))
              .build();
      try {
        stop.await();
      } finally {
        server.closeGracefully();
        drainer.shutdown();
        drainer.awaitTermination(30, TimeUnit.SECONDS);
      }
    } finally {
      drainer.shutdownNow();
      closed.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(onTerm);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it returns now that the store is closed
      }
    }
    return ExitCode.OK;
  }
}
