package dev.memhook.api.chat;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A call of a named tool with JSON-like arguments (strings, numbers, booleans, lists, maps, null).
 *
 * <p>Immutable at the top level and thread-safe: the argument map is copied and unmodifiable;
 * nested lists and maps are the caller's and must not be changed after the call is made. Null
 * argument values are allowed, as JSON allows them.
 *
 * @param id the call's id, unique within a conversation
 * @param toolName the tool's name
 * @param arguments the arguments by name
 */
public record ToolCall(String id, String toolName, Map<String, Object> arguments) {

  /** Validates and copies. */
  public ToolCall {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(toolName, "toolName");
    Objects.requireNonNull(arguments, "arguments");
    if (id.isBlank() || toolName.isBlank()) {
      throw new IllegalArgumentException("tool call id and tool name must not be blank");
    }
    arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
  }

  /**
   * The call's id, tool name and arguments; arguments nested deeper than a few dozen levels are
   * shown cut ({@code {…}}), so any call can be logged. {@code equals} and {@code hashCode} compare
   * the arguments in full, as records do.
   */
  @Override
  public String toString() {
    return "ToolCall[id="
        + id
        + ", toolName="
        + toolName
        + ", arguments="
        + ArgumentsText.of(arguments)
        + "]";
  }

  /** A call with a fresh random id. */
  public static ToolCall of(String toolName, Map<String, Object> arguments) {
    return new ToolCall(
        "call_" + UUID.randomUUID().toString().replace("-", ""), toolName, arguments);
  }
}
