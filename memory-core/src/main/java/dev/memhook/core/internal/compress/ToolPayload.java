package dev.memhook.core.internal.compress;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * A tool's input or output as text to scan: agents post both as JSON objects ({@code
 * {"command":"mvn test"}}, {@code {"file_path":…,"old_string":…,"new_string":…}}, {@code
 * {"stdout":…,"stderr":…}}), and a path or an identifier inside a JSON string is escaped ({@code
 * \n}, {@code \\}), which a plain scan would misread. So JSON up to {@link #PARSE_LIMIT} characters
 * is parsed, and its string values become the text, each field name remembering its first value;
 * anything else (plain text, broken or larger JSON) is scanned as it is.
 *
 * <p>Immutable and thread-safe.
 *
 * @param fields the first scalar value of each field name, at any depth
 * @param text the string values joined by line breaks, or the raw text
 */
record ToolPayload(Map<String, String> fields, String text) {

  /**
   * The longest JSON parsed, in characters: a captured part is cut to at most 100,000 characters,
   * so this parses every part the pipeline hands over and leaves larger text to the bounded scan.
   */
  static final int PARSE_LIMIT = 200_000;

  /** The empty payload. */
  static final ToolPayload EMPTY = new ToolPayload(Map.of(), "");

  private static final int MAX_DEPTH = 32;

  private static final ObjectMapper JSON =
      new ObjectMapper(
          JsonFactory.builder()
              .streamReadConstraints(
                  StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
              .build());

  ToolPayload {
    fields = Map.copyOf(fields);
  }

  /** The payload of {@code raw} (null gives {@link #EMPTY}). */
  static ToolPayload of(String raw) {
    if (raw == null || raw.isBlank()) {
      return EMPTY;
    }
    if (raw.length() <= PARSE_LIMIT && looksLikeJson(raw)) {
      try {
        JsonNode root = readTree(raw);
        if (root != null && root.isContainerNode()) {
          return flatten(root);
        }
      } catch (Exception e) { // Jackson's own and constraint failures: text that is not JSON
        return new ToolPayload(Map.of(), raw);
      }
    }
    return new ToolPayload(Map.of(), raw);
  }

  /**
   * {@code text} read as a JSON tree with this package's bound on nesting ({@value #MAX_DEPTH}
   * levels): the one reader for JSON that came out of a tool, so no tool output can nest its way
   * into a deep recursion.
   *
   * @throws java.io.IOException if it is not JSON, or nests deeper than the bound
   */
  static JsonNode readTree(String text) throws java.io.IOException {
    return JSON.readTree(text);
  }

  /** The value of the first field named one of {@code names}, or "". */
  String field(String... names) {
    for (String name : names) {
      String value = fields.get(name);
      if (value != null && !value.isBlank()) {
        return value;
      }
    }
    return "";
  }

  private static boolean looksLikeJson(String raw) {
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (!Character.isWhitespace(c)) {
        return c == '{' || c == '[';
      }
    }
    return false;
  }

  private static ToolPayload flatten(JsonNode root) {
    Map<String, String> fields = new HashMap<>();
    StringBuilder text = new StringBuilder();
    Deque<JsonNode> pending = new ArrayDeque<>();
    pending.push(root);
    while (!pending.isEmpty()) {
      JsonNode node = pending.pop();
      if (node.isObject()) {
        // pushed in reverse so the walk reads fields in document order
        Deque<JsonNode> children = new ArrayDeque<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
          if (e.getValue().isValueNode() && !e.getValue().isNull()) {
            fields.putIfAbsent(e.getKey(), e.getValue().asText());
          }
          children.push(e.getValue());
        }
        children.forEach(pending::push);
      } else if (node.isArray()) {
        Deque<JsonNode> children = new ArrayDeque<>();
        node.forEach(children::push);
        children.forEach(pending::push);
      } else if (node.isTextual()) {
        if (text.length() > 0) {
          text.append('\n');
        }
        text.append(node.textValue());
      }
    }
    return new ToolPayload(fields, text.toString());
  }
}
