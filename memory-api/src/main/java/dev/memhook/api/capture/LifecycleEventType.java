package dev.memhook.api.capture;

import java.util.Locale;
import java.util.Optional;

/**
 * The lifecycle events {@code MemoryCapture.observe} accepts, named as a coding agent's hook script
 * posts them.
 *
 * <p>{@link #fromWire(String)} reads the name case-insensitively, ignoring {@code _} and {@code -},
 * and accepts the aliases listed on each constant, so {@code "PostToolUse"}, {@code
 * "post_tool_use"} and {@code "post-tool-use"} are one type.
 */
public enum LifecycleEventType {
  /** A session begins. */
  SESSION_START("SessionStart"),
  /** The user submits a prompt; {@code data.prompt} is required. Alias {@code UserPromptSubmit}. */
  PROMPT_SUBMIT("PromptSubmit", "UserPromptSubmit"),
  /** A tool is about to run; {@code data.toolName} is required. */
  PRE_TOOL_USE("PreToolUse"),
  /** A tool ran; {@code data.toolName} is required. */
  POST_TOOL_USE("PostToolUse"),
  /**
   * A tool failed; {@code data.toolName} and {@code data.error} are required. Alias {@code
   * PostToolUseFailure}.
   */
  TOOL_FAILURE("ToolFailure", "PostToolUseFailure"),
  /** The agent answered the user; {@code data.message} is required. Alias {@code Stop}. */
  AGENT_RESPONSE("AgentResponse", "Stop"),
  /** The conversation is about to be compacted; {@code data.message} may hold the transcript. */
  PRE_COMPACT("PreCompact"),
  /** A subagent starts; {@code data.agentName} is required. */
  SUBAGENT_START("SubagentStart"),
  /** A subagent stops; {@code data.agentName} is required. */
  SUBAGENT_STOP("SubagentStop"),
  /** The session ends: its observations are consolidated into memories. */
  SESSION_END("SessionEnd");

  private final String wireName;
  private final String[] aliases;

  LifecycleEventType(String wireName, String... aliases) {
    this.wireName = wireName;
    this.aliases = aliases;
  }

  /** The name this type has in JSON, such as {@code "PostToolUse"}. */
  public String wireName() {
    return wireName;
  }

  /** The type a hook script names {@code name}, or empty if none. Null gives empty. */
  public static Optional<LifecycleEventType> fromWire(String name) {
    if (name == null) {
      return Optional.empty();
    }
    String key = normalise(name);
    for (LifecycleEventType type : values()) {
      if (normalise(type.wireName).equals(key) || normalise(type.name()).equals(key)) {
        return Optional.of(type);
      }
      for (String alias : type.aliases) {
        if (normalise(alias).equals(key)) {
          return Optional.of(type);
        }
      }
    }
    return Optional.empty();
  }

  private static String normalise(String name) {
    return name.replace("_", "").replace("-", "").toLowerCase(Locale.ROOT);
  }
}
