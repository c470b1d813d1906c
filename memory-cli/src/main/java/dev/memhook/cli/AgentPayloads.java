package dev.memhook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.capture.LifecycleEventType;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The one place where a coding agent's own hook payloads become Claude Code's, which {@link
 * HookPayload} completes for capture, and where an answer takes the agent's own shape. Each agent
 * has one translator here, chosen by the {@link HookOrigin} the installed hook declares:
 *
 * <ul>
 *   <li><b>Claude Code, Codex, Gemini CLI</b>: the payload as sent (Codex sends Claude Code's;
 *       Gemini CLI's event names are read by {@link HookPayload#GEMINI_NAMES}). Answers are {@code
 *       {"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}} for a session's start and
 *       for a prompt.
 *   <li><b>Cursor</b> ({@code .cursor/hooks.json}): {@code conversation_id} is the session, {@code
 *       cwd} or else the first of {@code workspace_roots} the directory; {@code sessionStart},
 *       {@code beforeSubmitPrompt}, {@code preToolUse}, {@code postToolUse} (its {@code
 *       tool_output}, a JSON string, read as JSON), {@code postToolUseFailure} ({@code
 *       error_message}), {@code afterAgentResponse} (its {@code text} is the reply), {@code
 *       preCompact}, {@code subagentStop}, {@code sessionEnd}, and the older per-tool events {@code
 *       beforeShellExecution}, {@code afterShellExecution}, {@code beforeMCPExecution}, {@code
 *       afterMCPExecution}, {@code beforeReadFile} and {@code afterFileEdit} as the tool events
 *       they are. Its {@code Shell} tool is Claude Code's {@code Bash}. Only {@code sessionStart}
 *       may add context: {@code {"additional_context":…}}; {@code beforeSubmitPrompt} can only
 *       allow or block the prompt, so prompts are captured and not answered.
 *   <li><b>GitHub Copilot</b> (CLI and cloud agent, {@code .github/hooks/*.json}): its camelCase
 *       payloads name no event, so the hook names it; {@code sessionId}, {@code cwd}, {@code
 *       timestamp} (epoch milliseconds), {@code toolName} (its runtime names, {@code bash}, {@code
 *       view}, {@code edit}, …, mapped to Claude Code's as Copilot's own documentation maps them),
 *       {@code toolArgs} (an object, or a JSON string), {@code toolResult.textResultForLlm}, {@code
 *       error}; events {@code sessionStart}, {@code userPromptSubmitted}, {@code preToolUse},
 *       {@code postToolUse}, {@code postToolUseFailure}, {@code preCompact}, {@code subagentStop}
 *       ({@code agentName}, {@code response}), {@code sessionEnd}. A payload Copilot sends in its
 *       VS Code compatible format (snake_case, for PascalCase event names) is Claude Code's but for
 *       {@code tool_result}, which is moved to {@code tool_response}. Only {@code sessionStart} may
 *       add context: {@code {"additionalContext":…}}; Copilot drops what a command hook answers to
 *       a prompt.
 * </ul>
 *
 * Events an agent has that Memhook cannot capture are refused with the reason (Cursor's {@code
 * stop} and Copilot's {@code agentStop} carry no reply text; Copilot's {@code errorOccurred} names
 * no tool). Only the fields named above are carried over, so whatever else a payload holds (an
 * email address, a file's content before it is read) is dropped before anything is spooled.
 * Stateless.
 */
final class AgentPayloads {
  /** Cursor's tool names that differ from Claude Code's for the same tool. */
  private static final Map<String, String> CURSOR_TOOLS = Map.of("Shell", "Bash");

  /**
   * Copilot's runtime tool names by Claude Code's names for them, as Copilot's hooks reference maps
   * them for its Claude-compatible matchers.
   */
  private static final Map<String, String> COPILOT_TOOLS =
      Map.ofEntries(
          Map.entry("bash", "Bash"),
          Map.entry("powershell", "Bash"),
          Map.entry("view", "Read"),
          Map.entry("create", "Write"),
          Map.entry("edit", "Edit"),
          Map.entry("str_replace_editor", "Edit"),
          Map.entry("apply_patch", "Edit"),
          Map.entry("grep", "Grep"),
          Map.entry("rg", "Grep"),
          Map.entry("glob", "Glob"),
          Map.entry("web_fetch", "WebFetch"),
          Map.entry("web_search", "WebSearch"),
          Map.entry("ask_user", "AskUserQuestion"),
          Map.entry("update_todo", "TodoWrite"),
          Map.entry("task", "Task"));

  private AgentPayloads() {}

  /**
   * {@code payload} as Claude Code would have sent the same event: a new object for Cursor's and
   * Copilot's payloads, {@code payload} itself for the agents that send Claude Code's.
   *
   * @throws IllegalArgumentException if {@code payload} is not an object, or its event is not one
   *     Memhook reads from that agent (the message says why)
   */
  static JsonNode toClaude(HookOrigin origin, JsonNode payload) {
    if (payload == null || !payload.isObject()) {
      throw new IllegalArgumentException("the hook input is not one JSON object");
    }
    return switch (origin.agent()) {
      case CLAUDE_CODE, CODEX, GEMINI -> payload;
      case CURSOR -> cursor(eventName(origin, payload), payload);
      case COPILOT ->
          payload.has("hook_event_name")
              ? copilotVsCode(payload)
              : copilot(eventName(origin, payload), payload);
    };
  }

  /**
   * Whether {@code agent} reads what a hook answers to an event of {@code type}: a session's start
   * for all, a prompt only for the agents whose prompt hook may add context.
   */
  static boolean answers(CodingAgent agent, LifecycleEventType type) {
    return switch (type) {
      case SESSION_START -> true;
      case PROMPT_SUBMIT -> agent != CodingAgent.CURSOR && agent != CodingAgent.COPILOT;
      default -> false;
    };
  }

  /**
   * The answer that gives {@code agent} {@code context} as added context for the event it named
   * {@code claudeName} in Claude Code's words, in the agent's own shape.
   */
  static ObjectNode answer(CodingAgent agent, String claudeName, String context) {
    ObjectNode out = JsonRecords.MAPPER.createObjectNode();
    switch (agent) {
      case CURSOR -> out.put("additional_context", context);
      case COPILOT -> out.put("additionalContext", context);
      case CLAUDE_CODE, CODEX, GEMINI ->
          out.putObject("hookSpecificOutput")
              .put("hookEventName", claudeName)
              .put("additionalContext", context);
    }
    return out;
  }

  private static String eventName(HookOrigin origin, JsonNode payload) {
    if (!origin.event().isEmpty()) {
      return origin.event();
    }
    JsonNode named = payload.get("hook_event_name");
    if (named != null && named.isTextual()) {
      return named.textValue();
    }
    throw new IllegalArgumentException(
        origin.agent().id()
            + "'s payload names no event, and the hook did not either (--event, event=, or the"
            + " script's third argument)");
  }

  private static ObjectNode cursor(String event, JsonNode p) {
    ObjectNode out = JsonRecords.MAPPER.createObjectNode();
    String session = text(p, "conversation_id", text(p, "session_id", null));
    if (session != null) {
      out.put("session_id", session);
    }
    String cwd = text(p, "cwd", p.path("workspace_roots").path(0).textValue());
    if (cwd != null) {
      out.put("cwd", cwd);
    }
    switch (event) {
      case "sessionStart" -> name(out, "SessionStart").put("source", "startup");
      case "sessionEnd" -> copy(p, "reason", name(out, "SessionEnd"), "reason");
      case "beforeSubmitPrompt" -> copy(p, "prompt", name(out, "UserPromptSubmit"), "prompt");
      case "preToolUse" -> tool(name(out, "PreToolUse"), p, CURSOR_TOOLS);
      case "postToolUse" -> {
        tool(name(out, "PostToolUse"), p, CURSOR_TOOLS);
        setJson(out, "tool_response", p.get("tool_output"));
      }
      case "postToolUseFailure" -> {
        tool(name(out, "PostToolUseFailure"), p, CURSOR_TOOLS);
        copy(p, "error_message", out, "error");
      }
      case "beforeShellExecution", "afterShellExecution" -> {
        boolean after = event.startsWith("after");
        name(out, after ? "PostToolUse" : "PreToolUse").put("tool_name", "Bash");
        copy(p, "command", out.putObject("tool_input"), "command");
        if (after) {
          copy(p, "output", out.putObject("tool_response"), "stdout");
        }
      }
      case "beforeMCPExecution", "afterMCPExecution" -> {
        boolean after = event.startsWith("after");
        copy(p, "tool_name", name(out, after ? "PostToolUse" : "PreToolUse"), "tool_name");
        setJson(out, "tool_input", p.get("tool_input"));
        if (after) {
          setJson(out, "tool_response", p.get("result_json"));
        }
      }
      case "beforeReadFile" -> {
        // the file's content is not carried: the agent has not read it yet, and it may be anything
        name(out, "PreToolUse").put("tool_name", "Read");
        copy(p, "file_path", out.putObject("tool_input"), "file_path");
      }
      case "afterFileEdit" -> fileEdit(name(out, "PostToolUse"), p);
      case "afterAgentResponse" -> copy(p, "text", name(out, "Stop"), "last_assistant_message");
      case "preCompact" -> copy(p, "trigger", name(out, "PreCompact"), "trigger");
      case "subagentStop" -> {
        copy(p, "subagent_type", name(out, "SubagentStop"), "agent_type");
        copy(p, "result", out, "last_assistant_message");
      }
      case "stop" ->
          throw new IllegalArgumentException(
              "Cursor's stop carries no reply text; Memhook reads the reply from"
                  + " afterAgentResponse");
      default ->
          throw new IllegalArgumentException(
              "unknown or unsupported Cursor hook event '" + event + "'");
    }
    return out;
  }

  /**
   * Cursor's {@code afterFileEdit} as Claude Code's {@code Edit} (one edit) or {@code MultiEdit}.
   */
  private static void fileEdit(ObjectNode out, JsonNode p) {
    JsonNode edits = p.path("edits");
    ObjectNode input = out.putObject("tool_input");
    copy(p, "file_path", input, "file_path");
    if (edits.isArray() && edits.size() == 1) {
      out.put("tool_name", "Edit");
      copy(edits.get(0), "old_string", input, "old_string");
      copy(edits.get(0), "new_string", input, "new_string");
    } else {
      out.put("tool_name", "MultiEdit");
      ArrayNode list = input.putArray("edits");
      for (JsonNode e : edits) {
        ObjectNode one = list.addObject();
        copy(e, "old_string", one, "old_string");
        copy(e, "new_string", one, "new_string");
      }
    }
    copy(p, "file_path", out.putObject("tool_response"), "filePath");
  }

  private static ObjectNode copilot(String event, JsonNode p) {
    ObjectNode out = JsonRecords.MAPPER.createObjectNode();
    copy(p, "sessionId", out, "session_id");
    copy(p, "cwd", out, "cwd");
    JsonNode ms = p.get("timestamp");
    if (ms != null && ms.canConvertToLong()) {
      out.put("timestamp", Instant.ofEpochMilli(ms.longValue()).toString());
    }
    switch (event) {
      case "sessionStart" -> copy(p, "source", name(out, "SessionStart"), "source");
      case "sessionEnd" -> copy(p, "reason", name(out, "SessionEnd"), "reason");
      case "userPromptSubmitted" -> copy(p, "prompt", name(out, "UserPromptSubmit"), "prompt");
      case "preToolUse" -> copilotTool(name(out, "PreToolUse"), p);
      case "postToolUse" -> {
        copilotTool(name(out, "PostToolUse"), p);
        JsonNode result = p.path("toolResult");
        copy(result, "textResultForLlm", out, "tool_response");
      }
      case "postToolUseFailure" -> {
        copilotTool(name(out, "PostToolUseFailure"), p);
        copy(p, "error", out, "error");
      }
      case "preCompact" -> copy(p, "trigger", name(out, "PreCompact"), "trigger");
      case "subagentStop" -> {
        name(out, "SubagentStop").put("agent_type", text(p, "agentName", text(p, "agentType", "")));
        copy(p, "response", out, "last_assistant_message");
      }
      case "agentStop" ->
          throw new IllegalArgumentException(
              "GitHub Copilot's agentStop carries no reply text, only a transcript in Copilot's"
                  + " own format; its turns are captured from their prompts and tools");
      case "errorOccurred" ->
          throw new IllegalArgumentException(
              "GitHub Copilot's errorOccurred names no tool; a tool's failure comes as"
                  + " postToolUseFailure");
      default ->
          throw new IllegalArgumentException(
              "unknown or unsupported GitHub Copilot hook event '" + event + "'");
    }
    return out;
  }

  private static void copilotTool(ObjectNode out, JsonNode p) {
    String tool = text(p, "toolName", null);
    if (tool != null) {
      out.put("tool_name", COPILOT_TOOLS.getOrDefault(tool, tool));
    }
    setJson(out, "tool_input", p.get("toolArgs"));
  }

  /** Copilot's VS Code compatible payload: Claude Code's, but for its tool result's field. */
  private static JsonNode copilotVsCode(JsonNode payload) {
    ObjectNode out = ((ObjectNode) payload).deepCopy();
    JsonNode result = out.remove("tool_result");
    if (result != null && !out.has("tool_response")) {
      JsonNode text = result.get("text_result_for_llm");
      out.set("tool_response", text != null ? text : result);
    }
    return out;
  }

  private static void tool(ObjectNode out, JsonNode p, Map<String, String> names) {
    String tool = text(p, "tool_name", null);
    if (tool != null) {
      out.put("tool_name", names.getOrDefault(tool, tool));
    }
    setJson(out, "tool_input", p.get("tool_input"));
    copy(p, "tool_use_id", out, "tool_use_id");
  }

  private static ObjectNode name(ObjectNode out, String claudeName) {
    return out.put("hook_event_name", claudeName);
  }

  /** Sets {@code field} to {@code value}, or to the JSON a string value holds if it holds some. */
  private static void setJson(ObjectNode out, String field, JsonNode value) {
    if (value == null || value.isNull()) {
      return;
    }
    out.set(field, value.isTextual() ? parsed(value.textValue()).orElse(value) : value.deepCopy());
  }

  private static Optional<JsonNode> parsed(String text) {
    String t = text.strip();
    if (!t.startsWith("{") && !t.startsWith("[")) {
      return Optional.empty(); // a plain string stays one
    }
    try {
      return Optional.of(JsonRecords.MAPPER.readTree(t));
    } catch (IOException notJson) {
      return Optional.empty();
    }
  }

  private static void copy(JsonNode from, String field, ObjectNode to, String as) {
    JsonNode v = from.get(field);
    if (v != null && !v.isNull()) {
      to.set(as, v.deepCopy());
    }
  }

  private static String text(JsonNode n, String field, String otherwise) {
    JsonNode v = n.get(field);
    return v != null && v.isTextual() ? v.textValue() : otherwise;
  }
}
