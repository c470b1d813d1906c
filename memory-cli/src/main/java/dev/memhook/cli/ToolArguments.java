package dev.memhook.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The arguments of one MCP tool call, read with the checks the tools' JSON schemas state, so that a
 * model's malformed call becomes a tool error naming the argument (an {@link
 * IllegalArgumentException}) rather than a crash. Not thread-safe; one per call.
 */
final class ToolArguments {
  private final Map<String, Object> values;

  ToolArguments(Map<String, Object> values) {
    this.values = values == null ? Map.of() : values;
  }

  String requiredString(String name) {
    String v = string(name, null);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException("'" + name + "' is required and must not be blank");
    }
    return v;
  }

  String string(String name, String otherwise) {
    Object v = values.get(name);
    if (v == null) {
      return otherwise;
    }
    if (!(v instanceof String s)) {
      throw new IllegalArgumentException("'" + name + "' must be a string");
    }
    return s;
  }

  int integer(String name, int otherwise, int min, int max) {
    Object v = values.get(name);
    if (v == null) {
      return otherwise;
    }
    if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
      throw new IllegalArgumentException("'" + name + "' must be an integer");
    }
    long i = n.longValue();
    if (i < min || i > max) {
      throw new IllegalArgumentException(
          "'" + name + "' must be from " + min + " to " + max + ", got " + i);
    }
    return (int) i;
  }

  double number(String name, double otherwise, double min, double max) {
    Object v = values.get(name);
    if (v == null) {
      return otherwise;
    }
    if (!(v instanceof Number n) || n.doubleValue() < min || n.doubleValue() > max) {
      throw new IllegalArgumentException(
          "'" + name + "' must be a number from " + min + " to " + max);
    }
    return n.doubleValue();
  }

  boolean bool(String name, boolean otherwise) {
    Object v = values.get(name);
    if (v == null) {
      return otherwise;
    }
    if (!(v instanceof Boolean b)) {
      throw new IllegalArgumentException("'" + name + "' must be true or false");
    }
    return b;
  }

  List<String> strings(String name, int maxCount) {
    Object v = values.get(name);
    if (v == null) {
      return List.of();
    }
    if (!(v instanceof List<?> list)) {
      throw new IllegalArgumentException("'" + name + "' must be an array of strings");
    }
    if (list.size() > maxCount) {
      throw new IllegalArgumentException(
          "'" + name + "' holds at most " + maxCount + " entries, got " + list.size());
    }
    List<String> out = new ArrayList<>(list.size());
    for (Object o : list) {
      if (!(o instanceof String s)) {
        throw new IllegalArgumentException("'" + name + "' must be an array of strings");
      }
      out.add(s);
    }
    return out;
  }

  Object raw(String name) {
    return values.get(name);
  }
}
