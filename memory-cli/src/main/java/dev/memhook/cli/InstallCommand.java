package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.lucene.IndexInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code memhook install --agent NAME}: connects a coding agent to a store. Writes the no-JVM hook
 * script to {@code <store>/bin/}{@value #SCRIPT} and the key it encrypts its spool with ({@link
 * SpoolCipher}), then merges Memhook's hooks for every event the agent has ({@link CodingAgent})
 * into the agent's settings ({@link AgentHooks}, {@link SettingsFile}: every other key and hook
 * kept, a backup first, an atomic write, nothing written when nothing changes), and registers
 * {@code memhook serve}'s MCP endpoint ({@code http://127.0.0.1:PORT/mcp?scope=SCOPE}) the same way
 * in the file the agent reads its MCP servers from ({@link CodingAgent#mcpSettings}; {@link
 * AgentMcp} for JSON, {@link CodexConfig} for Codex's TOML), its token read from {@value
 * AgentHooks#TOKEN_VARIABLE} in the agent's environment. {@code --no-mcp} leaves MCP alone.
 *
 * <h2>Design note</h2>
 *
 * Every agent gets command hooks running the script, Claude Code too by default: the script posts
 * to {@code memhook serve} when it runs and spools, encrypted, when it does not, so no event is
 * lost while the server is down, where Claude Code drops an http hook's event when nothing listens.
 * {@code --transport http} writes Claude Code's http hooks instead, for a server that always runs;
 * they save the script's process start per event and lose what arrives while it is down.
 *
 * <p>Not thread-safe: one instance per run.
 */
@Command(
    name = "install",
    description =
        "Connect a coding agent to the store: write the no-JVM hook script DIR/bin/memhook-hook"
            + " and its spool key, merge Memhook's hooks for every event the agent has into the"
            + " agent's settings, and register memhook serve's MCP endpoint where the agent reads"
            + " its MCP servers, keeping every other setting, with a timestamped backup. Running it"
            + " again changes nothing.")
final class InstallCommand implements Callable<Integer> {
  /** The script's name in {@code <store>/bin}. */
  static final String SCRIPT = "memhook-hook";

  /** The port {@code memhook serve} listens on by default. */
  static final int DEFAULT_PORT = 7373;

  /** How Claude Code's hooks reach the server. */
  enum Transport {
    /** The script: the server, else the encrypted spool. */
    COMMAND,
    /** Claude Code's http hooks: the server only. */
    HTTP
  }

  @ParentCommand MemhookCli root;

  @Option(
      names = "--agent",
      required = true,
      paramLabel = "NAME",
      description = "claude-code, codex, gemini, copilot or cursor.")
  String agent;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description =
          "The store directory. Default: $"
              + StoreArguments.DIR_VARIABLE
              + ", else ./"
              + StoreArguments.DEFAULT_DIRECTORY
              + ".")
  Path dir;

  @Option(
      names = "--scope",
      paramLabel = "SCOPE",
      description = "The scope the hooks capture into and recall from. Default: ${DEFAULT-VALUE}.")
  Scope scope = Scope.DEFAULT;

  @Option(
      names = "--user",
      description =
          "Install for the user (~/.claude/settings.json and ~/.claude.json, ~/.codex/hooks.json,"
              + " ~/.gemini/settings.json, ~/.copilot/hooks/memhook.json, ~/.cursor/hooks.json)"
              + " instead of the project in the current directory.")
  boolean user;

  @Option(
      names = "--settings",
      paramLabel = "FILE",
      description = "The agent's hooks file, instead of the project's or the user's.")
  Path settings;

  @Option(
      names = "--mcp-settings",
      paramLabel = "FILE",
      description =
          "The file to register the MCP server in, instead of the project's or the user's"
              + " (.mcp.json or ~/.claude.json, .codex/config.toml, the Gemini settings file).")
  Path mcpSettings;

  @Option(
      names = "--no-mcp",
      description = "Register no MCP server; only the hooks and the script are written.")
  boolean noMcp;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "The port memhook serve listens on. Default: ${DEFAULT-VALUE}.")
  int port = DEFAULT_PORT;

  @Option(
      names = "--transport",
      paramLabel = "KIND",
      description =
          "claude-code's hooks: command (the script: the server, else the encrypted spool; no"
              + " event lost) or http (Claude Code posts to the server; events are lost while it"
              + " is down). Default: ${DEFAULT-VALUE}.")
  Transport transport = Transport.COMMAND;

  @Override
  public Integer call() throws IOException {
    CliContext context = root.context();
    CodingAgent target = CodingAgent.of(agent);
    if (transport == Transport.HTTP && target != CodingAgent.CLAUDE_CODE) {
      throw new IllegalArgumentException(
          "--transport http is for claude-code only; " + target.id() + " runs command hooks");
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("--port must be 1-65535, got " + port);
    }
    Path store = StoreArguments.directory(dir, context).toAbsolutePath().normalize();
    refuseUnbundled(store);
    Instant now = Instant.now();
    PrintStream out = context.out();

    Path script = store.resolve("bin").resolve(SCRIPT);
    String command =
        AgentHooks.shellQuote(script.toString()) + " " + AgentHooks.shellQuote(scope.value());
    Path hooksFile =
        settings != null
            ? settings
            : home(context, user).resolve(user ? target.userSettings() : target.settings());
    Consumer<ObjectNode> hooksChange =
        s -> {
          AgentHooks.merge(
              s,
              target,
              event ->
                  transport == Transport.HTTP
                      ? AgentHooks.http(url("hook"))
                      : AgentHooks.command(target, command + origin(target, event)));
        };
    String mcpUrl = url("mcp");
    if (mcpSettings != null && target.mcpSettings(user).isEmpty()) {
      throw new IllegalArgumentException(
          "--mcp-settings: memhook install registers no MCP server for "
              + target.id()
              + "; it prints the entry to add");
    }
    Path mcpFile =
        noMcp || target.mcpSettings(user).isEmpty()
            ? null
            : mcpSettings != null
                ? mcpSettings
                : target == CodingAgent.GEMINI
                    ? hooksFile // Gemini CLI keeps its MCP servers beside its hooks
                    : home(context, user).resolve(target.mcpSettings(user).get());
    boolean mcpWithHooks =
        mcpFile != null
            && mcpFile.toAbsolutePath().normalize().equals(hooksFile.toAbsolutePath().normalize());
    if (mcpWithHooks && target == CodingAgent.CODEX) {
      throw new IllegalArgumentException(
          "codex reads its MCP servers from config.toml, not from its hooks file " + hooksFile);
    }
    Consumer<ObjectNode> mcpChange =
        target == CodingAgent.CODEX ? null : s -> AgentMcp.merge(s, AgentMcp.entry(target, mcpUrl));
    Consumer<ObjectNode> settingsChange =
        mcpWithHooks ? hooksChange.andThen(mcpChange) : hooksChange;
    // every file is checked before any is written: a bad one leaves them all as they were
    SettingsFile.check(hooksFile, settingsChange);
    if (mcpFile != null && !mcpWithHooks) {
      if (target == CodingAgent.CODEX) {
        CodexConfig.check(mcpFile, mcpUrl, AgentHooks.TOKEN_VARIABLE);
      } else {
        SettingsFile.check(mcpFile, mcpChange);
      }
    }

    out.println(
        "hook script: " + script + " (" + (writeScript(script) ? "written" : "unchanged") + ")");
    boolean keyExisted = Files.exists(store.resolve(SpoolCipher.KEY_FILE));
    SpoolCipher.ensureKey(store);
    out.println(
        "spool key: "
            + store.resolve(SpoolCipher.KEY_FILE)
            + " ("
            + (keyExisted ? "kept" : "created, readable by you only")
            + ")");

    SettingsFile.Outcome hooks = SettingsFile.update(hooksFile, settingsChange, now);
    out.println(
        "hooks: "
            + hooks.file()
            + " ("
            + hooks.describe()
            + "): "
            + String.join(
                ", ", target.events().stream().map(CodingAgent.AgentEvent::name).toList()));

    if (mcpFile == null && !noMcp) {
      out.println(
          "MCP server: not registered: "
              + target.id()
              + " keeps its MCP servers in one file per user (~/.copilot/mcp-config.json), and"
              + " its documentation names no way to take a header from the environment. To add"
              + " it yourself, put under \"mcpServers\": \""
              + CodexConfig.SERVER
              + "\": {\"type\": \"http\", \"url\": \""
              + mcpUrl
              + "\", \"headers\": {\"Authorization\": \"Bearer <the token>\"}, \"tools\":"
              + " [\"*\"]}");
    } else if (mcpFile == null) {
      out.println("MCP server: not registered (--no-mcp)");
    } else {
      SettingsFile.Outcome mcp =
          mcpWithHooks
              ? hooks
              : target == CodingAgent.CODEX
                  ? CodexConfig.update(mcpFile, mcpUrl, AgentHooks.TOKEN_VARIABLE, now)
                  : SettingsFile.update(mcpFile, mcpChange, now);
      out.println(
          "MCP server: "
              + mcp.file()
              + " ("
              + mcp.describe()
              + "): "
              + CodexConfig.SERVER
              + " at "
              + mcpUrl
              + ", its token from $"
              + AgentHooks.TOKEN_VARIABLE);
    }
    // quoted for the shell it is pasted into: a store's path may hold spaces, quotes or $
    out.println(
        "Start the server with `memhook serve --dir "
            + AgentHooks.shellQuote(store.toString())
            + (port == DEFAULT_PORT ? "" : " --port " + port)
            + "`, and give the agent its token: export "
            + AgentHooks.TOKEN_VARIABLE
            + "=$(cat "
            + AgentHooks.shellQuote(store.resolve("serve.token").toString())
            + ")");
    return ExitCode.OK;
  }

  /**
   * What the script is told of the payloads it is given, after the scope: nothing for the agents
   * that send Claude Code's format, else the agent and the event ({@link HookOrigin}), since GitHub
   * Copilot's payloads do not name their event.
   */
  private static String origin(CodingAgent agent, CodingAgent.AgentEvent event) {
    return switch (agent) {
      case CLAUDE_CODE, CODEX, GEMINI -> "";
      case CURSOR, COPILOT -> " " + agent.id() + " " + event.name();
    };
  }

  /** The server's endpoint {@code path} for the scope. */
  private String url(String path) {
    // a scope is letters, digits and ._@+-/; of those only + means something else in a query
    return "http://127.0.0.1:" + port + "/" + path + "?scope=" + scope.value().replace("+", "%2B");
  }

  /**
   * Refuses a store built with a model memhook does not have: the hooks and {@code memhook serve}
   * write to it, which needs that model, so every event would wait in the spool. A directory
   * without a readable store yet is left to the first hook, as before.
   */
  private static void refuseUnbundled(Path store) {
    if (!StoreArguments.hasIndex(store)) {
      return;
    }
    EmbeddingSpace space;
    try {
      space = IndexInfo.read(store).space();
    } catch (MemoryStoreException e) {
      return;
    }
    if (space != null && !EmbedderChoice.offers(space)) {
      throw new CliException(
          ExitCode.STORE_UNAVAILABLE,
          "the hooks and memhook serve write to the store at "
              + store
              + ", and "
              + UnbundledModel.explain(space)
              + "; nothing was installed");
    }
  }

  /** The user's home with {@code user}, else the project: the current directory. */
  private static Path home(CliContext context, boolean user) {
    if (!user) {
      return Path.of("").toAbsolutePath();
    }
    String home = context.env().get("HOME");
    return Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"));
  }

  /** Writes the script unless it is there as it would be written; returns whether it wrote. */
  private static boolean writeScript(Path script) throws IOException {
    byte[] text;
    try (InputStream in = InstallCommand.class.getResourceAsStream(SCRIPT)) {
      if (in == null) {
        throw new IllegalStateException("the hook script is missing from memhook's jar");
      }
      text = in.readAllBytes();
    }
    if (Files.isRegularFile(script) && Arrays.equals(Files.readAllBytes(script), text)) {
      return false;
    }
    Files.createDirectories(script.getParent());
    Path tmp = Files.createTempFile(script.getParent(), "." + SCRIPT, ".tmp");
    try {
      Files.write(tmp, text);
      try {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
      } catch (UnsupportedOperationException notPosix) {
        // agents on Windows run hooks through their own shell
      }
      Files.move(tmp, script, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
    return true;
  }
}
