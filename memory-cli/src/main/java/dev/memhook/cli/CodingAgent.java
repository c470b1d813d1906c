package dev.memhook.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The coding agents {@code memhook install} knows: where each keeps its hooks and how its hooks
 * file lists them, and which of its hook events it gets ({@link AgentPayloads} translates their
 * payloads into the ones {@link HookPayload} reads). The formats are the agents' documented ones;
 * the README's table says the same for users.
 */
enum CodingAgent {
  /**
   * Claude Code: {@code .claude/settings.json}, command or http hooks, every event Memhook
   * captures; MCP in {@code .mcp.json} (project) or {@code ~/.claude.json} (user).
   */
  CLAUDE_CODE(
      "claude-code",
      ".claude/settings.json",
      ".claude/settings.json",
      HookLayout.GROUPED,
      1,
      List.of(
          AgentEvent.of("SessionStart"),
          AgentEvent.of("UserPromptSubmit"),
          AgentEvent.tool("PreToolUse"),
          AgentEvent.tool("PostToolUse"),
          AgentEvent.tool("PostToolUseFailure"),
          AgentEvent.of("PreCompact"),
          AgentEvent.of("Stop"),
          AgentEvent.of("SubagentStop"),
          AgentEvent.of("SessionEnd"))),

  /**
   * OpenAI Codex CLI: {@code .codex/hooks.json}, Claude Code's payloads and names, command hooks
   * only. Its hook schemas name no tool failure and no session end; its {@code PostCompact}, {@code
   * SubagentStart} and {@code StopFailure} carry nothing Memhook keeps.
   */
  CODEX(
      "codex",
      ".codex/hooks.json",
      ".codex/hooks.json",
      HookLayout.GROUPED,
      1,
      List.of(
          AgentEvent.of("SessionStart"),
          AgentEvent.of("UserPromptSubmit"),
          AgentEvent.tool("PreToolUse"),
          AgentEvent.tool("PostToolUse"),
          AgentEvent.of("PreCompact"),
          AgentEvent.of("Stop"),
          AgentEvent.of("SubagentStop"))),

  /**
   * Gemini CLI: {@code .gemini/settings.json}, Claude Code's payload fields under its own event
   * names ({@link HookPayload#GEMINI_NAMES}), command hooks with timeouts in milliseconds.
   */
  GEMINI(
      "gemini",
      ".gemini/settings.json",
      ".gemini/settings.json",
      HookLayout.GROUPED,
      1000,
      List.of(
          AgentEvent.of("SessionStart"),
          AgentEvent.of("BeforeAgent"),
          AgentEvent.tool("BeforeTool"),
          AgentEvent.tool("AfterTool"),
          AgentEvent.of("AfterAgent"),
          AgentEvent.of("PreCompress"),
          AgentEvent.of("SessionEnd"))),

  /**
   * GitHub Copilot, CLI and cloud agent: {@code .github/hooks/memhook.json} (user: {@code
   * ~/.copilot/hooks/memhook.json}), flat entries with a {@code bash} command, camelCase payloads
   * that name no event, so each hook names its own ({@link AgentPayloads}). Its {@code agentStop}
   * carries no reply text and {@code errorOccurred} no tool, so neither is installed.
   */
  COPILOT(
      "copilot",
      ".github/hooks/memhook.json",
      ".copilot/hooks/memhook.json",
      HookLayout.FLAT,
      1,
      List.of(
          AgentEvent.of("sessionStart"),
          AgentEvent.of("userPromptSubmitted"),
          AgentEvent.tool("preToolUse"),
          AgentEvent.tool("postToolUse"),
          AgentEvent.tool("postToolUseFailure"),
          AgentEvent.of("preCompact"),
          AgentEvent.of("subagentStop"),
          AgentEvent.of("sessionEnd"))),

