package dev.memhook.langchain4j;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.memhook.api.chat.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The LangChain4j {@link ToolSpecification} of each tool registered on a {@link
 * LangChain4jChatService}, converted once, at registration, so that a schema LangChain4j cannot
 * express fails the registration rather than a later model call. Thread-safe.
 */
final class ToolSpecifications {

  private final Map<ToolDefinition, ToolSpecification> byDefinition = new ConcurrentHashMap<>();

  /**
   * Converts {@code definition}.
   *
   * @throws IllegalArgumentException if its parameters schema cannot be expressed as a LangChain4j
   *     {@code JsonObjectSchema} (the message names the tool, the keyword and where it is)
   */
  static ToolSpecification convert(ToolDefinition definition) {
    try {
      return ToolSpecification.builder()
          .name(definition.name())
          .description(definition.description())
          .parameters(ToolSchemas.parameters(definition.parametersSchema()))
          .build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("tool " + definition.name() + ": " + e.getMessage(), e);
    }
  }

  /** Keeps the specification of a definition just registered. */
  void put(ToolDefinition definition, ToolSpecification specification) {
    byDefinition.put(definition, specification);
  }

  /** Forgets the specification of a definition no longer registered. */
  void remove(ToolDefinition definition) {
    byDefinition.remove(definition);
  }

  /** The specifications of {@code tools}, in order. */
  List<ToolSpecification> of(List<ToolDefinition> tools) {
    List<ToolSpecification> out = new ArrayList<>(tools.size());
    for (ToolDefinition d : tools) {
      ToolSpecification spec = byDefinition.get(d);
      if (spec != null) {
        out.add(spec);
      }
    }
    return out;
  }
}
