package dev.memhook.core.internal.capture;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * The end of a session the service held open when it closed, as capture journals it before it
 * drains: the journal record that makes ending sessions on close survive a close cut short and a
 * crash during close. The worker ends the session when it processes the record, live or replayed on
 * the next open, if the session is still active and has captured nothing after {@code through};
 * otherwise (ended since, by its own end event or an earlier replay of this record, or continued
 * after it) the record does nothing. So a session is ended once, however often the record is read.
 *
 * <p>As journal bytes: a UTF-8 JSON object opening with its format version, {@code
 * {"v":1,"sessionId":…,"through":…,"at":…}}, instants as {@link Instant#toString}; reading ignores
 * unknown fields.
 *
 * <p>Immutable and thread-safe; nothing is null.
 *
 * @param sessionId the session to end
 * @param through when this lifetime captured the session's latest event
 * @param at when the service closed: the session's end time
 */
record CloseEnd(String sessionId, Instant through, Instant at) {

  /** The format version {@link #encode} writes and {@link #decode} reads. */
  static final int VERSION = 1;

  /** Requires every component. */
  CloseEnd {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(through, "through");
    Objects.requireNonNull(at, "at");
  }

  /** A close end read from or written to the journal, with its sequence number. */
  record Journaled(long seq, CloseEnd end) {}

  /** The record bytes of this end. */
  byte[] encode() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator g = CaptureJson.FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
      g.writeStartObject();
      g.writeNumberField("v", VERSION);
      g.writeStringField("sessionId", sessionId);
      g.writeStringField("through", through.toString());
      g.writeStringField("at", at.toString());
      g.writeEndObject();
    } catch (IOException e) {
      // a ByteArrayOutputStream does no I/O, and every value written is a string or a number
      throw new IllegalStateException("could not encode a session end", e);
    }
    return out.toByteArray();
  }

  /**
   * The end {@code bytes} hold.
   *
   * @throws IllegalArgumentException if they are not a record of a known format: the message names
   *     the version or the field at fault
   */
  static CloseEnd decode(byte[] bytes) {
    try (JsonParser p = CaptureJson.FACTORY.createParser(bytes)) {
      expect(p.nextToken() == JsonToken.START_OBJECT, "is not a JSON object");
      expect(
          p.nextToken() == JsonToken.FIELD_NAME && p.currentName().equals("v"), "has no version");
      expect(p.nextToken() == JsonToken.VALUE_NUMBER_INT, "has a version that is not a number");
      if (p.getNumberType() != JsonParser.NumberType.INT || p.getIntValue() != VERSION) {
        throw new IllegalArgumentException(
            "session end record has format version "
                + p.getText()
                + ", which this version of Memhook cannot read (it reads "
                + VERSION
                + ")");
      }
      String[] f = new String[3];
      for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        int i =
            switch (name) {
              case "sessionId" -> 0;
              case "through" -> 1;
              case "at" -> 2;
              default -> -1;
            };
        if (i < 0) {
          p.skipChildren();
        } else {
          expect(value == JsonToken.VALUE_STRING, "has a " + name + " that is not a string");
          f[i] = p.getText();
        }
      }
      expect(p.nextToken() == null, "has text after its object");
      return new CloseEnd(
          required(f[0], "sessionId"),
          instant(required(f[1], "through"), "through"),
          instant(required(f[2], "at"), "at"));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "session end record is not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException("session end record could not be read: " + e.getMessage());
    }
  }

  private static Instant instant(String text, String field) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "session end record has a " + field + " that is not an ISO-8601 instant");
    }
  }

  private static String required(String value, String field) {
    if (value == null) {
      throw new IllegalArgumentException("session end record has no " + field);
    }
    return value;
  }

  private static void expect(boolean condition, String fault) {
    if (!condition) {
      throw new IllegalArgumentException("session end record " + fault);
    }
  }
}
