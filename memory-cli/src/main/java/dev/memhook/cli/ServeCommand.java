package dev.memhook.cli;

import com.sun.net.httpserver.HttpServer;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code memhook serve}: one resident process per store directory that holds the store and the
 * embedding model open and answers a coding agent's hooks over HTTP on {@code 127.0.0.1} ({@link
 * HookServer}), each event as {@code memhook hook} would ({@link AgentEvents}) but without starting
 * a JVM, opening the store and loading the model for it.
 *
 * <p>Lifecycle: refuses to start while {@value ServeFiles#RUNNING_FILE} names a live server; binds
 * the port (a taken port is an error, {@link ExitCode#FAILED}), opens the store for writing (a
 * store another process holds is {@link ExitCode#STORE_UNAVAILABLE}), takes in the hook spool, and
 * only then writes {@value ServeFiles#RUNNING_FILE} ({@link ServeFiles}). It runs in the
 * foreground, for a service manager, until SIGTERM or {@code memhook serve stop}; either stops
 * taking requests, lets those under way finish, closes the store (capture processed and flushed,
 * the index committed) and deletes the file. {@code --detach} starts the same command as a child
 * process, waits until it listens, and returns.
 */
@Command(
    name = "serve",
    description =
        "Serve a coding agent's hooks over HTTP on 127.0.0.1 from one process that holds the"
            + " store and the embedding model open: POST /hook?scope=SCOPE takes the payload"
            + " memhook hook reads and answers what it prints ({} for nothing); POST"
            + " /mcp?scope=SCOPE serves memhook mcp's tools over MCP (Streamable HTTP); GET"
            + " /health; a viewer under /view/ (memhook view prints a login URL)."
            + " Every request carries Authorization: Bearer <DIR/serve.token>. Runs until"
            + " SIGTERM or memhook serve stop.",
    subcommands = {ServeCommand.Stop.class})
final class ServeCommand implements Callable<Integer> {
  /** The port used without {@code --port}. */
  static final int DEFAULT_PORT = 7373;

  /** How long {@code --detach} waits for the server to listen: the model loads first. */
  private static final Duration DETACH_TIMEOUT = Duration.ofMinutes(2);

  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description =
          "The loopback port, 1-65535; 0 takes any free one (serve.json names it). Default:"
              + " ${DEFAULT-VALUE}.")
  int port = DEFAULT_PORT;

  @Option(
      names = "--detach",
      description = "Start the server in the background, wait until it listens, and return.")
  boolean detach;

  @Option(
      names = "--rotate-token",
      description = "Replace DIR/serve.token with a new random token before starting.")
  boolean rotateToken;

  @Option(
      names = "--context-limit",
      paramLabel = "N",
      description =
          "At most N memories offered per prompt (UserPromptSubmit), 1-20, as memhook hook's."
              + " Default: ${DEFAULT-VALUE}.")
  int contextLimit = AgentEvents.DEFAULT_CONTEXT_LIMIT;

  @Option(
      names = "--context-chars",
      paramLabel = "N",
      description =
          "The budget, in characters, of the context one event injects, 1-"
              + ContextBudget.MAX_CHARS
              + ", as memhook hook's. Default: ${DEFAULT-VALUE}, Claude Code's own limit.")
  int contextChars = ContextBudget.DEFAULT_MAX_CHARS;

  @Option(
      names = "--standing-chars",
      paramLabel = "N",
      description =
          "The budget, in characters, of the standing memories SessionStart offers, as memhook"
              + " hook's; 0 offers none. Default: $"
              + HookCommand.STANDING_CHARS_VARIABLE
              + ", else 1000.")
  Integer standingChars;

  @Override
  public Integer call() throws IOException, InterruptedException {
    CliContext context = root.context();
    if (port < 0 || port > 65535) {
      throw new CliException(ExitCode.USAGE, "--port must be 1-65535 (or 0), got " + port);
    }
    AgentEvents.Settings settings;
    try {
      settings =
          new AgentEvents.Settings(
              contextLimit,
              new ContextBudget(contextChars),
              standingChars,
              context.env().get(HookCommand.STANDING_CHARS_VARIABLE));
      settings.standingBudget(); // a server says so at start, not in every SessionStart
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage(), e);
    }
    Path dir = store.directory(context);
    ServeFiles files = new ServeFiles(dir);
    Optional<ServeFiles.Running> running = files.running();
    if (running.isPresent()) {
      throw new CliException(
          ExitCode.STORE_UNAVAILABLE,
          "memhook serve (pid "
              + running.get().pid()
              + ") already serves "
              + dir
              + " on port "
              + running.get().port()
              + "; one server per store directory: stop it with memhook serve stop --dir "
              + dir);
    }
    if (detach) {
      return detach(context, dir, files);
    }
    String token = files.token(rotateToken);
    HttpServer http;
    try {
      http = HookServer.bind(port);
    } catch (BindException e) {
      throw new CliException(
          ExitCode.FAILED,
          "port "
              + port
              + " on 127.0.0.1 is taken ("
              + e.getMessage()
              + "): stop what holds it, or choose another with --port",
          e);
    }
    try {
      serve(context, dir, files, http, token, settings);
    } finally {
      http.stop(0); // already stopped after a clean run; releases the port after a failed open
    }
    return ExitCode.OK;
  }

  private void serve(
      CliContext context,
      Path dir,
      ServeFiles files,
      HttpServer http,
      String token,
      AgentEvents.Settings settings)
      throws IOException, InterruptedException {
    HookLog log = new HookLog(context.err(), dir, StoreArguments.REDACTION);
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    // SIGTERM (a service manager, memhook serve stop) closes the store before the JVM halts:
    // capture processes what it accepted, the index is committed, the journal checkpointed
    Thread onTerm =
        new Thread(
            () -> {
              stop.countDown();
              try {
                if (closed.await(StoreArguments.CLOSE_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS)) {
                  // a stop asked for and done cleanly: exit 0, not the JVM's 143 for SIGTERM,
                  // so that a service manager records a clean stop
                  Runtime.getRuntime().halt(ExitCode.OK);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "memhook-serve-shutdown");
    Runtime.getRuntime().addShutdownHook(onTerm);
    try (MemoryService memory = store.openWritable(context, Scope.DEFAULT, true)) {
      AgentEvents events = new AgentEvents(dir, log, settings);
      String version = version();
      ViewerAccess viewer = new ViewerAccess(http.getAddress().getPort(), token, Clock.systemUTC());
      new ViewerEndpoint(memory, viewer, actor(context), log).mount(http);
      try (HookServer server = new HookServer(http, memory, events, log, token, version)) {
        server.drainSpool(Scope.DEFAULT);
        context
            .err()
            .println(
                "memhook serve: pid "
                    + ProcessHandle.current().pid()
                    + " serves "
                    + dir
                    + " on http://127.0.0.1:"
                    + server.port());
        context
            .err()
            .println(
                "memhook serve: the viewer, for one login within "
                    + ViewerAccess.LOGIN_CODE_LIFETIME.toMinutes()
                    + " minutes (memhook view prints another): "
                    + viewer.loginUrl());
        // announced last: a detaching parent returns once the file names this process, and by
        // then the log already holds the login URL it tells its user to find there
        context.err().flush();
        files.announce(
            new ServeFiles.Running(ProcessHandle.current().pid(), server.port(), token, version));
        stop.await();
      }
    } finally {
      try {
        files.withdraw();
      } finally {
        closed.countDown();
        try {
          Runtime.getRuntime().removeShutdownHook(onTerm);
        } catch (IllegalStateException shuttingDown) {
          // the hook is running: it returns now that the store is closed
        }
      }
    }
  }

  /**
   * Starts this command again without {@code --detach} as a child process whose output goes to
   * {@code DIR/serve.log}, and waits until it names itself in {@value ServeFiles#RUNNING_FILE}.
   */
  private int detach(CliContext context, Path dir, ServeFiles files)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path logFile = dir.resolve("serve.log");
    List<String> command = new ArrayList<>();
    command.add(
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    // the JVM options this process was started with (bin/memhook's collector, MEMHOOK_JAVA_OPTS)
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            MemhookCli.class.getName(),
            "serve",
            "--dir",
            dir.toAbsolutePath().toString(),
            "--port",
            String.valueOf(port),
            "--context-limit",
            String.valueOf(contextLimit),
            "--context-chars",
            String.valueOf(contextChars),
            "--embedder",
            store.embedder.name().toLowerCase(Locale.ROOT)));
    if (standingChars != null) {
      command.addAll(List.of("--standing-chars", String.valueOf(standingChars)));
    }
    if (rotateToken) {
      command.add("--rotate-token");
    }
    File log = logFile.toFile();
    Process child =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log))
            .start();
    child.getOutputStream().close();
    long deadline = System.nanoTime() + DETACH_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<ServeFiles.Running> running = files.running();
      if (running.isPresent() && running.get().pid() == child.pid()) {
        context
            .out()
            .println(
                "memhook serve: pid "
                    + child.pid()
                    + " serves "
                    + dir
                    + " on http://127.0.0.1:"
                    + running.get().port()
                    + " (log: "
                    + logFile
                    + "); memhook view prints a login URL of its viewer");
        return ExitCode.OK;
      }
      if (child.waitFor(100, TimeUnit.MILLISECONDS)) {
        throw new CliException(
            child.exitValue(),
            "the server exited with status " + child.exitValue() + ": " + lastLines(logFile));
      }
    }
    child.destroy();
    throw new CliException(
        ExitCode.FAILED,
        "the server did not listen within " + DETACH_TIMEOUT.toSeconds() + " s; see " + logFile);
  }

  private static String lastLines(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    return String.join(" / ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
  }

  /** Who forgets in the viewer, for the audit record: the user, as {@code memhook forget}. */
  private static String actor(CliContext context) {
    String user = context.env().getOrDefault("USER", "");
    return user.isBlank() ? "memhook-viewer" : user;
  }

  /** The version serve.json and /health report. */
  static String version() {
    String v = MemhookCli.class.getPackage().getImplementationVersion();
    return v == null ? "development build" : v;
  }

  /**
   * {@code memhook serve stop}: stops the server of a store directory as SIGTERM does and waits
   * until its process has exited, so that the store is closed when it returns.
   */
  @Command(
      name = "stop",
      description =
          "Stop the memhook serve of the store directory cleanly (the store closed, capture"
              + " flushed) and wait until it has exited.")
  static final class Stop implements Callable<Integer> {
    @ParentCommand ServeCommand serve;
    @Mixin StoreArguments store;

    @Override
    public Integer call() throws IOException, InterruptedException {
      CliContext context = serve.root.context();
      Path dir = store.directory(context);
      Optional<ServeFiles.Running> running = new ServeFiles(dir).running();
      if (running.isEmpty()) {
        context.out().println("memhook serve: no server runs for " + dir);
        return ExitCode.OK;
      }
      long pid = running.get().pid();
      Optional<ProcessHandle> process = ProcessHandle.of(pid);
      if (process.isEmpty()) {
        context.out().println("memhook serve: no server runs for " + dir);
        return ExitCode.OK;
      }
      Duration wait = StoreArguments.CLOSE_TIMEOUT.plusSeconds(30);
      process.get().destroy();
      try {
        process.get().onExit().get(wait.toSeconds(), TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new CliException(
            ExitCode.FAILED,
            "the server (pid "
                + pid
                + ") has not exited after "
                + wait.toSeconds()
                + " s; it may still be closing the store. kill -9 "
                + pid
                + " loses no accepted event (capture replays its journal on the next open)");
      } catch (ExecutionException e) {
        throw new CliException(ExitCode.FAILED, "waiting for pid " + pid + " failed: " + e, e);
      }
      context.out().println("memhook serve: stopped pid " + pid + " serving " + dir);
      return ExitCode.OK;
    }
  }
}
