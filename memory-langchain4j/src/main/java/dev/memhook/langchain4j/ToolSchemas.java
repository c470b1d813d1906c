package dev.memhook.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Converts a {@link dev.memhook.api.chat.ToolDefinition#parametersSchema()} (JSON Schema text) into
 * the LangChain4j {@link JsonObjectSchema} a {@code ToolSpecification} carries.
 *
 * <h2>Design note</h2>
 *
 * LangChain4j models a subset of JSON Schema: the types, {@code properties}, {@code required},
 * boolean {@code additionalProperties}, {@code items}, string {@code enum}, {@code anyOf} and
 * descriptions. Validation keywords it cannot carry ({@code minimum}, {@code maxItems}, {@code
 * pattern}, …) are dropped: they only narrow what the model is told, and a Memhook tool checks its
 * own arguments and answers a bad call with an error result. Any other keyword ({@code oneOf},
 * {@code $ref}, {@code not}, …) changes what a valid call is, so dropping it would tell the model
 * something false: it is rejected with an {@link IllegalArgumentException} naming the keyword and
 * where it is, when the tool is registered. Stateless and thread-safe.
 */
final class ToolSchemas {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Set<String> SUPPORTED =
      Set.of(
          "type",
          "description",
          "properties",
          "required",
          "additionalProperties",
          "items",
          "enum",
          "anyOf");

  /** Keywords LangChain4j cannot carry that only narrow valid values; dropped. */
  private static final Set<String> DROPPED =
      Set.of(
          "$schema",
          "$id",
          "$comment",
          "title",
          "default",
          "examples",
          "deprecated",
          "readOnly",
          "writeOnly",
          "minimum",
          "maximum",
          "exclusiveMinimum",
          "exclusiveMaximum",
          "multipleOf",
          "minLength",
          "maxLength",
          "pattern",
          "format",
          "minItems",
          "maxItems",
          "uniqueItems",
          "minProperties",
          "maxProperties");

  private ToolSchemas() {}

  /**
   * The parameters schema of a tool.
   *
   * @throws IllegalArgumentException if the text is not JSON, does not describe an object, or uses
   *     a keyword LangChain4j cannot express (the message names it and its path)
   */
  static JsonObjectSchema parameters(String schemaJson) {
    JsonNode root;
    try {
      root = JSON.readTree(schemaJson);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "parametersSchema is not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("parametersSchema must be a JSON object");
    }
    // tool arguments are always an object: a root without a type (such as {}) describes one
    JsonSchemaElement element =
        root.has("type") || root.has("anyOf") || root.has("enum")
            ? element(root, "$")
            : object(checked(root, "$"), "$", description(root));
    if (!(element instanceof JsonObjectSchema object)) {
      throw new IllegalArgumentException(
          "parametersSchema must describe an object (\"type\": \"object\"), got "
              + root.get("type"));
    }
    return object;
  }

  /** {@code node}, once it is known to be a schema object of supported keywords only. */
  private static JsonNode checked(JsonNode node, String path) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(path + ": a schema must be a JSON object, got " + node);
    }
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String name = field.getKey();
      if (!SUPPORTED.contains(name) && !DROPPED.contains(name)) {
        throw new IllegalArgumentException(
            path
                + ": the JSON Schema keyword \""
                + name
                + "\" cannot be expressed as a LangChain4j schema; supported: "
                + String.join(", ", SUPPORTED.stream().sorted().toList())
                + " (validation keywords such as minimum or maxItems are dropped)");
      }
    }
    return node;
  }

  private static String description(JsonNode node) {
    return node.hasNonNull("description") ? node.get("description").asText() : null;
  }

  private static JsonSchemaElement element(JsonNode node, String path) {
    checked(node, path);
    String description = description(node);
    if (node.has("anyOf")) {
      if (node.has("type") || node.has("enum")) {
        throw new IllegalArgumentException(
            path + ": anyOf together with type or enum is not supported; put them in the branches");
      }
      JsonNode branches = node.get("anyOf");
      if (!branches.isArray() || branches.isEmpty()) {
        throw new IllegalArgumentException(path + ".anyOf: must be a non-empty array");
      }
      List<JsonSchemaElement> elements = new ArrayList<>();
      for (int i = 0; i < branches.size(); i++) {
        elements.add(element(branches.get(i), path + ".anyOf[" + i + "]"));
      }
      return JsonAnyOfSchema.builder().description(description).anyOf(elements).build();
    }
    if (node.has("enum")) {
      return enumeration(node, path, description);
    }
    JsonNode type = node.get("type");
    if (type == null) {
      if (node.has("properties")) {
        return ofType("object", node, path, description);
      }
      throw new IllegalArgumentException(
          path + ": a schema without \"type\" is not supported (LangChain4j needs one)");
    }
    if (type.isArray()) {
      List<JsonSchemaElement> elements = new ArrayList<>();
      for (JsonNode t : type) {
        elements.add(ofType(typeName(t, path), node, path, null));
      }
      return JsonAnyOfSchema.builder().description(description).anyOf(elements).build();
    }
    return ofType(typeName(type, path), node, path, description);
  }

  private static String typeName(JsonNode type, String path) {
    if (!type.isTextual()) {
      throw new IllegalArgumentException(path + ".type: must be a string, got " + type);
    }
    return type.asText();
  }

  private static JsonSchemaElement enumeration(JsonNode node, String path, String description) {
    JsonNode type = node.get("type");
    if (type != null && !(type.isTextual() && type.asText().equals("string"))) {
      throw new IllegalArgumentException(
          path + ": only string enums are supported by LangChain4j, got type " + type);
    }
    List<String> values = new ArrayList<>();
    for (JsonNode value : node.get("enum")) {
      if (!value.isTextual()) {
        throw new IllegalArgumentException(
            path + ".enum: only string values are supported by LangChain4j, got " + value);
      }
      values.add(value.asText());
    }
    if (values.isEmpty()) {
      throw new IllegalArgumentException(path + ".enum: must not be empty");
    }
    return JsonEnumSchema.builder().description(description).enumValues(values).build();
  }

  private static JsonSchemaElement ofType(
      String type, JsonNode node, String path, String description) {
    switch (type) {
      case "string":
        return JsonStringSchema.builder().description(description).build();
      case "integer":
        return JsonIntegerSchema.builder().description(description).build();
      case "number":
        return JsonNumberSchema.builder().description(description).build();
      case "boolean":
        return JsonBooleanSchema.builder().description(description).build();
      case "null":
        return new JsonNullSchema();
      case "array":
        JsonNode items = node.get("items");
        if (items == null) {
          throw new IllegalArgumentException(
              path + ": an array schema needs \"items\" for LangChain4j");
        }
        return JsonArraySchema.builder()
            .description(description)
            .items(element(items, path + ".items"))
            .build();
      case "object":
        return object(node, path, description);
      default:
        throw new IllegalArgumentException(
            path + ".type: unknown JSON Schema type \"" + type + "\"");
    }
  }

  private static JsonObjectSchema object(JsonNode node, String path, String description) {
    JsonObjectSchema.Builder builder = JsonObjectSchema.builder().description(description);
    JsonNode properties = node.get("properties");
    if (properties != null) {
      if (!properties.isObject()) {
        throw new IllegalArgumentException(path + ".properties: must be an object");
      }
      Map<String, JsonSchemaElement> elements = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> property : properties.properties()) {
        elements.put(
            property.getKey(),
            element(property.getValue(), path + ".properties." + property.getKey()));
      }
      builder.addProperties(elements);
    }
    JsonNode required = node.get("required");
    if (required != null) {
      if (!required.isArray()) {
        throw new IllegalArgumentException(path + ".required: must be an array of names");
      }
      List<String> names = new ArrayList<>();
      for (JsonNode name : required) {
        if (!name.isTextual()) {
          throw new IllegalArgumentException(path + ".required: names must be strings");
        }
        names.add(name.asText());
      }
      builder.required(names);
    }
    JsonNode additional = node.get("additionalProperties");
    if (additional != null) {
      if (!additional.isBoolean()) {
        throw new IllegalArgumentException(
            path + ".additionalProperties: only true or false is supported by LangChain4j");
      }
      builder.additionalProperties(additional.asBoolean());
    }
    return builder.build();
  }
}
