package dev.memhook.core.lucene;

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
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The stored form of a {@link Memory} and a {@link ForgetRecord}: JSON with instants as ISO-8601
 * strings and a format version, written field by field so the API records carry no Jackson
 * annotations.
 *
 * <p>Reading accepts every record the store writes: {@link #READ_CONSTRAINTS} are at least {@link
 * RecordLimits}, which the store checks before it writes.
 *
 * <p>Each record is sealed: {@value #SEAL} and eight hex digits of the CRC-32C of the JSON come
 * before it, and reading checks them. Lucene checks the checksums of a segment's metadata when it
 * opens it, but not those of the stored records it decompresses on each read, so a byte flipped on
 * disk inside a record could otherwise read back as a valid record with another concept, title or
 * content. A sealed record damaged on disk fails to read, and the store reports it unreadable. A
 * record without a seal (written before records were sealed: it starts with the JSON's opening
 * brace) is read unchecked.
 *
 * <p>Thread-safe (the {@link ObjectMapper} is configured once and only read). Decoding throws
 * {@link IllegalArgumentException} for JSON that is not a record this codec wrote; the store turns
 * that into a {@code MemoryStoreException}.
 */
final class MemoryJson {
  /** Bumped when the stored form changes incompatibly. */
  static final int FORMAT = 1;

  /** What starts a sealed record; the CRC-32C of the JSON follows as eight hex digits. */
  static final String SEAL = "#";

  private static final int SEAL_LENGTH = SEAL.length() + 8;

  /**
   * What the reader accepts, stated rather than left to Jackson's defaults (which refuse strings
   * over 20 million characters and names over 50,000): at least what {@link RecordLimits} lets the
   * writer produce. A record is a flat object; its nesting never goes past three levels.
   */
  static final StreamReadConstraints READ_CONSTRAINTS =
      StreamReadConstraints.builder()
          .maxDocumentLength(RecordLimits.MAX_RECORD_CHARS)
          .maxStringLength(RecordLimits.MAX_RECORD_CHARS)
          .maxNameLength(RecordLimits.MAX_RECORD_CHARS)
          .maxNestingDepth(16)
          .maxNumberLength(64)
          .build();

  private final ObjectMapper mapper =
      new ObjectMapper(JsonFactory.builder().streamReadConstraints(READ_CONSTRAINTS).build());

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
    return seal(serialize(n));
  }

  Memory readMemory(String stored) {
    JsonNode n = parse(unseal(stored));
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
    return seal(serialize(n));
  }

  ForgetRecord readForget(String stored) {
    JsonNode n = parse(unseal(stored));
    return new ForgetRecord(
        MemoryId.of(text(n, "id")),
        new Scope(text(n, "scope")),
        text(n, "actor"),
        text(n, "reason"),
        Instant.parse(text(n, "at")));
  }

  /** {@code json} with its seal before it. */
  static String seal(String json) {
    return SEAL + String.format(Locale.ROOT, "%08x", crc(json)) + json;
  }

  /**
   * The JSON of a stored record, its seal checked and removed; an unsealed record as it is.
   *
   * @throws IllegalArgumentException if the record is missing, or its seal is damaged or does not
   *     match the JSON
   */
  static String unseal(String stored) {
    if (stored == null) {
      throw new IllegalArgumentException("stored record is missing");
    }
    if (!stored.startsWith(SEAL)) {
      return stored;
    }
    if (stored.length() < SEAL_LENGTH) {
      throw new IllegalArgumentException("stored record is cut short inside its seal");
    }
    int sealed = 0;
    for (int i = SEAL.length(); i < SEAL_LENGTH; i++) {
      int digit = Character.digit(stored.charAt(i), 16);
      if (digit < 0) {
        throw new IllegalArgumentException("stored record has a damaged seal");
      }
      sealed = (sealed << 4) | digit;
    }
    String json = stored.substring(SEAL_LENGTH);
    if (crc(json) != sealed) {
      throw new IllegalArgumentException(
          "stored record does not match its checksum (CRC-32C): it was damaged on disk");
    }
    return json;
  }

  /** The CRC-32C of {@code text}'s UTF-16 code units, big-endian. */
  private static int crc(String text) {
    CRC32C crc = new CRC32C();
    ByteBuffer chunk = ByteBuffer.allocate(2 * Math.min(text.length(), 4_096));
    for (int i = 0; i < text.length(); ) {
      chunk.clear();
      while (i < text.length() && chunk.hasRemaining()) {
        chunk.putChar(text.charAt(i++));
      }
      chunk.flip();
      crc.update(chunk);
    }
    return (int) crc.getValue();
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
