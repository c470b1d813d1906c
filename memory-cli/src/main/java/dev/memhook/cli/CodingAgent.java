package dev.memhook.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The coding agents {@code memhook install} knows: where each keeps its hooks, which of its hook
 * events it gets and as which of Memhook's events ({@link HookPayload} reads them), and, for an
 * agent Memhook cannot serve yet, why not. The formats are the agents' documented ones; the module
 * README's table says the same for users.
 */
enum CodingAgent {
  /**
   * Claude Code: {@code .claude/settings.json}, command or http hooks, every event Memhook
   * captures; MCP in {@code .mcp.json} (project) or {@code ~/.claude.json} (user).
   */
  CLAUDE_CODE(
      "claude-code",
      ".claude/settings.json",
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
          AgentEvent.of("SessionEnd")),
      null),

  /**
   * OpenAI Codex CLI: {@code .codex/hooks.json}, Claude Code's payloads and names, command hooks
   * only, five events (no failure, compaction, subagent or session-end event is documented).
   */
  CODEX(
      "codex",
      ".codex/hooks.json",
      1,
      List.of(
          AgentEvent.of("SessionStart"),
          AgentEvent.of("UserPromptSubmit"),
          AgentEvent.tool("PreToolUse"),
          AgentEvent.tool("PostToolUse"),
          AgentEvent.of("Stop")),
      null),

  /**
   * Gemini CLI: {@code .gemini/settings.json}, Claude Code's payload fields under its own event
   * names ({@link HookPayload#GEMINI_NAMES}), command hooks with timeouts in milliseconds.
   */
  GEMINI(
      "gemini",
      ".gemini/settings.json",
      1000,
      List.of(
          AgentEvent.of("SessionStart"),
          AgentEvent.of("BeforeAgent"),
          AgentEvent.tool("BeforeTool"),
          AgentEvent.tool("AfterTool"),
          AgentEvent.of("AfterAgent"),
          AgentEvent.of("PreCompress"),
          AgentEvent.of("SessionEnd")),
      null),

  COPILOT(
      "copilot",
      ".github/hooks/memhook.json",
      1,
      List.of(),
      "GitHub Copilot's hooks (.github/hooks/*.json) send their own payloads (camelCase fields,"
          + " toolArgs as a JSON string, millisecond timestamps; the coding agent's carry no"
          + " transcript), which Memhook's hook endpoint does not read, and only some of its"
          + " events may inject context; memhook install refuses rather than install hooks whose"
          + " events would be captured wrong. Use its MCP support with `memhook serve`'s /mcp"
          + " endpoint meanwhile."),

  CURSOR(
      "cursor",
      ".cursor/hooks.json",
      1,
      List.of(),
      "Cursor's hooks (.cursor/hooks.json) send their own payloads (conversation_id,"
          + " workspace_roots, one event per kind of tool: beforeShellExecution, afterFileEdit,"
          + " beforeMCPExecution, …), which Memhook's hook endpoint does not read, and its prompt"
          + " hook is not documented to inject context; memhook install refuses rather than"
          + " install hooks whose events would be captured wrong. Use its MCP support"
          + " (.cursor/mcp.json) with `memhook serve`'s /mcp endpoint meanwhile.");

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
  private final int timeoutUnitsPerSecond;
  private final List<AgentEvent> events;
  private final String refusal;

  CodingAgent(
      String id,
      String settings,
      int timeoutUnitsPerSecond,
      List<AgentEvent> events,
      String refusal) {
    this.id = id;
    this.settings = settings;
    this.timeoutUnitsPerSecond = timeoutUnitsPerSecond;
    this.events = events;
    this.refusal = refusal;
  }

  /** The name {@code --agent} takes. */
  String id() {
    return id;
  }

  /** The hooks file, relative to the project directory or to the user's home. */
  String settings() {
    return settings;
  }

  /**
   * The file the agent reads its MCP servers from, relative to the project directory or, with
   * {@code user}, to the user's home: Claude Code's {@code .mcp.json} or {@code ~/.claude.json},
   * Codex's {@code config.toml} (a project's is read only in a project Codex trusts), Gemini CLI's
   * settings file, which holds its hooks too.
   *
   * @throws IllegalStateException for an agent {@code memhook install} refuses
   */
  String mcpSettings(boolean user) {
    return switch (this) {
      case CLAUDE_CODE -> user ? ".claude.json" : ".mcp.json";
      case CODEX -> ".codex/config.toml";
      case GEMINI -> settings;
      case COPILOT, CURSOR -> throw new IllegalStateException(id + " is not installed");
    };
  }

  /** A hook's timeout in the unit the agent reads: seconds, or milliseconds for Gemini CLI. */
  int timeout(int seconds) {
    return seconds * timeoutUnitsPerSecond;
  }

  /** The events installed, in the order written. */
  List<AgentEvent> events() {
    return events;
  }

  /** Why {@code memhook install} does not serve this agent, if it does not. */
  Optional<String> refusal() {
    return Optional.ofNullable(refusal);
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
