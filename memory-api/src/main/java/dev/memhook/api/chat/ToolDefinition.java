package dev.memhook.api.chat;

import java.util.Objects;

/**
 * What a model is told about a tool.
 *
 * @param name the name the model calls it by
 * @param description what it does, for the model
 * @param parametersSchema a JSON Schema of its arguments, as JSON text
 */
public record ToolDefinition(String name, String description, String parametersSchema) {
  /** Validates the definition. */
  public ToolDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(parametersSchema, "parametersSchema");
    if (!name.matches("[A-Za-z0-9_-]{1,64}")) {
      throw new IllegalArgumentException(
          "tool name must be 1-64 characters of [A-Za-z0-9_-], got '" + name + "'");
    }
  }
}
