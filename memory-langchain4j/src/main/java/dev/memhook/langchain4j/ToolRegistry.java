package dev.memhook.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.memhook.api.chat.RegisteredTools;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolHandler;
import dev.memhook.api.chat.ToolResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tools registered on one {@link LangChain4jChatService}, by name, in registration order: each
 * with its {@link ToolSpecification} for the model and its handler.
 *
 * <p>Two ways to execute a call, by who made it: {@link #execute(ToolCall)} for a call the host
 * injects, whose stage fails for an unknown tool or a failing handler; {@link
 * #executeForModel(ToolExecutionRequest)} for a call the model made, whose stage never fails: an
 * unknown tool, arguments that are not a JSON object, or a failing handler give an error result the
 * model reads, and nothing is thrown into the host.
 *
 * <p>Thread-safe; handlers run outside its lock.
 */
final class ToolRegistry {

  private final RegisteredTools tools = new RegisteredTools();

  /** Each registered definition's specification, converted once, at registration. */
  private final Map<ToolDefinition, ToolSpecification> specifications = new ConcurrentHashMap<>();

  /**
   * Registers a tool; the registration removes it, unless another tool took its name since.
   *
   * @throws IllegalArgumentException if the definition's parameters schema cannot be expressed as a
   *     LangChain4j {@code JsonObjectSchema} (the message names the tool, the keyword and where it
   *     is)
   * @throws IllegalStateException if a tool of that name is registered already
   */
  Registration register(ToolDefinition definition, ToolHandler handler) {
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(handler, "handler");
    ToolSpecification specification;
    try {
      specification =
          ToolSpecification.builder()
              .name(definition.name())
              .description(definition.description())
              .parameters(ToolSchemas.parameters(definition.parametersSchema()))
              .build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("tool " + definition.name() + ": " + e.getMessage(), e);
    }
    Registration registration = tools.register(definition, handler);
    specifications.put(definition, specification);
    return () -> {
      registration.remove();
      if (!tools.definitions().contains(definition)) {
        specifications.remove(definition);
      }
    };
  }

  /** The registered tools' specifications, in registration order; empty if there are none. */
  List<ToolSpecification> specifications() {
    List<ToolSpecification> out = new ArrayList<>();
    for (ToolDefinition d : tools.definitions()) {
      ToolSpecification spec = specifications.get(d);
      if (spec != null) {
        out.add(spec);
      }
    }
    return out;
  }

  /** A snapshot of the registered tools' names, in registration order. */
  List<String> names() {
    return tools.definitions().stream().map(ToolDefinition::name).toList();
  }

  /** The registered tools as AiServices executes them: with {@link #executeForModel}. */
  Map<ToolSpecification, ToolExecutor> toolExecutors() {
    Map<ToolSpecification, ToolExecutor> out = new LinkedHashMap<>();
    for (ToolSpecification spec : specifications()) {
      out.put(spec, new AiServicesToolExecutor(this));
    }
    return out;
  }

  /** Executes a registered tool: fails the stage for an unknown tool or a failing handler. */
  CompletionStage<ToolResult> execute(ToolCall call) {
    return tools.execute(call);
  }

  /**
   * Executes a call the model made: every failure becomes an error result the model reads, a call
   * that names no tool too.
   */
  CompletionStage<ToolResult> executeForModel(ToolExecutionRequest request) {
    if (request.name() == null || request.name().isBlank()) {
      return CompletableFuture.completedFuture(
          ToolResult.failure("the tool call names no tool; call one of " + names()));
    }
    ToolCall call;
    try {
      call =
          new ToolCall(
              MessageMapping.toolCall(request).id(),
              request.name(),
              MessageMapping.parseArguments(request.arguments()));
    } catch (IllegalArgumentException e) {
      return CompletableFuture.completedFuture(
          ToolResult.failure("tool " + request.name() + ": " + e.getMessage()));
    }
    return execute(call)
        .handle(
            (result, error) -> {
              if (error == null) {
                return result;
              }
              Throwable cause = Stages.unwrap(error);
              return ToolResult.failure(
                  "tool "
                      + request.name()
                      + " failed: "
                      + Objects.toString(cause.getMessage(), cause.getClass().getSimpleName()));
            });
  }
}
