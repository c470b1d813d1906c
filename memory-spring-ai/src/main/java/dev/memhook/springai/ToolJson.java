package dev.memhook.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;

/**
 * How tool arguments and tool errors cross into Spring AI, which carries both as JSON text.
 *
 * <p>Stateless; thread-safe.
 */
final class ToolJson {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> ARGS = new TypeReference<>() {};

  /**
   * The arguments as a JSON object.
   *
   * @throws IllegalArgumentException if they are not JSON-serialisable
   */
  static String toJson(Map<String, Object> args) {
    try {
      return JSON.writeValueAsString(args);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("tool arguments are not JSON-serialisable: " + args, e);
    }
  }

  /**
   * The arguments a model sent as JSON text; null or blank text, and the JSON {@code null}, read as
   * no arguments.
   *
   * @throws JsonProcessingException if the text is not a JSON object
   */
  static Map<String, Object> readArguments(String toolInput) throws JsonProcessingException {
    Map<String, Object> args =
        toolInput == null || toolInput.isBlank() ? Map.of() : JSON.readValue(toolInput, ARGS);
    return args == null ? Map.of() : args;
  }

  /** A tool result reporting an error: {@code {"error": message}}. */
  static String errorJson(String message) {
    return toJson(Map.of("error", message));
  }

  private ToolJson() {}
}
