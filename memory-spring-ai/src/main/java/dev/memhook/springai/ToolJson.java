package dev.memhook.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;

/**
 * How tool arguments and tool errors cross into Spring AI, which carries both as JSON text.
 *
 * <p>Stateless; thread-safe.
 */
final class ToolJson {

  /** Reads one JSON value and refuses text after it, which would otherwise be ignored. */
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

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
   * no arguments. Jackson's default limits bound what is read (nesting, string and number lengths).
   *
   * @throws JsonProcessingException if the text is not one JSON object (text after the object
   *     included), or is over a limit
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