  /**
   * Cursor: {@code .cursor/hooks.json} (user: {@code ~/.cursor/hooks.json}), flat entries with a
   * {@code command}, its own payloads ({@link AgentPayloads}). The generic tool events are
   * installed, not the per-tool ones ({@code beforeShellExecution}, …), which would report each
   * call twice; its {@code stop} carries no reply text, which {@code afterAgentResponse} does.
   */
  CURSOR(
      "cursor",
      ".cursor/hooks.json",
      ".cursor/hooks.json",
      HookLayout.FLAT,
      1,
      List.of(
          AgentEvent.of("sessionStart"),
          AgentEvent.of("beforeSubmitPrompt"),
          AgentEvent.tool("preToolUse"),
          AgentEvent.tool("postToolUse"),
          AgentEvent.tool("postToolUseFailure"),
          AgentEvent.of("afterAgentResponse"),
          AgentEvent.of("preCompact"),
          AgentEvent.of("subagentStop"),
          AgentEvent.of("sessionEnd")));

  /** How an agent's hooks file lists the hooks of one event. */
  enum HookLayout {
    /**
     * Claude Code's, which Codex and Gemini CLI share: matcher groups, each with a {@code hooks}
     * list ({@code "PreToolUse":[{"matcher":"*","hooks":[{"type":"command",…}]}]}).
     */
    GROUPED,
    /**
     * Cursor's and GitHub Copilot's: the hooks themselves, in a file that says {@code "version":1}
     * ({@code "preToolUse":[{"command":…}]}).
     */
    FLAT
  }

  /**
   * One of an agent's hook events.
   *
   * @param name the agent's name for it, the key in its settings
   * @param tool whether it is a tool event, which takes a matcher in Claude Code
   */
  record AgentEvent(String name, boolean tool) {
    static AgentEvent of(String name) {
      return new AgentEvent(name, false);
    }

    static AgentEvent tool(String name) {
      return new AgentEvent(name, true);
    }
  }

  private final String id;
  private final String settings;
  private final String userSettings;
  private final HookLayout layout;
  private final int timeoutUnitsPerSecond;
  private final List<AgentEvent> events;

  CodingAgent(
      String id,
      String settings,
      String userSettings,
      HookLayout layout,
      int timeoutUnitsPerSecond,
      List<AgentEvent> events) {
    this.id = id;
    this.settings = settings;
    this.userSettings = userSettings;
    this.layout = layout;
    this.timeoutUnitsPerSecond = timeoutUnitsPerSecond;
    this.events = events;
  }

  /** The name {@code --agent} takes. */
  String id() {
    return id;
  }

  /** The hooks file, relative to the project directory. */
  String settings() {
    return settings;
  }

  /**
   * The file the agent reads its MCP servers from, relative to the project directory or, with
   * {@code user}, to the user's home: Claude Code's {@code .mcp.json} or {@code ~/.claude.json},
   * Codex's {@code config.toml} (a project's is read only in a project Codex trusts), Gemini CLI's
   * settings file, which holds its hooks too, Cursor's {@code .cursor/mcp.json}; empty for GitHub
   * Copilot, whose CLI keeps its servers in one file per user and documents no way to take a
   * header's value from the environment, so {@code memhook install} prints its entry instead.
   */
  Optional<String> mcpSettings(boolean user) {
    return switch (this) {
      case CLAUDE_CODE -> Optional.of(user ? ".claude.json" : ".mcp.json");
      case CODEX -> Optional.of(".codex/config.toml");
      case GEMINI -> Optional.of(settings);
      case CURSOR -> Optional.of(".cursor/mcp.json");
      case COPILOT -> Optional.empty();
    };
  }

  /** The hooks file, relative to the user's home. */
  String userSettings() {
    return userSettings;
  }

  /** How its hooks file lists an event's hooks. */
  HookLayout layout() {
    return layout;
  }

  /** A hook's timeout in the unit the agent reads: seconds, or milliseconds for Gemini CLI. */
  int timeout(int seconds) {
    return seconds * timeoutUnitsPerSecond;
  }

  /** The events installed, in the order written. */
  List<AgentEvent> events() {
    return events;
  }

  /**
   * The agent named {@code id}.
   *
   * @throws IllegalArgumentException naming the agents known, if none is
   */
  static CodingAgent of(String id) {
    return Arrays.stream(values())
        .filter(a -> a.id.equals(id))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown agent '"
                        + id
                        + "'; expected one of "
                        + Arrays.stream(values())
                            .map(CodingAgent::id)
                            .collect(Collectors.joining(", "))));
  }
}
