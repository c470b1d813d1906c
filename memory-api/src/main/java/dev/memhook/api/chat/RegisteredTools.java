package dev.memhook.api.chat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The tools registered on one {@link HostedChat}, by name, in registration order: {@link
 * ChatService#registerTool} returns {@link #register}'s answer, {@link ChatService#injectToolCall}
 * and the model's calls run through {@link #execute}, and the model is offered {@link
 * #definitions()}. A host implementing {@link ChatService} builds on {@link HostedChat}, which
 * holds one.
 *
 * <p>Thread-safe: tools may be registered and removed at any time; handlers run outside its lock.
 * Null arguments are rejected with {@link NullPointerException}.
 */
final class RegisteredTools {

  private record Tool(ToolDefinition definition, ToolHandler handler) {}

  private final Object lock = new Object();

  /** Guarded by {@link #lock}. */
  private final Map<String, Tool> tools = new LinkedHashMap<>();

  /** No tools registered yet. */
  public RegisteredTools() {}

  /**
   * Registers a tool; the registration removes it (and not a tool registered later under the same
   * name), once.
   *
   * @throws IllegalStateException if a tool of that name is registered already
   */
  Registration register(ToolDefinition definition, ToolHandler handler) {
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(handler, "handler");
    Tool tool = new Tool(definition, handler);
    synchronized (lock) {
      if (tools.containsKey(definition.name())) {
        throw new IllegalStateException(
            "a tool named " + definition.name() + " is already registered");
      }
      tools.put(definition.name(), tool);
    }
    return () -> {
      synchronized (lock) {
        tools.remove(definition.name(), tool);
      }
    };
  }

  /** The registered tools' definitions, in registration order. */
  List<ToolDefinition> definitions() {
    synchronized (lock) {
      List<ToolDefinition> out = new ArrayList<>(tools.size());
      for (Tool t : tools.values()) {
        out.add(t.definition());
      }
      return out;
    }
  }

  /** How many tools are registered. */
  int size() {
    synchronized (lock) {
      return tools.size();
    }
  }

  /**
   * Runs {@code call}'s tool. Never throws: an unknown tool fails the stage with an {@link
   * IllegalArgumentException}, as {@link ChatService#injectToolCall} promises; a handler that
   * throws or returns null fails it with what it threw.
   */
  CompletionStage<ToolResult> execute(ToolCall call) {
    Objects.requireNonNull(call, "call");
    Tool tool;
    synchronized (lock) {
      tool = tools.get(call.toolName());
    }
    if (tool == null) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException("no tool named " + call.toolName()));
    }
    try {
      return Objects.requireNonNull(tool.handler().execute(call), "the tool handler returned null");
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
