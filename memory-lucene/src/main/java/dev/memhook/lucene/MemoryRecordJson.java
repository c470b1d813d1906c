package dev.memhook.lucene;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The stored form of a {@link Memory} and a {@link ForgetRecord} that the Lucene and PostgreSQL
 * stores share: JSON with instants as ISO-8601 strings and a format version, written field by field
 * so the API records carry no Jackson annotations. A store adds what is its own around it (the
 * Lucene store a checksum seal, the PostgreSQL store its check for unpaired surrogates).
 *
 * <p>Thread-safe: the mapper is configured once and only read. Null arguments throw {@link
 * NullPointerException}; reading throws {@link IllegalArgumentException} for text that is not a
 * record this class wrote, or is longer than the reader accepts.
 */
public final class MemoryRecordJson {
  /** Bumped when the stored form changes incompatibly. */
  public static final int FORMAT = 1;

  private final ObjectMapper mapper;

  /**
   * A codec whose reader accepts records of up to {@code maxRecordChars} characters (stated rather
   * than left to Jackson's defaults, which refuse strings over 20 million characters and names over
   * 50,000). A record is a flat object; its nesting never goes past three levels.
   *
   * @throws IllegalArgumentException if {@code maxRecordChars} is less than 1
   */
  public MemoryRecordJson(int maxRecordChars) {
    if (maxRecordChars < 1) {
      throw new IllegalArgumentException("maxRecordChars must be positive, got " + maxRecordChars);
    }
    this.mapper =
        new ObjectMapper(
            JsonFactory.builder()
                .streamReadConstraints(
                    StreamReadConstraints.builder()
                        .maxDocumentLength(maxRecordChars)
                        .maxStringLength(maxRecordChars)
                        .maxNameLength(maxRecordChars)
                        .maxNestingDepth(16)
                        .maxNumberLength(64)
                        .build())
                .build());
  }

  /**
   * Refuses text holding an unpaired UTF-16 surrogate. Stores keep text as UTF-8, which cannot
   * carry one: Lucene stored a long record holding one with a length that did not match its bytes
   * and read it back as truncated JSON, and PostgreSQL's driver replaces it silently, so the record
   * would not read back equal. {@code MemoryService} replaces unpaired surrogates with U+FFFD
   * before a memory reaches a store; a caller of a store itself must do the same. The {@code write}
   * methods check what they write.
   *
   * @param what what the text is of, for the message ("memory m_1")
   * @throws IllegalArgumentException if {@code text} holds an unpaired surrogate
   */
  public static void requireWellFormed(String text, String what) {
    int at = unpairedSurrogate(text);
    if (at >= 0) {
      throw new IllegalArgumentException(
          what
              + " holds an unpaired UTF-16 surrogate (U+"
              + Integer.toHexString(text.charAt(at)).toUpperCase(Locale.ROOT)
              + "), which a store cannot keep as UTF-8 text; replace it with U+FFFD first, as"
              + " MemoryService does; nothing was written");
    }
  }

  /**
   * The index of the first UTF-16 surrogate in {@code text} without its pair, or -1 if every
   * surrogate is paired: the text UTF-8 (and JSON) can carry.
   */
  public static int unpairedSurrogate(CharSequence text) {
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The JSON of {@code m}.
   *
   * @throws IllegalArgumentException if a text of {@code m} holds an unpaired surrogate ({@link
   *     #requireWellFormed})
   */
  public String write(Memory m) {
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
    if (!m.context().isEmpty()) {
      n.put("context", m.context());
    }
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
    n.put("latest", m.latest());
    n.put("occurredAt", m.occurredAt().toString());
    n.put("createdAt", m.createdAt().toString());
    ArrayNode pins = n.putArray("sourcePins");
    for (SourcePin pin : m.sourcePins()) {
      pins.addObject().put("path", pin.path()).put("digest", pin.digest());
    }
    String json = serialize(n);
    requireWellFormed(json, "memory " + m.id().value());
    return json;
  }

  /**
   * The memory {@code json} holds.
   *
   * @throws IllegalArgumentException if it is not a memory record this class wrote
   */
  public Memory readMemory(String json) {
    JsonNode n = parse(json);
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
            .context(n.hasNonNull("context") ? n.get("context").asText() : "")
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
            .latest(n.path("latest").asBoolean())
            .occurredAt(IsoInstants.parse(text(n, "occurredAt")))
            .createdAt(IsoInstants.parse(text(n, "createdAt")));
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

  public String write(ForgetRecord r) {
    ObjectNode n = mapper.createObjectNode();
    n.put("format", FORMAT);
    n.put("id", r.id().value());
    n.put("scope", r.scope().value());
    n.put("actor", r.actor());
    n.put("reason", r.reason());
    n.put("at", r.at().toString());
    ArrayNode removed = n.putArray("removed");
    r.removed().forEach(id -> removed.add(id.value()));
    String json = serialize(n);
    requireWellFormed(json, "the forget record of " + r.id().value());
    return json;
  }

  /**
   * The forget record {@code json} holds. A record written before records listed their forget's ids
   * (no {@code removed} field) lists its own id alone.
   *
   * @throws IllegalArgumentException if it is not a forget record this class wrote
   */
  public ForgetRecord readForget(String json) {
    JsonNode n = parse(json);
    MemoryId id = MemoryId.of(text(n, "id"));
    List<MemoryId> removed = new ArrayList<>();
    if (n.hasNonNull("removed")) {
      JsonNode list = n.get("removed");
      if (!list.isArray()) {
        throw new IllegalArgumentException("stored record's 'removed' is not an array");
      }
      for (JsonNode r : list) {
        if (!r.isTextual()) {
          throw new IllegalArgumentException("stored record's 'removed' holds a non-string");
        }
        removed.add(MemoryId.of(r.textValue()));
      }
    } else {
      removed.add(id);
    }
    return new ForgetRecord(
        id,
        new Scope(text(n, "scope")),
        text(n, "actor"),
        text(n, "reason"),
        IsoInstants.parse(text(n, "at")),
        removed);
  }

  private String serialize(ObjectNode n) {
    try {
      return mapper.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      // A tree of plain strings and numbers always serializes.
      throw new IllegalStateException("could not serialize a memory record", e);
    }
  }

  private JsonNode parse(String json) {
    try {
      JsonNode n = mapper.readTree(json);
      if (n == null || !n.isObject()) {
        throw new IllegalArgumentException("stored record is not a JSON object");
      }
      int format = n.path("format").asInt(-1);
      if (format != FORMAT) {
        throw new IllegalArgumentException(
            "stored record has format " + format + ", expected " + FORMAT);
      }
      return n;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "stored record is not valid JSON: " + e.getOriginalMessage(), e);
    }
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      throw new IllegalArgumentException("stored record lacks '" + field + "'");
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
