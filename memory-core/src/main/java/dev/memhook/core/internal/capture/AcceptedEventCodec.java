package dev.memhook.core.internal.capture;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * An {@link AcceptedEvent} as the bytes of one journal record, and back: a UTF-8 JSON object
 * opening with its format version.
 *
 * <p>Format 1: {@code {"v":1,"key":…,"observationId":…,"scope":…,"capturedAt":…,"truncated":…,
 * "event":{"hookType":…,"sessionId":…,"project":…,"cwd":…,"timestamp":…,"eventId":…,"data":{
 * "toolName":…,"input":…,"output":…,"prompt":…,"error":…,"agentName":…,"message":…,"speaker":…}}}}.
 * Instants are ISO-8601 strings with every digit of the nanoseconds ({@link Instant#toString}); the
 * hook type is its wire name; an absent (null) field is left out. Every string round-trips exactly,
 * a lone surrogate included (Jackson writes it as a {@code \}{@code u} escape). Reading ignores
 * unknown fields, so a field added within format 1 does not break older readers.
 *
 * <p>Streaming Jackson, no data binding. Stateless and thread-safe.
 */
public final class AcceptedEventCodec {

  /** The format version {@link #encode} writes and {@link #decode} reads. */
  public static final int VERSION = 1;

  private AcceptedEventCodec() {}

  /** The record bytes of {@code accepted}. */
  public static byte[] encode(AcceptedEvent accepted) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    try (JsonGenerator g = CaptureJson.FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
      g.writeStartObject();
      g.writeNumberField("v", VERSION);
      g.writeStringField("key", accepted.key());
      g.writeStringField("observationId", accepted.observationId().value());
      g.writeStringField("scope", accepted.scope().value());
      g.writeStringField("capturedAt", accepted.capturedAt().toString());
      g.writeBooleanField("truncated", accepted.truncated());
      LifecycleEvent e = accepted.event();
      g.writeObjectFieldStart("event");
      g.writeStringField("hookType", e.type().wireName());
      g.writeStringField("sessionId", e.sessionId());
      optional(g, "project", e.project());
      optional(g, "cwd", e.cwd());
      g.writeStringField("timestamp", e.timestamp().toString());
      optional(g, "eventId", e.eventId());
      EventData d = e.data();
      g.writeObjectFieldStart("data");
      optional(g, "toolName", d.toolName());
      optional(g, "input", d.input());
      optional(g, "output", d.output());
      optional(g, "prompt", d.prompt());
      optional(g, "error", d.error());
      optional(g, "agentName", d.agentName());
      optional(g, "message", d.message());
      optional(g, "speaker", d.speaker());
      g.writeEndObject();
      g.writeEndObject();
      g.writeEndObject();
    } catch (IOException e) {
      // a ByteArrayOutputStream does no I/O, and every value written is a string or a number
      throw new IllegalStateException("could not encode an accepted event", e);
    }
    return out.toByteArray();
  }

  /**
   * The accepted event {@code bytes} hold.
   *
   * @throws IllegalArgumentException if they are not a record of a known format: the message names
   *     the version or the field at fault
   */
  public static AcceptedEvent decode(byte[] bytes) {
    try (JsonParser p = CaptureJson.FACTORY.createParser(bytes)) {
      expect(p.nextToken() == JsonToken.START_OBJECT, "is not a JSON object");
      expect(
          p.nextToken() == JsonToken.FIELD_NAME && p.currentName().equals("v"), "has no version");
      expect(p.nextToken() == JsonToken.VALUE_NUMBER_INT, "has a version that is not a number");
      if (p.getNumberType() != JsonParser.NumberType.INT || p.getIntValue() != VERSION) {
        throw new IllegalArgumentException(
            "journal record has format version "
                + p.getText()
                + ", which this version of Memhook cannot read (it reads "
                + VERSION
                + ")");
      }
      String[] top = new String[5];
      Boolean truncated = null;
      LifecycleEvent event = null;
      for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        switch (name) {
          case "key" -> top[0] = text(p, name);
          case "observationId" -> top[1] = text(p, name);
          case "scope" -> top[2] = text(p, name);
          case "capturedAt" -> top[3] = text(p, name);
          case "truncated" -> {
            expect(value.isBoolean(), "has a truncated that is not a boolean");
            truncated = value == JsonToken.VALUE_TRUE;
          }
          case "event" -> event = event(p);
          default -> p.skipChildren();
        }
      }
      expect(p.nextToken() == null, "has text after its object");
      return new AcceptedEvent(
          required(event, "event"),
          required(top[0], "key"),
          MemoryId.of(required(top[1], "observationId")),
          new Scope(required(top[2], "scope")),
          instant(required(top[3], "capturedAt"), "capturedAt"),
          required(truncated, "truncated"));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "journal record is not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException("journal record could not be read: " + e.getMessage());
    }
  }

  private static LifecycleEvent event(JsonParser p) throws IOException {
    expect(p.currentToken() == JsonToken.START_OBJECT, "has an event that is not an object");
    String[] f = new String[6];
    EventData data = null;
    for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
      String name = p.currentName();
      p.nextToken();
      switch (name) {
        case "hookType" -> f[0] = text(p, name);
        case "sessionId" -> f[1] = text(p, name);
        case "project" -> f[2] = text(p, name);
        case "cwd" -> f[3] = text(p, name);
        case "timestamp" -> f[4] = text(p, name);
        case "eventId" -> f[5] = text(p, name);
        case "data" -> data = data(p);
        default -> p.skipChildren();
      }
    }
    String wire = required(f[0], "event.hookType");
    LifecycleEventType type =
        LifecycleEventType.fromWire(wire)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "journal record has an unknown event.hookType '" + wire + "'"));
    return new LifecycleEvent(
        type,
        required(f[1], "event.sessionId"),
        f[2],
        f[3],
        instant(required(f[4], "event.timestamp"), "event.timestamp"),
        f[5],
        required(data, "event.data"));
  }

  private static EventData data(JsonParser p) throws IOException {
    expect(p.currentToken() == JsonToken.START_OBJECT, "has event.data that is not an object");
    String[] f = new String[8];
    for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
      String name = p.currentName();
      p.nextToken();
      int i =
          switch (name) {
            case "toolName" -> 0;
            case "input" -> 1;
            case "output" -> 2;
            case "prompt" -> 3;
            case "error" -> 4;
            case "agentName" -> 5;
            case "message" -> 6;
            case "speaker" -> 7;
            default -> -1;
          };
      if (i < 0) {
        p.skipChildren();
      } else {
        f[i] = text(p, "event.data." + name);
      }
    }
    return new EventData(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]);
  }

  private static void optional(JsonGenerator g, String name, String value) throws IOException {
    if (value != null) {
      g.writeStringField(name, value);
    }
  }

  private static String text(JsonParser p, String field) throws IOException {
    expect(p.currentToken() == JsonToken.VALUE_STRING, "has a " + field + " that is not a string");
    return p.getText();
  }

  private static Instant instant(String text, String field) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "journal record has a " + field + " that is not an ISO-8601 instant");
    }
  }

  private static <T> T required(T value, String field) {
    if (value == null) {
      throw new IllegalArgumentException("journal record has no " + field);
    }
    return value;
  }

  private static void expect(boolean condition, String fault) {
    if (!condition) {
      throw new IllegalArgumentException("journal record " + fault);
    }
  }
}
