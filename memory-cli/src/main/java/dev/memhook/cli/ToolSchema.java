package dev.memhook.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON schema of an MCP tool's arguments: an object of named properties, some required, no
 * others allowed. Not thread-safe; built once per tool.
 */
final class ToolSchema {
  private final Map<String, Object> properties = new LinkedHashMap<>();
  private final List<String> required = new ArrayList<>();

  ToolSchema required(String name, String type, String description) {
    required.add(name);
    return optional(name, type, description);
  }

  ToolSchema required(String name, Map<String, Object> schema) {
    required.add(name);
    return optional(name, schema);
  }

  ToolSchema optional(String name, String type, String description) {
    return optional(name, Map.of("type", type, "description", description));
  }

  ToolSchema optional(String name, Map<String, Object> schema) {
    properties.put(name, schema);
    return this;
  }

  Map<String, Object> toMap() {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    schema.put("required", required);
    schema.put("additionalProperties", false);
    return schema;
  }
}
