package dev.memhook.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.memhook.core.Redaction;
import java.util.Map;
import java.util.Objects;

/**
 * Redacts a hook payload before any of it is written to the disk, with the rules the store's
 * capture applies to what it stores ({@link Redaction#redact}): every key and every string at any
 * depth (the command, the tool's input and response, the error, the prompt, the assistant's
 * message), so that the spool never holds what capture would not keep.
 *
 * <h2>Design note</h2>
 *
 * Capture redacts a tool's input and output twice: each string on its own, and the whole compact
 * JSON text, where a value is seen beside its key ({@code "password":"hunter2"}, {@code
 * "pin":1234}). A payload must stay JSON to be drained, and redacting its whole text could break
 * that (a number's marker is no JSON value), so this walks the tree instead: each key and each
 * string is redacted on its own, then each field whose value is a string, number or boolean is
 * redacted as the compact JSON {@code {"key":value}} the whole-text pass would see. A value that
 * pass rewrites takes the rewritten text (a redacted number or boolean becomes the marker string);
 * if the pass rewrote more than the value, the value becomes {@code [redacted]}. Arrays and objects
 * keep their shape, and what no rule matches is left exactly as it was.
 *
 * <p>Errors: {@link IllegalArgumentException} when the redaction fails closed (a host rule spent
 * its budget); then nothing of the payload may be written. Immutable and thread-safe.
 */
final class PayloadScrub {
  private static final String REDACTED = "[redacted]";
  private static final ObjectReader ONE_VALUE =
      JsonRecords.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final Redaction redaction;

  PayloadScrub(Redaction redaction) {
    this.redaction = Objects.requireNonNull(redaction, "redaction");
  }

  /** A redacted copy of {@code payload}; the argument is not changed. */
  ObjectNode scrub(ObjectNode payload) {
    return (ObjectNode) node(payload);
  }

  private JsonNode node(JsonNode n) {
    if (n.isObject()) {
      ObjectNode out = JsonRecords.MAPPER.createObjectNode();
      for (Map.Entry<String, JsonNode> field : n.properties()) {
        String key = redaction.redact(field.getKey());
        JsonNode value = node(field.getValue());
        out.set(key, value.isValueNode() && !value.isNull() ? besideKey(key, value) : value);
      }
      return out;
    }
    if (n.isArray()) {
      ArrayNode out = JsonRecords.MAPPER.createArrayNode();
      n.forEach(e -> out.add(node(e)));
      return out;
    }
    return n.isTextual() ? TextNode.valueOf(redaction.redact(n.textValue())) : n.deepCopy();
  }

  /** {@code value} as redacting the field {@code {"key":value}} leaves it. */
  private JsonNode besideKey(String key, JsonNode value) {
    String prefix = "{" + json(TextNode.valueOf(key)) + ":";
    String field = prefix + json(value) + "}";
    String redacted = redaction.redact(field);
    if (redacted.equals(field)) {
      return value;
    }
    if (!redacted.startsWith(prefix) || !redacted.endsWith("}")) {
      return TextNode.valueOf(REDACTED);
    }
    String rest = redacted.substring(prefix.length(), redacted.length() - 1);
    try {
      JsonNode parsed = ONE_VALUE.readTree(rest);
      if (parsed != null && parsed.isValueNode()) {
        return parsed;
      }
    } catch (JsonProcessingException notJson) {
      // a marker where a number or boolean was: kept as text below
    }
    return TextNode.valueOf(rest.strip());
  }

  private static String json(JsonNode n) {
    try {
      return JsonRecords.MAPPER.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON value could not be written", e);
    }
  }
}
