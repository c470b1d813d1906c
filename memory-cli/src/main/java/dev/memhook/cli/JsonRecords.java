package dev.memhook.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.SourcePin;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON form of memories and forget records that {@code --json} prints and {@code export}
 * writes, and its reading back for {@code import}. Field names are the record components' names,
 * stable for scripts; instants are ISO-8601 strings, enums lower case, absent optional values
 * {@code null}. Reading is strict: a missing or mistyped field fails with an {@link
 * IllegalArgumentException} naming it. Stateless and thread-safe.
 */
final class JsonRecords {

  /** Shared, configured once, never changed: Jackson's mapper is thread-safe so. */
  static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonRecords() {}

  static ObjectNode memory(Memory m) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("id", m.id().value());
    n.put("type", lower(m.type()));
    n.put("scope", m.scope().value());
    n.put("title", m.title());
    n.put("summary", m.summary());
    n.put("content", m.content());
    n.put("context", m.context());
    strings(n.putArray("concepts"), m.concepts());
    strings(n.putArray("files"), m.files());
    n.put("sourceSession", m.sourceSession());
    ObjectNode origin = n.putObject("origin");
    origin.put("kind", lower(m.origin().kind()));
    origin.put("name", m.origin().name());
    ObjectNode attributes = n.putObject("attributes");
    m.attributes().forEach(attributes::put);
    n.put("importance", m.importance());
    n.put("version", m.version());
    n.put("supersedes", m.supersedes() == null ? null : m.supersedes().value());
    n.put("latest", m.latest());
    n.put("occurredAt", m.occurredAt().toString());
    n.put("createdAt", m.createdAt().toString());
    ArrayNode pins = n.putArray("sourcePins");
    for (SourcePin p : m.sourcePins()) {
      pins.addObject().put("path", p.path()).put("digest", p.digest());
    }
    return n;
  }

  static ObjectNode forgotten(ForgetRecord r) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("id", r.id().value());
    n.put("scope", r.scope().value());
    n.put("actor", r.actor());
    n.put("reason", r.reason());
    n.put("at", r.at().toString());
    ArrayNode removed = n.putArray("removed");
    r.removed().forEach(id -> removed.add(id.value()));
    return n;
  }

  /**
   * The memory {@code n} describes.
   *
   * @throws IllegalArgumentException naming the field that is missing or malformed
   */
  static Memory readMemory(JsonNode n) {
    String supersedes = optionalText(n, "supersedes");
    JsonNode origin = field(n, "origin", JsonNodeType.OBJECT);
    Map<String, String> attributes = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : field(n, "attributes", JsonNodeType.OBJECT).properties()) {
      attributes.put(e.getKey(), textOf(e.getValue(), "attributes"));
    }
    List<SourcePin> pins = new ArrayList<>();
    for (JsonNode p : field(n, "sourcePins", JsonNodeType.ARRAY)) {
      pins.add(new SourcePin(text(p, "path"), text(p, "digest")));
    }
    return Memory.builder()
        .id(MemoryId.of(text(n, "id")))
        .type(enumValue(MemoryType.class, text(n, "type"), "type"))
        .scope(new Scope(text(n, "scope")))
        .title(text(n, "title"))
        .summary(text(n, "summary"))
        .content(text(n, "content"))
        .context(text(n, "context"))
        .concepts(strings(n, "concepts"))
        .files(strings(n, "files"))
        .sourceSession(optionalText(n, "sourceSession"))
        .origin(
            new Origin(
                enumValue(Origin.Kind.class, text(origin, "kind"), "origin.kind"),
                optionalText(origin, "name")))
        .attributes(attributes)
        .importance(field(n, "importance", JsonNodeType.NUMBER).doubleValue())
        .version(field(n, "version", JsonNodeType.NUMBER).intValue())
        .supersedes(supersedes == null ? null : MemoryId.of(supersedes))
        .latest(field(n, "latest", JsonNodeType.BOOLEAN).booleanValue())
        .occurredAt(instant(n, "occurredAt"))
        .createdAt(instant(n, "createdAt"))
        .sourcePins(pins)
        .build();
  }

  /**
   * The forget record {@code n} describes. Its {@code removed} ids are optional: an export written
   * before records listed them reads as a record of its own id alone.
   *
   * @throws IllegalArgumentException naming the field that is missing or malformed
   */
  static ForgetRecord readForgotten(JsonNode n) {
    MemoryId id = MemoryId.of(text(n, "id"));
    List<MemoryId> removed =
        n.hasNonNull("removed")
            ? strings(n, "removed").stream().map(MemoryId::of).toList()
            : List.of(id);
    return new ForgetRecord(
        id,
        new Scope(text(n, "scope")),
        text(n, "actor"),
        text(n, "reason"),
        instant(n, "at"),
        removed);
  }

  /** Prints {@code node} as one line of compact JSON. */
  static void print(PrintStream out, JsonNode node) {
    try {
      out.println(MAPPER.writeValueAsString(node));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code value}'s name in lower case, as JSON shows enums. */
  static String lower(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }

  private static void strings(ArrayNode array, List<String> values) {
    values.forEach(array::add);
  }

  private static List<String> strings(JsonNode n, String name) {
    List<String> out = new ArrayList<>();
    for (JsonNode v : field(n, name, JsonNodeType.ARRAY)) {
      out.add(textOf(v, name));
    }
    return out;
  }

  private static JsonNode field(JsonNode n, String name, JsonNodeType type) {
    JsonNode v = n.get(name);
    if (v == null || v.getNodeType() != type) {
      throw new IllegalArgumentException(
          "field '"
              + name
              + "' must be "
              + type.name().toLowerCase(Locale.ROOT)
              + (v == null ? ", but it is missing" : ", got " + lower(v.getNodeType())));
    }
    return v;
  }

  private static String text(JsonNode n, String name) {
    return field(n, name, JsonNodeType.STRING).textValue();
  }

  private static String optionalText(JsonNode n, String name) {
    JsonNode v = n.get(name);
    return v == null || v.isNull() ? null : text(n, name);
  }

  private static String textOf(JsonNode v, String name) {
    if (!v.isTextual()) {
      throw new IllegalArgumentException("field '" + name + "' must hold strings");
    }
    return v.textValue();
  }

  private static Instant instant(JsonNode n, String name) {
    try {
      return Instant.parse(text(n, name));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("field '" + name + "' must be an ISO-8601 instant", e);
    }
  }

  private static <E extends Enum<E>> E enumValue(Class<E> type, String value, String name) {
    try {
      return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("field '" + name + "' has unknown value '" + value + "'");
    }
  }
}
