package dev.memhook.postgres;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.SourcePin;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The stored form of a {@link Memory} and a {@link ForgetRecord}: JSON in a {@code text} column,
 * written field by field so the API records carry no Jackson annotations.
 *
 * <p>Why JSON in {@code text} and not {@code jsonb} or a column per field: {@code jsonb} and {@code
 * text} columns refuse U+0000, which a memory may hold; a JSON string escapes it. Whether a memory
 * is latest is not in the record but in its own column, so that superseding a version updates one
 * boolean instead of rewriting the record.
 *
 * <p>Thread-safe (the mapper is configured once and only read). Decoding throws {@link
 * IllegalArgumentException} for text that is not a record this codec wrote.
 */
final class RecordCodec {
  static final int FORMAT = 1;

  /** The longest record read back: several times the largest the field limits allow. */
  private static final int MAX_RECORD_CHARS = 8 * 1024 * 1024;

  private final ObjectMapper mapper =
      new ObjectMapper(
          JsonFactory.builder()
              .streamReadConstraints(
                  StreamReadConstraints.builder()
                      .maxDocumentLength(MAX_RECORD_CHARS)
                      .maxStringLength(MAX_RECORD_CHARS)
                      .maxNestingDepth(16)
                      .build())
              .build());

  /**
   * Refuses text holding an unpaired UTF-16 surrogate: PostgreSQL stores UTF-8, which cannot carry
   * one, and the driver would silently replace it, so the record would not read back equal. {@code
   * MemoryService} replaces them with U+FFFD before a memory reaches a store.
   */
  static void checkWellFormed(String text, String what) {
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            what
                + " holds an unpaired UTF-16 surrogate (U+"
                + Integer.toHexString(c).toUpperCase(Locale.ROOT)
                + "), which PostgreSQL cannot store as text; replace it with U+FFFD first, as"
                + " MemoryService does; nothing was written");
      }
    }
  }

  String write(Memory m) {
    ObjectNode n = mapper.createObjectNode();
    n.put("format", FORMAT);
    n.put("id", m.id().value());
    n.put("type", m.type().name());
    n.put("title", m.title());
    n.put("summary", m.summary());
    n.put("content", m.content());
    strings(n.putArray("concepts"), m.concepts());
    strings(n.putArray("files"), m.files());
    n.put("scope", m.scope().value());
    n.put("context", m.context());
    if (m.sourceSession() != null) {
      n.put("sourceSession", m.sourceSession());
    }
    ObjectNode origin = n.putObject("origin");
    origin.put("kind", m.origin().kind().name());
    if (m.origin().name() != null) {
      origin.put("name", m.origin().name());
    }
    ObjectNode attributes = n.putObject("attributes");
    m.attributes().forEach(attributes::put);
    n.put("importance", m.importance());
    n.put("version", m.version());
    if (m.supersedes() != null) {
      n.put("supersedes", m.supersedes().value());
    }
    n.put("occurredAt", m.occurredAt().toString());
    n.put("createdAt", m.createdAt().toString());
    ArrayNode pins = n.putArray("sourcePins");
    for (SourcePin pin : m.sourcePins()) {
      pins.addObject().put("path", pin.path()).put("digest", pin.digest());
    }
    String json = serialize(n);
    checkWellFormed(json, "memory " + m.id().value());
    return json;
  }

  Memory readMemory(String stored, boolean latest) {
    JsonNode n = parse(stored);
    Memory.Builder b =
        Memory.builder()
            .id(MemoryId.of(text(n, "id")))
            .type(MemoryType.valueOf(text(n, "type")))
            .title(text(n, "title"))
            .summary(text(n, "summary"))
            .content(text(n, "content"))
            .concepts(strings(n.path("concepts")))
            .files(strings(n.path("files")))
            .scope(new Scope(text(n, "scope")))
            .context(text(n, "context"))
            .sourceSession(n.hasNonNull("sourceSession") ? n.get("sourceSession").asText() : null)
            .origin(
                new Origin(
                    Origin.Kind.valueOf(text(n.path("origin"), "kind")),
                    n.path("origin").hasNonNull("name")
                        ? n.path("origin").get("name").asText()
                        : null))
            .importance(n.path("importance").asDouble())
            .version(n.path("version").asInt())
            .supersedes(
                n.hasNonNull("supersedes") ? MemoryId.of(n.get("supersedes").asText()) : null)
            .latest(latest)
            .occurredAt(Instant.parse(text(n, "occurredAt")))
            .createdAt(Instant.parse(text(n, "createdAt")));
    Map<String, String> attributes = new LinkedHashMap<>();
    n.path("attributes")
        .properties()
        .forEach(e -> attributes.put(e.getKey(), e.getValue().asText()));
    b.attributes(attributes);
    List<SourcePin> pins = new ArrayList<>();
    for (JsonNode pin : n.path("sourcePins")) {
      pins.add(new SourcePin(text(pin, "path"), text(pin, "digest")));
    }
    return b.sourcePins(pins).build();
  }

  String write(ForgetRecord r) {
    ObjectNode n = mapper.createObjectNode();
    n.put("format", FORMAT);
    n.put("id", r.id().value());
    n.put("scope", r.scope().value());
    n.put("actor", r.actor());
    n.put("reason", r.reason());
    n.put("at", r.at().toString());
    String json = serialize(n);
    checkWellFormed(json, "the forget record of " + r.id().value());
    return json;
  }

  ForgetRecord readForget(String stored) {
    JsonNode n = parse(stored);
    return new ForgetRecord(
        MemoryId.of(text(n, "id")),
        new Scope(text(n, "scope")),
        text(n, "actor"),
        text(n, "reason"),
        Instant.parse(text(n, "at")));
  }

  private String serialize(ObjectNode n) {
    try {
      return mapper.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings and numbers failed to serialize", e);
    }
  }

  private JsonNode parse(String json) {
    try {
      JsonNode n = mapper.readTree(json);
      if (n == null || !n.isObject() || n.path("format").asInt() != FORMAT) {
        throw new IllegalArgumentException("not a record of format " + FORMAT);
      }
      return n;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not a JSON record: " + e.getOriginalMessage(), e);
    }
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException("record lacks the text field " + field);
    }
    return v.asText();
  }

  private static void strings(ArrayNode array, List<String> values) {
    values.forEach(array::add);
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(v -> out.add(v.asText()));
    return out;
  }
}
